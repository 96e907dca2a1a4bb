// Resuming a stopped bulk job: a cancel is a change of mind, so the Resume of a delete, an extend or a
// reset names the act and the count on its button and asks before anything is sent; a generate's resume (it only
// makes the keys asked for) is named and goes at once.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { JobSummary } from '../../src/shared/domain.ts';
import { fake, readyStore } from '../support/fake-bridge.ts';
import { jobSummaries, listed } from '../support/fake-jobs.ts';
import { AllKeys } from '../../src/renderer/src/views/AllKeys/AllKeys.tsx';
import { Jobs } from '../../src/renderer/src/views/Jobs/Jobs.tsx';

const DELETE = '7a1d2c3b-4a59-4e68-9b7a-8c9d0e1f2a3b';
const summary = jobSummaries({
  id: DELETE,
  profileId: 'sandbox',
  action: 'delete',
  days: null,
  note: null,
  state: 'cancelled',
  reason: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:05:00.000Z',
  total: 50_000,
  counts: { pending: 44_821, sent: 0, done: 5_179, failed: 0, unknown: 0 },
  ratePerSecond: null,
  etaSeconds: null,
  concurrency: 8,
  ceiling: 8,
  pausedUntil: null,
});
const resumes = () => fake.calls.filter((c) => c.name === 'jobs.resume').map((c) => c.input);

beforeEach(() => {
  readyStore();
  localStorage.clear();
  fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: [], total: 0, totalCapped: false } });
  fake.impl['jobs.items'] = () => Promise.resolve({ ok: true, data: { items: [], total: 0 } });
});

describe('Resume of a stopped bulk job', () => {
  it('asks before resuming a cancelled delete, naming the count', async () => {
    const cancelled = summary({});
    fake.impl['jobs.list'] = () => listed([cancelled]);
    fake.impl['jobs.resume'] = () => Promise.resolve({ ok: true, data: summary({ state: 'running', finishedAt: null }) });
    const user = userEvent.setup();
    render(<AllKeys />);
    const bar = await screen.findByRole('region', { name: 'Bulk actions' });
    await user.click(await within(bar).findByRole('button', { name: 'Resume deleting 44,821 keys…' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete the 44,821 keys not sent?' });
    expect(dialog.textContent).toContain('a deleted key cannot be brought back');
    expect(resumes()).toEqual([]);
    // Changed mind again: nothing sent.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(resumes()).toEqual([]);
    await user.click(within(bar).getByRole('button', { name: 'Resume deleting 44,821 keys…' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete the 44,821 keys not sent?' })).getByRole('button', { name: 'Delete 44,821 keys' }),
    );
    await waitFor(() => {
      expect(resumes()).toEqual([{ jobId: DELETE, retryUnknown: false }]);
    });
  });

  it('asks in the singular for one key; resumes a generate at once', async () => {
    const reset: JobSummary = summary({
      action: 'resetHwid',
      state: 'interrupted',
      total: 3,
      counts: { pending: 1, sent: 0, done: 2, failed: 0, unknown: 0 },
    });
    const generate: JobSummary = {
      ...summary({}),
      id: '8b1d2c3b-4a59-4e68-9b7a-8c9d0e1f2a3b',
      action: 'generate',
      createdAt: '2025-12-01T00:00:00.000Z',
      total: 300_000,
      counts: { pending: 100_000, sent: 0, done: 200_000, failed: 0, unknown: 0 },
    };
    fake.impl['jobs.list'] = () => listed([reset, generate]);
    fake.impl['jobs.resume'] = (input) =>
      Promise.resolve({
        ok: true,
        data: { ...((input as { jobId: string }).jobId === DELETE ? reset : generate), state: 'running', finishedAt: null, version: 99 },
      });
    const user = userEvent.setup();
    render(<Jobs />);
    await user.click(await screen.findByRole('button', { name: /^Reset HWID, started / }));
    const detail = screen.getByRole('region', { name: 'Reset HWID' });
    await user.click(within(detail).getByRole('button', { name: 'Resume resetting the HWID of 1 key…' }));
    const dialog = screen.getByRole('dialog', { name: 'Reset the HWID of the 1 key not sent?' });
    expect(dialog.textContent).toContain('The job was stopped before it was sent.');
    expect(resumes()).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await user.click(screen.getByRole('button', { name: /^Generate, started / }));
    const gen = screen.getByRole('region', { name: /^Generate/ });
    await user.click(within(gen).getByRole('button', { name: 'Resume generating 100,000 keys' }));
    await waitFor(() => {
      expect(resumes()).toEqual([{ jobId: generate.id, retryUnknown: false }]);
    });
  });
});
