// All keys when every match is a deleted key (which no bulk action takes): no "Select all 0" anywhere, neither as
// the button nor as the offer after ticking the rows on screen, and the reason is said instead.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { LedgerRow } from '../../src/shared/domain.ts';
import { fake, ledgerRow, readyStore, sandboxProfile } from '../support/fake-bridge.ts';
import { listed } from '../support/fake-jobs.ts';
import { AllKeys } from '../../src/renderer/src/views/AllKeys/AllKeys.tsx';

const row = (i: number): LedgerRow => ledgerRow(`KD-GONE-${String(i).padStart(3, '0')}`, { note: 'remote gone', status: 'deleted' });

beforeEach(() => {
  readyStore([sandboxProfile]);
  fake.impl['jobs.list'] = () => listed([]);
  // jsdom lays nothing out: the table's box is given a height, so some of its rows are "on screen".
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(400);
});

describe('All keys: select-all when every match is deleted', () => {
  it('offers no Select all 0 anywhere, and says why', async () => {
    const user = userEvent.setup();
    const rows = Array.from({ length: 60 }, (_, i) => row(i));
    fake.impl['ledger.query'] = () =>
      Promise.resolve({ ok: true, data: { rows, total: 60, totalCapped: false, targets: 0, targetsCapped: false } });
    render(<AllKeys />);
    await screen.findByText('60 keys');
    await user.click(screen.getByRole('checkbox', { name: 'Select every row on screen' }));
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Select KD-GONE-000' }).checked).toBe(true);
    expect(screen.queryByText(/Select all 0/)).toBeNull();
    expect(screen.queryByRole('button', { name: /^Select (all|the)/ })).toBeNull();
    expect(screen.getByText('No select-all: all 60 matching keys are deleted.')).toBeTruthy();
  });

  it('says why there is no select-all past the count cap', async () => {
    const rows = Array.from({ length: 60 }, (_, i) => row(i));
    fake.impl['ledger.query'] = () =>
      Promise.resolve({ ok: true, data: { rows, total: 10_000, totalCapped: true, targets: 0, targetsCapped: false } });
    render(<AllKeys />);
    expect(await screen.findByText('No select-all: every matching key (more than 10,000) is deleted.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Select (all|the)/ })).toBeNull();
  });

  it('offers select-all of the undeleted keys, naming the deleted left out', async () => {
    const user = userEvent.setup();
    const rows = Array.from({ length: 60 }, (_, i) => (i < 5 ? { ...row(i), status: 'generated' as const } : row(i)));
    fake.impl['ledger.query'] = () =>
      Promise.resolve({ ok: true, data: { rows, total: 60, totalCapped: false, targets: 5, targetsCapped: false } });
    render(<AllKeys />);
    await screen.findByText('60 keys');
    expect(screen.getByRole('button', { name: 'Select all 5 (55 deleted left out)' })).toBeTruthy();
    await user.click(screen.getByRole('checkbox', { name: 'Select every row on screen' }));
    expect(await screen.findByRole('button', { name: 'Select all 5 matching (55 deleted left out)' })).toBeTruthy();
    expect(screen.queryByText(/No select-all/)).toBeNull();
  });
});
