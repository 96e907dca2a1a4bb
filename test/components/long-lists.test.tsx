// Long lists in jsdom against the fake bridge: Activity pages through every entry, and All keys says when more
// than 10,000 match, counts exactly on request, and counts for Select all only the keys a job acts on.
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/shared/domain.ts';
import { fake, ledgerRow, useKeydesk } from '../support/fake-bridge.ts';
import { listed } from '../support/fake-jobs.ts';
import { readyWithNoHwid } from '../support/view-start.ts';
import { Activity, ACTIVITY_PAGE } from '../../src/renderer/src/views/Activity/Activity.tsx';
import { AllKeys } from '../../src/renderer/src/views/AllKeys/AllKeys.tsx';

beforeEach(readyWithNoHwid);

describe('Activity', () => {
  const entries = (from: number, n: number): AuditEntry[] =>
    Array.from({ length: n }, (_, i) => ({
      id: 250 - from - i,
      at: '2026-01-01T00:00:00.000Z',
      profileId: 'sandbox',
      profileName: 'Local sandbox',
      action: 'keys.generate',
      target: `T-${from + i}`,
      outcome: 'ok',
      message: '',
    }));

  it("pages through every entry and shows a refused filter's reason", async () => {
    const user = userEvent.setup();
    fake.impl['audit.list'] = (input) => {
      const { offset, limit, filter } = input as { offset: number; limit: number; filter: { text?: string } };
      if ((filter.text?.length ?? 0) > 256)
        return Promise.resolve({ ok: false, code: 'INVALID_INPUT', message: 'The filter must be at most 256 characters.' });
      return Promise.resolve({ ok: true, data: { entries: entries(offset, Math.min(limit, 250 - offset)), total: 250 } });
    };
    render(<Activity />);
    await screen.findByText('1–100 of 250 operations, newest first');
    await user.click(screen.getByRole('button', { name: 'Older' }));
    await screen.findByText('101–200 of 250 operations, newest first');
    await user.click(screen.getByRole('button', { name: 'Older' }));
    await screen.findByText('201–250 of 250 operations, newest first');
    expect(screen.getByText('T-249')).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Older' }).disabled).toBe(true);
    expect(fake.calls.filter((c) => c.name === 'audit.list').map((c) => (c.input as { offset: number }).offset)).toEqual([
      0,
      ACTIVITY_PAGE,
      2 * ACTIVITY_PAGE,
    ]);

    act(() => {
      useKeydesk.getState().setDraft('activity.text', 'x'.repeat(257));
    });
    await screen.findByText('The filter must be at most 256 characters.');
    expect(screen.queryByRole('table', { name: 'Activity' })).toBeNull();
    expect(screen.queryByText(/of 250 operations/)).toBeNull();
  });
});

describe('All keys: a count past the cap', () => {
  const row = (value: string) => ledgerRow(value, { note: 'spring' });
  it('says more than 10,000 match; Count exactly shows the whole count', async () => {
    fake.impl['jobs.list'] = () => listed([]);
    fake.impl['ledger.query'] = (input) => {
      const exact = (input as { exactCount?: boolean }).exactCount === true;
      return Promise.resolve({
        ok: true,
        data: { rows: [row('KD-A'), row('KD-B')], total: exact ? 123_456 : 10_000, totalCapped: !exact },
      });
    };
    const user = userEvent.setup();
    render(<AllKeys />);
    const status = await screen.findByText(/More than 10,000 keys match/);
    expect(screen.getByRole('button', { name: 'Select all matching (more than 10,000)' })).toBeTruthy();
    await user.click(within(status).getByRole('button', { name: 'Count exactly' }));
    await waitFor(() => {
      expect(screen.getByRole('status').textContent).toBe('123,456 keys');
    });
    expect(fake.calls.filter((c) => c.name === 'ledger.query').map((c) => (c.input as { exactCount?: boolean }).exactCount)).toContain(
      true,
    );
    expect(screen.queryByRole('button', { name: 'Count exactly' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Select all 123,456' })).toBeTruthy();
  });

  it('counts for select all only the keys a job would act on', async () => {
    fake.impl['jobs.list'] = () => listed([]);
    // Five keys match; two of them are known deleted, so a job over all matching would act on three.
    fake.impl['ledger.query'] = () =>
      Promise.resolve({
        ok: true,
        data: { rows: ['KD-A', 'KD-B', 'KD-C', 'KD-D', 'KD-E'].map(row), total: 5, totalCapped: false, targets: 3, targetsCapped: false },
      });
    const user = userEvent.setup();
    render(<AllKeys />);
    await screen.findByText('5 keys');
    await user.click(screen.getByRole('button', { name: 'Select all 3 (2 deleted left out)' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    expect(within(bar).getByText('All 3 matching keys').textContent).toBe('All 3 matching keys');
  });
});
