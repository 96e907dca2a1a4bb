// Validate's answer as a person reads it: a success says whether the machine was let in or would be; a refusal is
// said once, in one word for the machine, and the HWID row is named as the one sent, not the one the key is bound to.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ValidationReport } from '../../src/shared/domain.ts';
import { fake, readyStore, useKeydesk, validReport } from '../support/fake-bridge.ts';
import { Validate } from '../../src/renderer/src/views/Validate/Validate.tsx';

const mismatch: ValidationReport = {
  outcome: 'hwid_mismatch',
  success: false,
  message: 'The key is bound to another device.',
  dryRun: true,
  hwid: 'OTHER-MACHINE',
  premium: false,
  expiresAt: '2099-01-01T23:59:59.999Z',
  notes: 'The key is bound to another HWID.',
  keyless: false,
  registeredServiceId: 'demo',
  raw: JSON.stringify({ V2_Authentication: 'hwid_mismatch', Key_Information: { Notes: 'The key is bound to another HWID.' } }, null, 2),
};

const validated = validReport;
const unknownKey: ValidationReport = {
  ...validated,
  outcome: 'invalid_key',
  success: false,
  message: 'No such key.',
  premium: false,
  expiresAt: null,
  notes: 'The key does not exist.',
  raw: JSON.stringify({ V2_Authentication: 'invalid_key', Key_Information: { Notes: 'The key does not exist.' } }, null, 2),
};

/** What a person reads without opening a disclosure. */
function outsideDetails(root: Element): string {
  const copy = root.cloneNode(true) as Element;
  for (const d of copy.querySelectorAll('details')) d.remove();
  return copy.textContent;
}

beforeEach(() => {
  readyStore();
  fake.impl['hwid.read'] = () => Promise.resolve({ ok: true, data: { readings: [] } });
});

async function refused(report: ValidationReport): Promise<HTMLElement> {
  const user = userEvent.setup();
  fake.impl['validation.run'] = () => Promise.resolve({ ok: true, data: report });
  render(<Validate />);
  await user.type(screen.getByLabelText('Key'), 'KEY-1');
  await user.click(screen.getByLabelText('Type a value'));
  await user.type(screen.getByLabelText('Custom HWID'), report.hwid);
  await user.click(screen.getByRole('button', { name: 'Validate' }));
  return screen.findByRole('status', { name: 'Validation outcome' });
}

describe('Validate: a refusal Keydesk can word', () => {
  it('says the mismatch once and names the HWID row as sent', async () => {
    const outcome = await refused(mismatch);
    const seen = outsideDetails(outcome);
    expect(seen.match(/bound to another/g)).toEqual(['bound to another']);
    expect(within(outcome).getByText('Refused: The key is bound to another machine.')).toBeTruthy();
    const terms = [...outcome.querySelectorAll(':scope > dl > div > dt')].map((d) => d.textContent);
    expect(terms).toContain('HWID sent');
    expect(terms).not.toContain('HWID');
    const sent = [...outcome.querySelectorAll('dt')].find((d) => d.textContent === 'HWID sent')?.nextElementSibling;
    expect(sent?.querySelector('span')?.textContent).toBe('OTHER-MACHINE');
    const words = within(outcome).getByText("The service's own words").closest('details') as HTMLElement;
    expect(within(words).getByText('The key is bound to another device.')).toBeTruthy();
    expect(within(words).getByText('The key is bound to another HWID.')).toBeTruthy();
  });

  it("shows the service's message and Notes for an unknown refusal word", async () => {
    const outcome = await refused({
      ...mismatch,
      outcome: 'invalid_key',
      reportedOutcome: 'banned',
      message: 'This key was banned.',
      notes: 'Chargeback.',
    });
    const seen = outsideDetails(outcome);
    expect(seen).toContain('Refused: the service answered “banned”.');
    expect(seen).toContain('This key was banned.');
    expect(seen).toContain("Reason (the service's Notes)Chargeback.");
  });
});

describe('Validate: what the answer says', () => {
  it('says a real success let the machine in and bound the key', () => {
    useKeydesk.setState({ validation: validated, validationRequest: { status: 'ready', error: null } });
    render(<Validate />);
    const outcome = screen.getByRole('status', { name: 'Validation outcome' });
    expect(within(outcome).getByText('Valid: this machine was let in; the key is now bound to it.')).toBeTruthy();
    expect(within(outcome).queryByText(/would be let in/)).toBeNull();
  });

  it('a dry-run success still says "would be let in"', () => {
    useKeydesk.setState({ validation: { ...validated, dryRun: true }, validationRequest: { status: 'ready', error: null } });
    render(<Validate />);
    expect(screen.getByText('Valid: this machine would be let in.')).toBeTruthy();
  });

  it('shows no Premium or expiry for a key the service lacks', () => {
    useKeydesk.setState({ validation: unknownKey, validationRequest: { status: 'ready', error: null } });
    render(<Validate />);
    const outcome = screen.getByRole('status', { name: 'Validation outcome' });
    const terms = [...outcome.querySelectorAll(':scope > dl dt')].map((dt) => dt.textContent);
    expect(terms).not.toContain('Premium');
    expect(terms).not.toContain('Expires');
    expect(terms.at(-1)).toBe('Result code');
    // The headline says why once ("No such key for this service."); the service's Notes, the same again, are one click away.
    expect(within(outcome).getByText('The key does not exist.').closest('details')?.textContent).toMatch(/^The service's own words/);
    expect(within(outcome).getByText('invalid_key')).toBeTruthy();
  });
});

describe('Validate: a form Keydesk refused before sending', () => {
  it('says what to change without saying validating failed', async () => {
    const user = userEvent.setup();
    fake.impl['validation.run'] = () =>
      Promise.resolve({
        ok: false,
        code: 'NEEDS_CONFIRMATION',
        message: 'Validating against a remote service activates the key. Confirm to go ahead.',
      });
    render(<Validate />);
    await user.type(screen.getByLabelText('Key'), 'KEY-1');
    await user.click(screen.getByLabelText('Type a value'));
    await user.type(screen.getByLabelText('Custom HWID'), 'HW-A');
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    await screen.findByText(/Confirm to go ahead\./);
    expect(screen.queryByText(/failed at/)).toBeNull();
  });
});

describe('Validate: the raw answer', () => {
  it('lays out Raw JSON on lines and marks hidden characters in values', () => {
    const raw = { V2_Authentication: 'success', Key_Information: { Notes: 'AB\u202Egnp.exe' } };
    useKeydesk.setState({
      validation: { ...validated, raw: JSON.stringify(raw, null, 2) },
      validationRequest: { status: 'ready', error: null },
    });
    render(<Validate />);
    const pre = screen.getByText('Raw JSON').closest('details')?.querySelector('pre');
    expect(pre?.textContent).toBe(
      ['{', '  "V2_Authentication": "success",', '  "Key_Information": {', '    "Notes": "AB⟨U+202E⟩gnp.exe"', '  }', '}'].join('\n'),
    );
  });
});

describe('Validate: an answer Keydesk could not read', () => {
  it('says the key may be activated, never that validating failed', async () => {
    const user = userEvent.setup();
    const message =
      'The service accepted the request but its answer could not be read: the key may be activated and bound to this HWID: look it up before validating again.';
    fake.impl['validation.run'] = () => Promise.resolve({ ok: false, code: 'OUTCOME_UNKNOWN', message });
    render(<Validate />);
    await user.type(screen.getByLabelText('Key'), 'KEY-1');
    await user.click(screen.getByLabelText('Type a value'));
    await user.type(screen.getByLabelText('Custom HWID'), 'HW-1');
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(message);
    expect(alert.textContent).toContain('Validating ended with its outcome unknown at ');
    expect(alert.textContent).not.toMatch(/failed/i);
  });
});
