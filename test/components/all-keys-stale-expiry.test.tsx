// All keys when the ledger knows a row's expiry is the one seen before an extend whose new expiry never came back
// (the ledger's expiryStale mark): the row says so in words and with an icon, not by colour alone.
import { render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LedgerRow } from '../../src/shared/domain.ts';
import { fake, installBridge, resetFake, sandboxProfile } from '../support/fake-bridge.ts';

installBridge();
const { useKeydesk } = await import('../../src/renderer/src/store/index.ts');
const { AllKeys, STALE_EXPIRY } = await import('../../src/renderer/src/views/AllKeys/AllKeys.tsx');
const initial = useKeydesk.getState();

const row = (value: string, extra: Partial<LedgerRow> = {}): LedgerRow => ({
  value, note: 'spring', status: 'active', isPremium: false, expiresAt: '2099-01-31T23:59:59.999Z', daysKey: null, hwid: null, createdAt: null, lastSeenAt: '2026-01-01T00:00:00.000Z', ...extra,
});

beforeEach(() => {
  resetFake();
  useKeydesk.setState(initial, true);
  useKeydesk.setState({ sessionRequest: { status: 'ready', error: null }, activeProfileId: 'sandbox', profiles: [sandboxProfile] });
  fake.impl['jobs.list'] = () => Promise.resolve({ ok: true, data: { jobs: [], elsewhere: [] } });
  vi.stubGlobal('ResizeObserver', class { observe() {} disconnect() {} });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const expiryCell = (value: string): HTMLElement => {
  const r = screen.getByRole('checkbox', { name: `Select ${value}` }).closest('[role="row"]') as HTMLElement;
  const header = screen.getAllByRole('columnheader').findIndex((h) => h.textContent.startsWith('Expires'));
  return within(r).getAllByRole('gridcell')[header] as HTMLElement;
};

describe('All keys: an expiry not read back', () => {
  it('shows the earlier expiry with words saying it was not read back and what to do, and a current one plainly', async () => {
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: [row('KD-OLD', { expiryStale: true }), row('KD-NEW')], total: 2, totalCapped: false } });
    render(<AllKeys />);
    await screen.findByText('2 keys');

    const stale = expiryCell('KD-OLD');
    expect(stale.textContent).toContain('2099');
    expect(stale.textContent).toContain('not read back');
    // The whole sentence for a screen reader, and in the title for a pointer.
    expect(stale.textContent).toContain(STALE_EXPIRY);
    expect(STALE_EXPIRY).toBe('Extended; new expiry not read back — look the key up.');
    expect(stale.querySelector('[title]')?.getAttribute('title')).toBe(`${STALE_EXPIRY} Expiry seen before: 2099-01-31T23:59:59.999Z`);

    const current = expiryCell('KD-NEW');
    expect(current.textContent).toContain('2099');
    expect(current.textContent).not.toContain('not read back');
  });
});
