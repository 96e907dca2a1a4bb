// All keys as a person reads it: a Premium column beside the Premium filter (in words, not sortable, since the
// ledger has no premium sort), and exports that follow the sort on screen.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LedgerRow } from '../../src/shared/domain.ts';
import { fake, installBridge, resetFake, sandboxProfile } from '../support/fake-bridge.ts';

installBridge();
const { useKeydesk } = await import('../../src/renderer/src/store/index.ts');
const { AllKeys } = await import('../../src/renderer/src/views/AllKeys/AllKeys.tsx');
const initial = useKeydesk.getState();

const row = (value: string, isPremium: boolean): LedgerRow => ({
  value, note: 'spring', status: 'generated', isPremium, expiresAt: null, daysKey: 30, hwid: null, createdAt: null, lastSeenAt: '2026-01-01T00:00:00.000Z',
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

const rowOf = (value: string) => screen.getByRole('checkbox', { name: `Select ${value}` }).closest('[role="row"]') as HTMLElement;

describe('All keys: the Premium column', () => {
  it('says Premium or Standard in each row, under a header that is not a sort button, and agrees with the Premium filter', async () => {
    const user = userEvent.setup();
    fake.impl['ledger.query'] = (input) => {
      const { filter } = input as { filter: { premium?: boolean } };
      const rows = [row('KD-P', true), row('KD-S', false)].filter((r) => filter.premium === undefined || r.isPremium === filter.premium);
      return Promise.resolve({ ok: true, data: { rows, total: rows.length, totalCapped: false } });
    };
    render(<AllKeys />);
    await screen.findByText('2 keys');
    const grid = screen.getByRole('grid', { name: 'All keys' });
    const headers = within(grid).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers.slice(1, 4)).toEqual([expect.stringMatching(/^Key/), expect.stringMatching(/^Status/), 'Premium']);
    const premiumHeader = within(grid).getAllByRole('columnheader')[3] as HTMLElement;
    expect(within(premiumHeader).queryByRole('button')).toBeNull();
    expect(premiumHeader.getAttribute('aria-sort')).toBeNull();
    // Cells line up under their headers: the Premium cell is the row's fourth.
    const cells = (value: string) => within(rowOf(value)).getAllByRole('gridcell').map((c) => c.textContent);
    expect(cells('KD-P')[3]).toBe('Premium');
    expect(cells('KD-S')[3]).toBe('Standard');

    await user.selectOptions(screen.getByLabelText('Premium'), 'Standard');
    await screen.findByText('1 key');
    expect(screen.queryByRole('checkbox', { name: 'Select KD-P' })).toBeNull();
    expect(cells('KD-S')[3]).toBe('Standard');
  });
});

describe('All keys: exports follow the sort shown', () => {
  it('sends the sort on screen and the filter with the export, and says the file follows that order', async () => {
    const user = userEvent.setup();
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: [row('KD-A', false), row('KD-B', true)], total: 2, totalCapped: false } });
    fake.impl['ledger.export'] = () => Promise.resolve({ ok: true, data: { path: '/tmp/keys.csv' } });
    render(<AllKeys />);
    await screen.findByText('2 keys');
    expect(screen.getByText('Exports hold every matching key, in the order shown.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /^Key/ }));
    await user.type(screen.getByLabelText('Filter (key, note or HWID)'), 'KD');
    await screen.findByText('2 keys');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => {
      expect(fake.calls.filter((c) => c.name === 'ledger.export')).toHaveLength(1);
    });
    const shown = useKeydesk.getState().ledgerSort;
    expect(shown.field).toBe('value');
    expect(fake.calls.find((c) => c.name === 'ledger.export')?.input).toEqual({ filter: { text: 'KD' }, sort: shown, format: 'csv' });
  });
});
