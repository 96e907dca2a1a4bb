// Validate's refusal as a person reads it (walk8 P8): a hwid_mismatch is said once, not three times in three
// words (machine, device, HWID), and the HWID row is named as the one sent, not read as the HWID the key is bound to.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ValidationReport } from '../../src/shared/domain.ts';
import { fake, installBridge, readySession } from '../support/fake-bridge.ts';

installBridge();
const { useKeydesk } = await import('../../src/renderer/src/store/index.ts');
const { Validate } = await import('../../src/renderer/src/views/Validate/Validate.tsx');
const initial = useKeydesk.getState();

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
  raw: { V2_Authentication: 'hwid_mismatch', Key_Information: { Notes: 'The key is bound to another HWID.' } },
};

/** What a person reads without opening a disclosure. */
function outsideDetails(root: Element): string {
  const copy = root.cloneNode(true) as Element;
  for (const d of copy.querySelectorAll('details')) d.remove();
  return copy.textContent;
}

beforeEach(() => {
  readySession(useKeydesk, initial);
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
  it("says the mismatch once and names the HWID row as the one sent; the service's own words stay one click away", async () => {
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

  it("a refusal in a word Keydesk does not know still shows the service's message and Notes as the reason", async () => {
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
