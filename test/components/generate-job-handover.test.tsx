// A generate job handed over in jsdom against the contract-typed fake bridge: a new generate job
// after a finished one never shows the old job's "finished" and its exports while main has not answered; a cancel
// says "cancelling" at once, never "running … s left"; a job's first seconds give no rate or time left as fact; a
// one-day extend reads "1 day".
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { OperationResult } from '../../src/shared/contract.ts';
import type { JobSummary } from '../../src/shared/domain.ts';
import { emit, fake, readyStore } from '../support/fake-bridge.ts';
import { jobSummaries, listed } from '../support/fake-jobs.ts';
import { GenerateForm } from '../../src/renderer/src/views/Keys/GenerateForm.tsx';
import { AllKeys } from '../../src/renderer/src/views/AllKeys/AllKeys.tsx';

const OLD = '44444444-4444-4444-8444-444444444444';
const NEW = '55555555-5555-4555-8555-555555555555';
const summary = jobSummaries({
  id: NEW,
  profileId: 'sandbox',
  action: 'generate',
  days: null,
  note: null,
  state: 'running',
  reason: null,
  createdAt: '2026-01-01T00:10:00.000Z',
  finishedAt: null,
  total: 300_000,
  counts: { pending: 300_000, sent: 0, done: 0, failed: 0, unknown: 0 },
  ratePerSecond: null,
  etaSeconds: null,
  concurrency: 1,
  ceiling: 1,
  pausedUntil: null,
});

beforeEach(() => {
  vi.useRealTimers();
  readyStore();
});

describe('a generate job after a finished one', () => {
  it('shows a new job starting, with nothing of the old one', async () => {
    const finished = summary({
      id: OLD,
      total: 150_000,
      state: 'finished',
      createdAt: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T00:01:00.000Z',
      counts: { pending: 0, sent: 0, done: 150_000, failed: 0, unknown: 0 },
    });
    fake.impl['jobs.list'] = () => listed([finished]);
    let answer: (r: OperationResult<'jobs.start'>) => void = () => undefined;
    fake.impl['jobs.start'] = () => new Promise((r) => (answer = r));
    const user = userEvent.setup();
    render(<GenerateForm />);
    const before = await screen.findByRole('group', { name: 'Generate job' });
    expect(within(before).getByRole('status').textContent).toBe('Generate, finished: 150,000 of 150,000 done.');
    await user.clear(screen.getByLabelText('Count'));
    await user.type(screen.getByLabelText('Count'), '300000');
    await user.clear(screen.getByLabelText('Expiry date'));
    await user.type(screen.getByLabelText('Expiry date'), '2099-12-31');
    await user.click(screen.getByRole('button', { name: 'Generate as a job of 3 requests' }));

    // Main has not answered: the panel speaks of the new job only.
    const panel = screen.getByRole('group', { name: 'Generate job' });
    expect(within(panel).getByRole('status').textContent).toMatch(
      /^Generate: starting the job… .*nothing new has been sent yet\. \d+ s so far\.$/,
    );
    expect(screen.queryByText(/150,000/)).toBeNull();
    expect(screen.queryByRole('button', { name: /^Export the/ })).toBeNull();

    await act(async () => {
      answer({ ok: true, data: summary({}) });
      await Promise.resolve();
    });
    await waitFor(() => {
      expect(within(screen.getByRole('group', { name: 'Generate job' })).getByRole('status').textContent).toBe(
        'Generate, running: sending the first request, 0 of 300,000 done until it answers.',
      );
    });
    expect(screen.queryByRole('button', { name: /^Export the/ })).toBeNull();
  });

  it('says cancelling the moment Cancel is pressed', async () => {
    const running = summary({
      counts: { pending: 100_000, sent: 100_000, done: 100_000, failed: 0, unknown: 0 },
      ratePerSecond: 50_000,
      etaSeconds: 3,
    });
    fake.impl['jobs.list'] = () => listed([running]);
    fake.impl['jobs.cancel'] = () => new Promise(() => undefined);
    const user = userEvent.setup();
    render(<GenerateForm />);
    const panel = await screen.findByRole('group', { name: 'Generate job' });
    expect(within(panel).getByRole('status').textContent).toMatch(/^Generate, running: 100,000 of 300,000 done, .*about 3 s left\.$/);
    await user.click(within(panel).getByRole('button', { name: 'Cancel' }));
    // Main has not answered the cancel yet.
    expect(within(panel).getByRole('status').textContent).toBe(
      'Generate, cancelling: no further request is sent; the one already on its way still makes its keys.',
    );
    expect(within(panel).queryByRole('button', { name: 'Cancel' })).toBeNull();
  });
});

describe('a stopped generate job in the form', () => {
  it('puts the export of its keys before Resume in the Tab order', async () => {
    const cancelled = summary({
      total: 100_001,
      state: 'cancelled',
      finishedAt: '2026-01-01T00:11:00.000Z',
      counts: { pending: 1, sent: 0, done: 100_000, failed: 0, unknown: 0 },
    });
    fake.impl['jobs.list'] = () => listed([cancelled]);
    const user = userEvent.setup();
    render(<GenerateForm />);
    const panel = await screen.findByRole('group', { name: 'Generate job' });
    expect(
      within(panel)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual([
      'Export the 100,000 keys CSV',
      'Export the 100,000 keys JSON',
      'Resume (1 key not requested)',
      'Dismiss',
      'See every result in Jobs',
    ]);
    // Tab from the status line reaches the keys first, then Resume.
    within(panel).getByRole('status').focus();
    await user.tab();
    expect(document.activeElement?.textContent).toBe('Export the 100,000 keys CSV');
    await user.tab();
    await user.tab();
    expect(document.activeElement?.textContent).toBe('Resume (1 key not requested)');
  });
});

describe('bulk job words', () => {
  it('says Extend by 1 day and no early rate or time left', async () => {
    const bulk = (counts: JobSummary['counts'], rate: number | null, eta: number | null) =>
      summary({ action: 'extend', days: 1, total: 741_267, counts, ratePerSecond: rate, etaSeconds: eta, concurrency: 4, ceiling: 64 });
    fake.impl['jobs.list'] = () =>
      Promise.resolve({
        ok: true,
        data: { jobs: [bulk({ pending: 741_263, sent: 0, done: 4, failed: 0, unknown: 0 }, 1, 1_309_000)], elsewhere: [] },
      });
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: [], total: 0, totalCapped: false, targets: 0 } });
    render(<AllKeys />);
    const status = await screen.findByText(/^Extend by 1 day, running:/);
    // 4 answers of 741,267: main's early "1 key/s, about 363 h left" is not shown as fact.
    expect(status.textContent).toBe('Extend by 1 day, running: 4 of 741,267 done, estimating the time left.');
    act(() => {
      emit('jobs.progress', bulk({ pending: 641_267, sent: 0, done: 100_000, failed: 0, unknown: 0 }, 1_250, 513));
    });
    expect(screen.getByText(/^Extend by 1 day, running:/).textContent).toBe(
      'Extend by 1 day, running: 100,000 of 741,267 done, 1,250 keys/s, about 9 min left.',
    );
  });
});
