// An earlier attempt's answer under new inputs: Keyless's refusal of one HWID does not stay under the
// form once another is typed (nor under the spaces dialog), and Validate labels the last run's answer as being
// for other values once the form changed; an Identifier answer and a Keys batch are not read as the new attempt's.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ValidationReport } from '../../src/shared/domain.ts';
import { fake, readyStore, sandboxProfile, useKeydesk } from '../support/fake-bridge.ts';
import { Validate } from '../../src/renderer/src/views/Validate/Validate.tsx';
import { Keyless } from '../../src/renderer/src/views/Keyless/Keyless.tsx';
import { Identifier } from '../../src/renderer/src/views/Identifier/Identifier.tsx';
import { GenerateForm } from '../../src/renderer/src/views/Keys/GenerateForm.tsx';

const refused: ValidationReport = {
  outcome: 'invalid_service',
  success: false,
  message: 'No service has that identifier',
  dryRun: true,
  hwid: 'HW-A',
  premium: false,
  expiresAt: null,
  notes: '',
  keyless: false,
  registeredServiceId: null,
  raw: JSON.stringify({ V2_Authentication: 'failed' }, null, 2),
};
const EXISTS = 'A keyless entry for that HWID exists already.';

beforeEach(() => {
  readyStore([sandboxProfile]);
  fake.impl['hwid.read'] = () => Promise.resolve({ ok: true, data: { readings: [] } });
  fake.impl['validation.run'] = () => Promise.resolve({ ok: true, data: refused });
  fake.impl['keyless.add'] = () => Promise.resolve({ ok: false, code: 'CONFLICT', message: EXISTS });
});

describe('Keyless: a refused add, then another HWID', () => {
  it('drops a Keyless refusal once another HWID is typed', async () => {
    const user = userEvent.setup();
    render(<Keyless />);
    const form = screen.getByRole('form', { name: 'Add an entry' });
    const field = within(form).getByLabelText('HWID');
    await user.type(field, 'HW-1');
    await user.click(within(form).getByRole('button', { name: 'Add' }));
    await within(form).findByText(EXISTS);
    await user.clear(field);
    await user.type(field, ' padded-hwid ');
    expect(within(form).queryByText(EXISTS)).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Add' }));
    expect(screen.getByRole('dialog', { name: 'Add the HWID with its spaces?' })).toBeTruthy();
    expect(within(form).queryByText(EXISTS)).toBeNull();
  });
});

describe('Validate: the last run under changed values', () => {
  it("labels Validate's answer as the last run's once the form changed", async () => {
    const user = userEvent.setup();
    render(<Validate />);
    await user.type(screen.getByLabelText('Key'), 'KEY-1');
    await user.click(screen.getByLabelText('Type a value'));
    await user.type(screen.getByLabelText('Custom HWID'), 'HW-A');
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    await screen.findByRole('status', { name: 'Validation outcome' });
    const label = /^The last run's answer, for other values than those in the form now:$/;
    expect(screen.queryByText(label)).toBeNull();
    await user.type(screen.getByLabelText('Key'), '2 ');
    expect(screen.getByText(label)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(screen.getByRole('dialog', { name: 'Send it with its spaces?' })).toBeTruthy();
    expect(screen.getByText(label)).toBeTruthy();
  });
});

describe('Validate: an attempt the form refuses after a run', () => {
  it('drops the last answer beside a form error, then shows the next', async () => {
    const user = userEvent.setup();
    const valid: ValidationReport = {
      ...refused,
      outcome: 'success',
      success: true,
      message: 'ok',
      raw: JSON.stringify({ V2_Authentication: 'success' }, null, 2),
    };
    fake.impl['validation.run'] = () => Promise.resolve({ ok: true, data: valid });
    render(<Validate />);
    await user.type(screen.getByLabelText('Key'), 'KEY-1');
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect((await screen.findByRole('status', { name: 'Validation outcome' })).getAttribute('data-outcome')).toBe('success');
    await user.clear(screen.getByLabelText('Key'));
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(screen.getByText('Key is required.')).toBeTruthy();
    expect(screen.queryByRole('status', { name: 'Validation outcome' })).toBeNull();
    expect(screen.queryByText(/^The last run's answer/)).toBeNull();
    await user.type(screen.getByLabelText('Key'), 'KEY-2');
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect((await screen.findByRole('status', { name: 'Validation outcome' })).getAttribute('data-outcome')).toBe('success');
    expect(fake.calls.filter((c) => c.name === 'validation.run')).toHaveLength(2);
  });
});

describe('Keyless: an add that could not reach the service, once the service answers again', () => {
  it('says a failure was while the service was unreachable, keeping the HWID', async () => {
    const user = userEvent.setup();
    const unreachable = 'Keydesk could not reach the service. Check the address and your connection.';
    fake.impl['keyless.add'] = () => Promise.resolve({ ok: false, code: 'NETWORK', message: unreachable });
    fake.impl['executions.get'] = () => Promise.resolve({ ok: false, code: 'NETWORK', message: unreachable });
    render(<Keyless />);
    const form = screen.getByRole('form', { name: 'Add an entry' });
    await user.type(within(form).getByLabelText('HWID'), 'HW-1');
    await user.click(within(form).getByRole('button', { name: 'Add' }));
    await within(form).findByText(unreachable);
    expect(useKeydesk.getState().online).toBe(false);
    const note = 'That was while the service could not be reached; it answers again now. Try again.';
    expect(within(form).queryByText(note)).toBeNull();
    // The service comes back: the store's probe hears it (as the banner going away does).
    fake.impl['executions.get'] = () => Promise.resolve({ ok: true, data: { executionCount: 3, sampledAt: '2026-01-01T10:00:00.000Z' } });
    expect(await within(form).findByText(note, {}, { timeout: 20_000 })).toBeTruthy();
    expect(within(form).getByText(unreachable)).toBeTruthy();
    expect(within(form).getByLabelText<HTMLInputElement>('HWID').value).toBe('HW-1');
  }, 30_000);
});

describe('a result beside a new attempt', () => {
  it('drops an Identifier answer when the next identifier is refused', async () => {
    const user = userEvent.setup();
    fake.impl['identifier.check'] = () => Promise.resolve({ ok: true, data: { exists: false, service: null } });
    render(<Identifier />);
    await user.type(screen.getByLabelText('Identifier'), 'nope');
    await user.click(screen.getByRole('button', { name: 'Check' }));
    await screen.findByText('“nope” does not exist.');
    await user.clear(screen.getByLabelText('Identifier'));
    await user.type(screen.getByLabelText('Identifier'), 'bad id!');
    await user.click(screen.getByRole('button', { name: 'Check' }));
    expect(screen.queryByText('“nope” does not exist.')).toBeNull();
    expect(fake.calls.filter((c) => c.name === 'identifier.check')).toHaveLength(1);
  });

  it('marks the last Keys batch as earlier beside a new form error', async () => {
    const user = userEvent.setup();
    useKeydesk.setState({ lastGenerated: ['A', 'B', 'C', 'D', 'E'], generateRequest: { status: 'ready', error: null } });
    render(<GenerateForm />);
    expect(screen.getByText(/^5 keys generated\./)).toBeTruthy();
    await user.clear(screen.getByLabelText('Count'));
    await user.type(screen.getByLabelText('Count'), '1e3');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    const batch = screen.getByLabelText('Generated keys');
    expect(batch.className).toContain('stale');
    expect(batch.textContent).toMatch(/^The earlier batch \(nothing sent this time: the form found a problem above\): 5 keys generated\./);
  });
});
