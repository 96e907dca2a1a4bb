// Validate's outcome as a person meets it in jsdom against the fake bridge: after a success, a refusal or a failed
// call shows alone, styled as such; a flat refusal keeps its words and guesses no outcome.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ValidationReport } from '../../src/shared/domain.ts';
import { fake } from '../support/fake-bridge.ts';
import { mismatch, readyWithNoHwid, success } from '../support/view-start.ts';
import { Validate } from '../../src/renderer/src/views/Validate/Validate.tsx';

beforeEach(readyWithNoHwid);

async function validateWith(user: ReturnType<typeof userEvent.setup>, hwid: string) {
  const hwidField = screen.queryByLabelText('Custom HWID');
  if (!hwidField) await user.click(screen.getByLabelText('Type a value'));
  await user.clear(screen.getByLabelText('Custom HWID'));
  await user.type(screen.getByLabelText('Custom HWID'), hwid);
  await user.click(screen.getByRole('button', { name: 'Validate' }));
}

/** The Validate view after one success: KEY-1 let in on HW-A, as the view says. */
async function validatedOnce(): Promise<ReturnType<typeof userEvent.setup>> {
  const user = userEvent.setup();
  render(<Validate />);
  await user.type(screen.getByLabelText('Key'), 'KEY-1');
  fake.impl['validation.run'] = () => Promise.resolve({ ok: true, data: success });
  await validateWith(user, 'HW-A');
  await screen.findByText('Valid: this machine was let in; the key is now bound to it.');
  return user;
}

describe('Validate & HWID', () => {
  it('shows a refusal alone after a success, styled as a failure', async () => {
    const user = await validatedOnce();
    fake.impl['validation.run'] = () => Promise.resolve({ ok: true, data: mismatch });
    await validateWith(user, 'HW-B');
    const outcome = await screen.findByRole('status', { name: 'Validation outcome' });
    expect(within(outcome).getByText('Refused: The key is bound to another machine.')).toBeTruthy();
    expect(within(outcome).getByText('hwid_mismatch')).toBeTruthy();
    expect(within(outcome).getByText('The key is bound to another HWID.')).toBeTruthy();
    expect(within(outcome).getByText('Raw JSON')).toBeTruthy();
    expect(outcome.querySelector('pre')?.textContent).toContain('"Hardware_ID": "HW-B"');
    expect(outcome.className).toContain('bad');
    expect(screen.queryByText('Valid: this machine was let in; the key is now bound to it.')).toBeNull();
    expect(screen.queryByText('spring batch')).toBeNull();
    expect(screen.getAllByRole('status', { name: 'Validation outcome' })).toHaveLength(1);
  });

  it("shows a flat refusal's words with no guessed outcome", async () => {
    const user = userEvent.setup();
    render(<Validate />);
    await user.type(screen.getByLabelText('Key'), 'KEY-1');
    const wordless: ValidationReport = {
      ...success,
      outcome: 'invalid_key',
      reportedOutcome: null,
      success: false,
      message: 'Invalid key for this service',
      premium: false,
      notes: '',
      raw: JSON.stringify({ success: false, message: 'Invalid key for this service' }, null, 2),
    };
    fake.impl['validation.run'] = () => Promise.resolve({ ok: true, data: wordless });
    await validateWith(user, 'HW-A');
    const outcome = await screen.findByRole('status', { name: 'Validation outcome' });
    expect(within(outcome).getByText('Refused: the service gave no outcome word; its message says why.')).toBeTruthy();
    expect(within(outcome).getByText('Invalid key for this service')).toBeTruthy();
    expect(within(outcome).getByText('— (not sent)')).toBeTruthy();
    expect(within(outcome).queryByText(/No such key for this service/)).toBeNull();
    expect(outcome.className).toContain('bad');
  });

  it("shows a failed call's message with nothing of the earlier answer", async () => {
    const user = await validatedOnce();
    fake.impl['validation.run'] = () =>
      Promise.resolve({
        ok: false,
        code: 'HTTP_ERROR',
        message: 'The service could not answer.',
        detail: 'POST http://127.0.0.1:1/v2_validation?key=***: HTTP 502',
      });
    await validateWith(user, 'HW-B');
    await screen.findByText('The service could not answer.');
    expect(screen.getByText('Details')).toBeTruthy();
    expect(screen.getByText(/HTTP 502/)).toBeTruthy();
    expect(screen.queryByRole('status', { name: 'Validation outcome' })).toBeNull();
  });
});
