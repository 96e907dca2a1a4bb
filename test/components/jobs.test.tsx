// Jobs as a person meets them in jsdom against the contract-typed fake bridge: a generate of more keys than one
// request takes (said before it starts, then a job with progress, cancel and an export of its keys), another
// profile's running job found after a reload, and "Select all N" agreeing with the job it starts.
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { LedgerRow } from '../../src/shared/domain.ts';
import { emit, fake, ledgerRow, readyState, readyStore, reloadedStore, useKeydesk } from '../support/fake-bridge.ts';
import { jobSummaries, listed } from '../support/fake-jobs.ts';
import { toKeyBatch } from '../../src/shared/key-batch.ts';
import { selectJob } from '../../src/renderer/src/store/job-selectors.ts';
import { GenerateForm } from '../../src/renderer/src/views/Keys/GenerateForm.tsx';
import { AllKeys } from '../../src/renderer/src/views/AllKeys/AllKeys.tsx';

const JOB = '6f1d2c3b-4a59-4e68-9b7a-8c9d0e1f2a3b';
const summary = jobSummaries({
  id: JOB,
  profileId: 'sandbox',
  action: 'generate',
  days: null,
  note: 'spring',
  state: 'running',
  reason: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  finishedAt: null,
  total: 100_001,
  counts: { pending: 100_001, sent: 0, done: 0, failed: 0, unknown: 0 },
  ratePerSecond: null,
  etaSeconds: null,
  concurrency: 1,
  ceiling: 1,
  pausedUntil: null,
});

beforeEach(() => {
  vi.useRealTimers();
  readyStore();
  fake.impl['jobs.list'] = () => listed([]);
});

describe('Generate: more keys than one request takes', () => {
  it('runs a large generate as a job, then cancels and exports it', async () => {
    // Only the clock is set by hand, so the rate measured between two summaries is known.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00.000Z'));
    const user = userEvent.setup();
    render(<GenerateForm />);
    await user.clear(screen.getByLabelText('Count'));
    await user.type(screen.getByLabelText('Count'), '100001');
    expect(screen.getByText(/More than 100,000 keys \(the service's limit per request\): sent as 2 requests, run as a job/)).toBeTruthy();
    fake.impl['jobs.start'] = () => Promise.resolve({ ok: true, data: summary({}) });
    await user.type(screen.getByLabelText('Note'), 'spring');
    await user.click(screen.getByRole('button', { name: 'Generate as a job of 2 requests' }));

    await waitFor(() => {
      expect(fake.calls.filter((c) => c.name === 'jobs.start').map((c) => c.input)).toEqual([
        expect.objectContaining({ action: 'generate', count: 100_001, note: 'spring', isPremium: false, expiresByDaysKey: false }),
      ]);
    });
    expect(fake.calls.some((c) => c.name === 'keys.generate')).toBe(false);
    const panel = await screen.findByRole('group', { name: 'Generate job' });
    // Before the first answer: what is happening, and a bar that claims no progress yet.
    expect(within(panel).getByRole('status').textContent).toBe(
      'Generate, running: sending the first request, 0 of 100,001 done until it answers.',
    );
    expect(within(panel).getByLabelText<HTMLProgressElement>('Generate job progress').hasAttribute('value')).toBe(false);
    // While it runs, the form does not start another.
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Generate as a job of 2 requests' }).disabled).toBe(true);

    // The first request answers 4 s later (main has no rate yet: one answer): the rate and time left from here.
    vi.setSystemTime(new Date('2026-01-01T00:00:04.000Z'));
    act(() => {
      emit('jobs.progress', summary({ counts: { pending: 1, sent: 0, done: 100_000, failed: 0, unknown: 0 } }));
    });
    expect(within(panel).getByRole('status').textContent).toBe(
      'Generate, running: 100,000 of 100,001 done, 25,000 keys/s, about 1 s left.',
    );
    vi.useRealTimers();
    expect(within(panel).getByLabelText<HTMLProgressElement>('Generate job progress').value).toBe(100_000);
    fake.impl['jobs.cancel'] = () =>
      Promise.resolve({
        ok: true,
        data: summary({ state: 'cancelled', counts: { pending: 1, sent: 0, done: 100_000, failed: 0, unknown: 0 } }),
      });
    await user.click(within(panel).getByRole('button', { name: 'Cancel' }));
    expect(fake.calls.filter((c) => c.name === 'jobs.cancel').map((c) => c.input)).toEqual([{ jobId: JOB }]);
    act(() => {
      emit(
        'jobs.progress',
        summary({
          state: 'cancelled',
          finishedAt: '2026-01-01T00:01:00.000Z',
          counts: { pending: 1, sent: 0, done: 100_000, failed: 0, unknown: 0 },
        }),
      );
    });
    expect(within(panel).getByRole('status').textContent).toBe('Generate, cancelled: 100,000 of 100,001 done, 1 not sent.');
    expect(within(panel).getByRole('button', { name: 'Resume (1 key not requested)' })).toBeTruthy();

    fake.impl['jobs.export'] = () => Promise.resolve({ ok: true, data: { path: '/tmp/keydesk-generated.csv' } });
    await user.click(within(panel).getByRole('button', { name: 'Export the 100,000 keys CSV' }));
    expect(fake.calls.filter((c) => c.name === 'jobs.export').map((c) => c.input)).toEqual([{ jobId: JOB, format: 'csv', what: 'keys' }]);
    await waitFor(() => {
      expect(useKeydesk.getState().toasts.at(-1)).toMatchObject({ kind: 'success', text: 'Saved to /tmp/keydesk-generated.csv.' });
    });
  });

  it('says cancelling while a request is still out', async () => {
    const user = userEvent.setup();
    fake.impl['jobs.list'] = () =>
      listed([summary({ total: 300_000, counts: { pending: 200_000, sent: 100_000, done: 0, failed: 0, unknown: 0 } })]);
    render(<GenerateForm />);
    const panel = await screen.findByRole('group', { name: 'Generate job' });
    const out = { pending: 100_000, sent: 100_000, done: 100_000, failed: 0, unknown: 0 };
    act(() => {
      emit('jobs.progress', summary({ total: 300_000, counts: out }));
    });
    fake.impl['jobs.cancel'] = () => Promise.resolve({ ok: true, data: summary({ total: 300_000, state: 'cancelled', counts: out }) });
    await user.click(within(panel).getByRole('button', { name: 'Cancel' }));
    const status = within(panel).getByRole('status');
    await waitFor(() => {
      expect(status.textContent).toBe('Generate, cancelling: 100,000 of 300,000 done, 100,000 sent, awaiting an answer, 100,000 not sent.');
    });
    expect(document.activeElement).toBe(status);
    // Main is not done with it: nothing to resume, dismiss, export or start yet.
    expect(within(panel).queryByRole('button', { name: /Resume|Dismiss|Export/ })).toBeNull();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: /^Generate/ }).disabled).toBe(true);
    expect(within(panel).getByText(/the one already on its way still makes its keys, and its answer ends the job/)).toBeTruthy();

    act(() => {
      emit(
        'jobs.progress',
        summary({
          total: 300_000,
          state: 'cancelled',
          finishedAt: '2026-01-01T00:01:00.000Z',
          counts: { pending: 100_000, sent: 0, done: 200_000, failed: 0, unknown: 0 },
        }),
      );
    });
    expect(status.textContent).toBe('Generate, cancelled: 200,000 of 300,000 done, 100,000 not sent.');
    expect(within(panel).getByRole('button', { name: 'Resume (100,000 keys not requested)' })).toBeTruthy();
    expect(within(panel).getByRole('button', { name: 'Export the 200,000 keys CSV' })).toBeTruthy();
  });

  it('says finished when the cancel came after the last request', async () => {
    fake.impl['jobs.list'] = () =>
      listed([summary({ total: 150_000, counts: { pending: 0, sent: 50_000, done: 100_000, failed: 0, unknown: 0 } })]);
    render(<GenerateForm />);
    const panel = await screen.findByRole('group', { name: 'Generate job' });
    act(() => {
      emit(
        'jobs.progress',
        summary({
          total: 150_000,
          state: 'cancelled',
          finishedAt: '2026-01-01T00:01:00.000Z',
          counts: { pending: 0, sent: 0, done: 150_000, failed: 0, unknown: 0 },
        }),
      );
    });
    expect(within(panel).getByRole('status').textContent).toBe(
      'Generate, finished (the cancel came after the last request): 150,000 of 150,000 done.',
    );
    expect(useKeydesk.getState().toasts.at(-1)).toMatchObject({ kind: 'success', text: 'Generate: 150,000 of 150,000 done.' });
  });

  it("keeps a job's export and Resume after a bulk action", async () => {
    const user = userEvent.setup();
    // An earlier single-request batch is on screen when the job starts.
    useKeydesk.setState({ lastGenerated: ['KD-OLD'] });
    render(<GenerateForm />);
    expect(screen.getByText('1 key generated.')).toBeTruthy();
    await user.clear(screen.getByLabelText('Count'));
    await user.type(screen.getByLabelText('Count'), '100001');
    fake.impl['jobs.start'] = () => Promise.resolve({ ok: true, data: summary({}) });
    await user.click(screen.getByRole('button', { name: 'Generate as a job of 2 requests' }));
    const panel = await screen.findByRole('group', { name: 'Generate job' });
    expect(screen.queryByText('1 key generated.')).toBeNull();
    expect(screen.queryByText('KD-OLD')).toBeNull();
    expect(within(panel).getByText(/^Generate job of 100,001 keys \(note “spring”\), started /)).toBeTruthy();
    act(() => {
      emit(
        'jobs.progress',
        summary({
          state: 'cancelled',
          finishedAt: '2026-01-01T00:01:00.000Z',
          counts: { pending: 1, sent: 0, done: 100_000, failed: 0, unknown: 0 },
        }),
      );
    });
    // A bulk delete in All keys takes the jobs panel; the Generate form keeps its own job.
    const DELETE = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
    act(() => {
      emit(
        'jobs.progress',
        summary({ id: DELETE, action: 'delete', total: 3, counts: { pending: 3, sent: 0, done: 0, failed: 0, unknown: 0 } }),
      );
    });
    act(() => {
      emit(
        'jobs.progress',
        summary({
          id: DELETE,
          action: 'delete',
          total: 3,
          state: 'finished',
          finishedAt: '2026-01-01T00:02:00.000Z',
          counts: { pending: 0, sent: 0, done: 3, failed: 0, unknown: 0 },
        }),
      );
    });
    expect(selectJob(useKeydesk.getState())?.id).toBe(DELETE);
    expect(within(panel).getByRole('status').textContent).toBe('Generate, cancelled: 100,000 of 100,001 done, 1 not sent.');
    fake.impl['jobs.export'] = () => Promise.resolve({ ok: true, data: { path: '/tmp/keys.json' } });
    await user.click(within(panel).getByRole('button', { name: 'Export the 100,000 keys JSON' }));
    fake.impl['jobs.resume'] = () =>
      Promise.resolve({ ok: true, data: summary({ counts: { pending: 1, sent: 0, done: 100_000, failed: 0, unknown: 0 } }) });
    await user.click(within(panel).getByRole('button', { name: 'Resume (1 key not requested)' }));
    await waitFor(() => {
      expect(fake.calls.filter((c) => c.name === 'jobs.resume').map((c) => c.input)).toEqual([{ jobId: JOB, retryUnknown: false }]);
    });
    expect(fake.calls.filter((c) => c.name === 'jobs.export').map((c) => c.input)).toEqual([{ jobId: JOB, format: 'json', what: 'keys' }]);
  });

  it('refuses more than a job takes beside the count, and sends nothing', async () => {
    const user = userEvent.setup();
    render(<GenerateForm />);
    await user.clear(screen.getByLabelText('Count'));
    await user.type(screen.getByLabelText('Count'), '1000001');
    expect(screen.queryByText(/sent as \d+ requests/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    expect(
      screen.getByText('Count must be a whole number from 1 to 1,000,000; above 100,000 runs as a job of several requests.'),
    ).toBeTruthy();
    expect(fake.calls.some((c) => c.name === 'jobs.start' || c.name === 'keys.generate')).toBe(false);
  });

  it('gives every bad count the same sentence with the job limit', async () => {
    const user = userEvent.setup();
    render(<GenerateForm />);
    const count = screen.getByLabelText('Count');
    for (const bad of ['', '-5', '1e3', '2.5', '0']) {
      await user.clear(count);
      if (bad !== '') await user.type(count, bad);
      await user.click(screen.getByRole('button', { name: 'Generate' }));
      expect(count.getAttribute('aria-invalid')).toBe('true');
      expect(document.getElementById(count.getAttribute('aria-describedby')!.split(' ')[0]!)?.textContent).toBe(
        'Count must be a whole number from 1 to 1,000,000; above 100,000 runs as a job of several requests.',
      );
    }
    expect(fake.calls.some((c) => c.name === 'jobs.start' || c.name === 'keys.generate')).toBe(false);
  });

  it('keeps 100,000 and below one keys.generate request, as before', async () => {
    const user = userEvent.setup();
    fake.impl['keys.generate'] = () => Promise.resolve({ ok: true, data: { generated: toKeyBatch([]) } });
    render(<GenerateForm />);
    await user.clear(screen.getByLabelText('Count'));
    await user.type(screen.getByLabelText('Count'), '100000');
    expect(screen.queryByText(/sent as \d+ requests/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => {
      expect(fake.calls.filter((c) => c.name === 'keys.generate').map((c) => (c.input as { count: number }).count)).toEqual([100_000]);
    });
    expect(fake.calls.some((c) => c.name === 'jobs.start')).toBe(false);
  });
});

describe('All keys: jobs', () => {
  const row = (value: string): LedgerRow => ledgerRow(value, { note: 'spring' });

  it("finds another profile's running job after a reload", async () => {
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: [row('KD-A')], total: 1, totalCapped: false } });
    const elsewhere = summary({
      profileId: 'p2',
      action: 'delete',
      total: 500,
      counts: { pending: 400, sent: 0, done: 100, failed: 0, unknown: 0 },
    });
    fake.impl['jobs.list'] = () => listed([], { elsewhere: [elsewhere] });
    render(<AllKeys />);
    const notice = await screen.findByText(/A job is running for profile Remote Shop:/);
    expect(notice.textContent).toBe(
      'A job is running for profile Remote Shop: Delete, running: 100 of 500 done. Switch to that profile to follow or cancel it.',
    );
  });

  it('Select all N names the count the job then covers', async () => {
    // Main counts 3 matching keys that are not deleted; the job it starts over the same filter covers those 3.
    fake.impl['ledger.query'] = () =>
      Promise.resolve({ ok: true, data: { rows: [row('KD-A'), row('KD-B'), row('KD-C')], total: 3, totalCapped: false } });
    fake.impl['jobs.start'] = () =>
      Promise.resolve({
        ok: true,
        data: summary({ action: 'delete', total: 3, counts: { pending: 3, sent: 0, done: 0, failed: 0, unknown: 0 } }),
      });
    const user = userEvent.setup();
    render(<AllKeys />);
    await user.click(await screen.findByRole('button', { name: 'Select all 3' }));
    expect(screen.getByText('All 3 matching')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Delete selected' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Delete all 3 matching keys?')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => {
      expect(fake.calls.filter((c) => c.name === 'jobs.start').map((c) => c.input)).toEqual([{ action: 'delete', target: { filter: {} } }]);
    });
    expect(await screen.findByText('Delete, running: sending the first requests, 0 of 3 done until they answer.')).toBeTruthy();
    // A bar that claims no progress before an answer, then the answers' share.
    expect(screen.getByLabelText<HTMLProgressElement>('Bulk progress').hasAttribute('value')).toBe(false);
    act(() => {
      emit('jobs.progress', summary({ action: 'delete', total: 3, counts: { pending: 2, sent: 0, done: 1, failed: 0, unknown: 0 } }));
    });
    expect(screen.getByLabelText<HTMLProgressElement>('Bulk progress').value).toBe(1);
  });

  it('counts the matching keys past the cap before asking', async () => {
    fake.impl['ledger.query'] = (input) => {
      const exact = (input as { exactCount?: boolean }).exactCount === true;
      return Promise.resolve({
        ok: true,
        data: exact
          ? { rows: [row('KD-A')], total: 123_456, totalCapped: false, targets: 123_400, targetsCapped: false }
          : { rows: [row('KD-A'), row('KD-B')], total: 10_000, totalCapped: true, targets: 10_000, targetsCapped: true },
      });
    };
    const user = userEvent.setup();
    render(<AllKeys />);
    await user.click(await screen.findByRole('button', { name: /^Select all/ }));
    expect(screen.getByText('All more than 10,000 matching')).toBeTruthy();
    await user.clear(screen.getByLabelText('Days'));
    await user.type(screen.getByLabelText('Days'), '5');
    await user.click(screen.getByRole('button', { name: 'Extend selected' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Extend all 123,400 matching keys by 5 days?')).toBeTruthy();
    expect(fake.calls.filter((c) => c.name === 'ledger.query' && (c.input as { exactCount?: boolean }).exactCount === true)).toHaveLength(
      1,
    );
  });

  it('refuses a bad Extend days, then asks first', async () => {
    fake.impl['ledger.query'] = () =>
      Promise.resolve({ ok: true, data: { rows: [row('KD-A'), row('KD-B')], total: 2, totalCapped: false } });
    fake.impl['jobs.start'] = () =>
      Promise.resolve({
        ok: true,
        data: summary({ action: 'extend', days: 30, total: 2, counts: { pending: 2, sent: 0, done: 0, failed: 0, unknown: 0 } }),
      });
    const user = userEvent.setup();
    render(<AllKeys />);
    await user.click(await screen.findByRole('checkbox', { name: 'Select KD-A' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select KD-B' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    const days = within(bar).getByLabelText('Days');
    for (const bad of ['1e3', '-5', '0', '2.5', '']) {
      await user.clear(days);
      if (bad !== '') await user.type(days, bad);
      await user.click(within(bar).getByRole('button', { name: 'Extend selected' }));
      expect(days.getAttribute('aria-invalid')).toBe('true');
      expect(within(bar).getByText('Days must be a whole number from 1 to 999,999.')).toBeTruthy();
      expect(screen.queryByRole('dialog')).toBeNull();
    }
    expect(fake.calls.some((c) => c.name === 'jobs.start')).toBe(false);

    await user.clear(days);
    await user.type(days, '30');
    await user.click(within(bar).getByRole('button', { name: 'Extend selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Extend 2 keys by 30 days?' });
    expect(within(dialog).getByText(/This cannot be undone\./)).toBeTruthy();
    // Cancel sends nothing and keeps the selection.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fake.calls.some((c) => c.name === 'jobs.start')).toBe(false);
    expect(within(bar).getByText('2')).toBeTruthy();
    await user.click(within(bar).getByRole('button', { name: 'Extend selected' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Extend 2 keys by 30 days?' })).getByRole('button', { name: 'Extend' }),
    );
    await waitFor(() => {
      expect(fake.calls.filter((c) => c.name === 'jobs.start').map((c) => c.input)).toEqual([
        { action: 'extend', target: { keyValues: ['KD-A', 'KD-B'] }, days: 30 },
      ]);
    });
  });

  it('starts one job for a double yes, bulk actions off meanwhile', async () => {
    fake.impl['ledger.query'] = () =>
      Promise.resolve({ ok: true, data: { rows: [row('KD-A'), row('KD-B')], total: 2, totalCapped: false } });
    // Main lists the job's items before it answers (seconds for a whole ledger): the answer waits for the test.
    let answer: (() => void) | undefined;
    fake.impl['jobs.start'] = () =>
      new Promise((resolve) => {
        answer = () => {
          resolve({
            ok: true,
            data: summary({ action: 'extend', days: 1, total: 2, counts: { pending: 2, sent: 0, done: 0, failed: 0, unknown: 0 } }),
          });
        };
      });
    const user = userEvent.setup();
    render(<AllKeys />);
    await user.click(await screen.findByRole('button', { name: 'Select all 2' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    await user.clear(within(bar).getByLabelText('Days'));
    await user.type(within(bar).getByLabelText('Days'), '1');
    await user.click(within(bar).getByRole('button', { name: 'Extend selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Extend all 2 matching keys by 1 day?' });
    await user.dblClick(within(dialog).getByRole('button', { name: 'Extend' }));
    expect(within(bar).getByRole('status').textContent).toMatch(
      /^Extend by 1 day: starting the job… .*nothing new has been sent yet\. \d+ s so far\.$/,
    );
    for (const name of ['Delete selected', 'Reset HWID of selected', 'Extend selected', 'Clear selection']) {
      expect(within(bar).getByRole<HTMLButtonElement>('button', { name }).disabled).toBe(true);
    }
    // The yes cannot be given again meanwhile, and the store refuses a second start too.
    await act(() => useKeydesk.getState().runBulk('extend', 1));
    expect(fake.calls.filter((c) => c.name === 'jobs.start')).toHaveLength(1);
    act(() => {
      answer?.();
    });
    await waitFor(() => {
      expect(within(bar).getByRole('status').textContent).toBe(
        'Extend by 1 day, running: sending the first requests, 0 of 2 done until they answer.',
      );
    });
    expect(fake.calls.filter((c) => c.name === 'jobs.start')).toHaveLength(1);

    // Cancel says "cancelling" at once and goes, before main's answer comes.
    let cancelled: (() => void) | undefined;
    fake.impl['jobs.cancel'] = () =>
      new Promise((resolve) => {
        cancelled = () => {
          resolve({
            ok: true,
            data: summary({
              action: 'extend',
              days: 1,
              total: 2,
              state: 'cancelled',
              finishedAt: '2026-01-01T00:00:01.000Z',
              counts: { pending: 2, sent: 0, done: 0, failed: 0, unknown: 0 },
            }),
          });
        };
      });
    await user.click(within(bar).getByRole('button', { name: 'Cancel' }));
    expect(within(bar).getByRole('status').textContent).toMatch(/^Extend by 1 day, cancelling: no further request is sent/);
    expect(within(bar).queryByRole('button', { name: 'Cancel' })).toBeNull();
    act(() => {
      cancelled?.();
    });
    await waitFor(() => {
      expect(within(bar).getByRole('status').textContent).toBe('Extend by 1 day, cancelled: 0 of 2 done, 2 not sent.');
    });
  });

  it("keeps a cancelled bulk job's Resume while a generate job runs", async () => {
    localStorage.clear();
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: [row('KD-A')], total: 1, totalCapped: false } });
    const extend = summary({
      id: 'ext-1',
      action: 'extend',
      days: 2,
      state: 'cancelled',
      finishedAt: '2026-01-01T00:05:00.000Z',
      total: 741_267,
      counts: { pending: 661_686, sent: 0, done: 79_581, failed: 0, unknown: 0 },
    });
    fake.impl['jobs.list'] = () => listed([extend]);
    render(<AllKeys />);
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    await within(bar).findByRole('button', { name: 'Resume extending 661,686 keys by 2 days…' });
    // A generate job (from Keys) runs and finishes: said here while it runs, and the extend's panel stays.
    act(() => {
      emit(
        'jobs.progress',
        summary({ id: 'gen-1', total: 120_000, counts: { pending: 20_000, sent: 0, done: 100_000, failed: 0, unknown: 0 } }),
      );
    });
    expect(
      within(bar).getByText(
        /^A generate job is running for this profile \(follow or cancel it in Keys\): Generate, running: 100,000 of 120,000 done/,
      ),
    ).toBeTruthy();
    // What the running generate job has still to request is said apart from what is being recorded.
    expect(
      screen.getByText('A generate job still has 20,000 keys to request (see Keys): they come into this list after that.'),
    ).toBeTruthy();
    act(() => {
      emit(
        'jobs.progress',
        summary({
          id: 'gen-1',
          total: 120_000,
          state: 'finished',
          finishedAt: '2026-01-01T00:09:00.000Z',
          counts: { pending: 0, sent: 0, done: 120_000, failed: 0, unknown: 0 },
        }),
      );
    });
    expect(within(bar).queryByText(/A generate job is running/)).toBeNull();
    expect(screen.queryByText(/A generate job still has/)).toBeNull();
    expect(within(bar).getByText('Extend by 2 days, cancelled: 79,581 of 741,267 done, 661,686 not sent.')).toBeTruthy();
    fake.impl['jobs.export'] = () => Promise.resolve({ ok: true, data: { path: '/tmp/extend.csv' } });
    fake.impl['jobs.resume'] = () => Promise.resolve({ ok: true, data: summary({ ...extend, state: 'running', finishedAt: null }) });
    const user = userEvent.setup();
    await user.click(within(bar).getByRole('button', { name: 'Export results CSV' }));
    await user.click(within(bar).getByRole('button', { name: 'Resume extending 661,686 keys by 2 days…' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Extend the 661,686 keys not sent by 2 days?' })).getByRole('button', {
        name: 'Extend 661,686 keys',
      }),
    );
    await waitFor(() => {
      expect(fake.calls.filter((c) => c.name === 'jobs.export' || c.name === 'jobs.resume').map((c) => [c.name, c.input])).toEqual([
        ['jobs.export', { jobId: 'ext-1', format: 'csv' }],
        ['jobs.resume', { jobId: 'ext-1', retryUnknown: false }],
      ]);
    });
  });

  it('shows the last generate job again after a reload', async () => {
    localStorage.clear();
    const done = summary({
      id: 'gen-2',
      total: 150_000,
      state: 'finished',
      finishedAt: '2026-01-01T00:03:00.000Z',
      counts: { pending: 0, sent: 0, done: 150_000, failed: 0, unknown: 0 },
    });
    fake.impl['jobs.list'] = () => listed([done]);
    const first = render(<GenerateForm />);
    const panel = await screen.findByRole('group', { name: 'Generate job' });
    expect(within(panel).getByRole('button', { name: 'Export the 150,000 keys CSV' })).toBeTruthy();
    await userEvent.setup().click(within(panel).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('group', { name: 'Generate job' })).toBeNull();
    // Another reload: the store starts empty, main still lists the job, and it stays put away.
    first.unmount();
    reloadedStore(readyState());
    render(<GenerateForm />);
    await waitFor(() => {
      expect(fake.calls.filter((c) => c.name === 'jobs.list')).toHaveLength(2);
    });
    expect(screen.queryByRole('group', { name: 'Generate job' })).toBeNull();
  });

  it('speaks of one key in the singular in every bulk dialog', async () => {
    const active = { ...row('KD-C'), status: 'active' as const, hwid: 'HW-1' };
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: [active], total: 1, totalCapped: false, targets: 1 } });
    const user = userEvent.setup();
    render(<AllKeys />);
    await user.click(await screen.findByRole('button', { name: 'Select the 1 key' }));
    expect(screen.getByText('The 1 matching key')).toBeTruthy();
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    await user.clear(within(bar).getByLabelText('Days'));
    await user.type(within(bar).getByLabelText('Days'), '2');
    await user.click(within(bar).getByRole('button', { name: 'Extend selected' }));
    let dialog = await screen.findByRole('dialog', { name: 'Extend the 1 matching key by 2 days?' });
    expect(within(dialog).getByText("The key's expiry moves 2 days later. This cannot be undone.")).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.click(within(bar).getByRole('button', { name: 'Delete selected' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete the 1 matching key?' });
    expect(within(dialog).getByText('It stops working at once. This cannot be undone.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    // One row ticked: "1 key", and the reset speaks of that key.
    await user.click(within(bar).getByRole('button', { name: 'Clear selection' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select KD-C' }));
    await user.click(within(bar).getByRole('button', { name: 'Reset HWID of selected' }));
    dialog = await screen.findByRole('dialog', { name: 'Reset the HWID of 1 key?' });
    expect(
      within(dialog).getByText(
        /^This key is active \(bound to a machine now\): the reset is sent for it, and it will bind to the next machine that validates it\. /,
      ),
    ).toBeTruthy();
    expect(within(dialog).queryByText(/1 of the 1|each will bind/)).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fake.calls.some((c) => c.name === 'jobs.start')).toBe(false);
  });

  it('bulk Reset HWID counts only the picked keys that are bound', async () => {
    const active = { ...row('KD-C'), status: 'active' as const, hwid: 'HW-1' };
    fake.impl['ledger.query'] = () =>
      Promise.resolve({ ok: true, data: { rows: [row('KD-A'), row('KD-B'), active], total: 3, totalCapped: false } });
    const user = userEvent.setup();
    render(<AllKeys />);
    await user.click(await screen.findByRole('checkbox', { name: 'Select KD-A' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select KD-B' }));
    await user.click(screen.getByRole('button', { name: 'Reset HWID of selected' }));
    let dialog = await screen.findByRole('dialog', { name: 'Reset the HWID of 2 keys?' });
    expect(
      within(dialog).getByText(
        /^None of these 2 keys is active: nothing to reset, and nothing will be sent\. Keydesk goes by the Status its ledger shows: a key a customer activated since/,
      ),
    ).toBeTruthy();
    expect(within(dialog).queryByText(/will bind to the next machine/)).toBeNull();
    // Nothing to confirm: no Reset, only Close.
    expect(within(dialog).queryByRole('button', { name: 'Reset' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(fake.calls.some((c) => c.name === 'jobs.start')).toBe(false);

    await user.click(screen.getByRole('checkbox', { name: 'Select KD-C' }));
    await user.click(screen.getByRole('button', { name: 'Reset HWID of selected' }));
    dialog = await screen.findByRole('dialog', { name: 'Reset the HWID of 3 keys?' });
    expect(
      within(dialog).getByText(
        /^1 of the 3 keys is active \(1 bound to a machine now\): the reset is sent for that one only, and it will bind to the next machine that validates it\. The other 2 \(generated or deleted\) are left out: nothing is sent for them\./,
      ),
    ).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    // All matching: the ledger's count of active keys among them, asked when the reset is.
    fake.impl['ledger.query'] = (input) =>
      Promise.resolve({
        ok: true,
        data:
          (input as { filter: { status?: string } }).filter.status === 'active'
            ? { rows: [active], total: 1, totalCapped: false }
            : { rows: [row('KD-A'), row('KD-B'), active], total: 3, totalCapped: false, targets: 3 },
      });
    await user.click(screen.getByRole('button', { name: 'Select all 3' }));
    await user.click(screen.getByRole('button', { name: 'Reset HWID of selected' }));
    dialog = await screen.findByRole('dialog', { name: 'Reset the HWID of all 3 matching keys?' });
    await within(dialog).findByText(
      /^1 of the 3 keys is active: the reset is sent for that one only.*The other 2 \(generated or deleted\) are left out/,
    );
    expect(
      fake.calls
        .filter((c) => c.name === 'ledger.query')
        .map((c) => c.input)
        .at(-1),
    ).toMatchObject({ filter: { status: 'active' }, exactCount: true });
  });

  it('disables Export with the reason when no key matches', async () => {
    const deleted = { ...row('KD-D'), status: 'deleted' as const, expiresAt: '2027-06-30T23:59:59.000Z', daysKey: null };
    fake.impl['ledger.query'] = (input) => {
      const { filter } = input as { filter: { text?: string } };
      return Promise.resolve({
        ok: true,
        data:
          filter.text === 'zz'
            ? { rows: [], total: 0, totalCapped: false }
            : { rows: [row('KD-A'), deleted], total: 2, totalCapped: false },
      });
    };
    const user = userEvent.setup();
    render(<AllKeys />);
    await screen.findByText('2 keys');
    // A deleted key shows no expiry as if it still applied: the one it had, muted, as past.
    const deletedRow = screen.getByRole('checkbox', { name: 'Select KD-D' }).closest('[role="row"]') as HTMLElement;
    const was = within(deletedRow).getByText(/^was .*2027/);
    expect(was.className).toBe('muted');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Export CSV' }).disabled).toBe(false);
    expect(screen.getByText('Exports hold every matching key, in the order shown.')).toBeTruthy();

    const text = screen.getByLabelText('Filter (key, note or HWID)');
    await user.type(text, 'zz');
    expect(await screen.findByText('No key matches these filters.')).toBeTruthy();
    const csv = screen.getByRole<HTMLButtonElement>('button', { name: 'Export CSV' });
    expect(csv.disabled).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Export JSON' }).disabled).toBe(true);
    expect(document.getElementById(csv.getAttribute('aria-describedby')!)?.textContent).toBe('Nothing to export: no key matches.');

    await user.clear(text);
    await user.type(text, '   ');
    await screen.findByText('2 keys');
    expect(
      fake.calls
        .filter((c) => c.name === 'ledger.query')
        .map((c) => (c.input as { filter: { text?: string } }).filter.text)
        .at(-1),
    ).toBeUndefined();

    // Sortable columns show a neutral mark; the sorted one its direction, with aria-sort.
    const header = (name: string) => screen.getByRole('columnheader', { name: new RegExp(`^${name}`) });
    expect(header('Created').getAttribute('aria-sort')).toBe('descending');
    expect(header('Key').getAttribute('aria-sort')).toBe('none');
    const pathOf = (h: HTMLElement) => h.querySelector('svg path')?.getAttribute('d');
    expect(pathOf(header('Key'))).not.toBe(pathOf(header('Created')));
    await user.click(within(header('Key')).getByRole('button'));
    expect(header('Key').getAttribute('aria-sort')).toBe('ascending');
    expect(pathOf(header('Key'))).not.toBe(pathOf(header('Created')));
    expect(pathOf(header('Created'))).toBe(pathOf(header('Status')));
  });

  it('keyboard: rows are one Tab stop, moved by arrows', async () => {
    fake.impl['ledger.query'] = () =>
      Promise.resolve({ ok: true, data: { rows: [row('KD-A'), row('KD-B'), row('KD-C')], total: 3, totalCapped: false } });
    const user = userEvent.setup();
    render(<AllKeys />);
    const boxes = await screen.findAllByRole('checkbox', { name: /^Select KD-/ });
    expect(boxes.map((b) => b.tabIndex)).toEqual([0, -1, -1]);
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    const grid = screen.getByRole('grid', { name: 'All keys' });
    expect(bar.compareDocumentPosition(grid) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    boxes[0]!.focus();
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('checkbox', { name: 'Select KD-B' }));
    await user.keyboard(' ');
    expect(useKeydesk.getState().selection).toEqual(new Set(['KD-B']));
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(screen.getByRole('checkbox', { name: 'Select KD-C' }));
    expect(screen.getAllByRole('checkbox', { name: /^Select KD-/ }).map((b) => b.tabIndex)).toEqual([-1, -1, 0]);
    await user.keyboard('{Shift>} {/Shift}');
    expect(useKeydesk.getState().selection).toEqual(new Set(['KD-B', 'KD-C']));
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(screen.getByRole('checkbox', { name: 'Select KD-A' }));
    // Tab leaves the table: no other row is a stop.
    await user.tab();
    expect((document.activeElement as HTMLElement | null)?.closest('[role="grid"]')).toBeNull();
  });

  it('keyboard: Ctrl+C copies the key, Ctrl+Shift+C its HWID', async () => {
    fake.impl['ledger.query'] = () =>
      Promise.resolve({
        ok: true,
        data: {
          rows: [
            { ...row('KD-A'), hwid: 'HW-BOUND-1' },
            { ...row('KD-B'), note: '' },
          ],
          total: 2,
          totalCapped: false,
        },
      });
    const user = userEvent.setup();
    render(<AllKeys />);
    const boxes = await screen.findAllByRole('checkbox', { name: /^Select KD-/ });
    boxes[0]!.focus();
    await user.keyboard('{Control>}c{/Control}');
    expect(await navigator.clipboard.readText()).toBe('KD-A');
    await waitFor(() => {
      expect(useKeydesk.getState().toasts.at(-1)).toMatchObject({ kind: 'success', text: 'Copied KD-A.' });
    });
    await user.keyboard('{Control>}{Shift>}C{/Shift}{/Control}');
    expect(await navigator.clipboard.readText()).toBe('HW-BOUND-1');
    await user.keyboard('{ArrowDown}{Control>}{Shift>}C{/Shift}{/Control}');
    expect(await navigator.clipboard.readText()).toBe('HW-BOUND-1');
    expect(useKeydesk.getState().toasts.at(-1)).toMatchObject({
      kind: 'error',
      text: 'Copy the HWID of key KD-B: it is not bound to a machine, so there is no HWID to copy.',
    });
    // Ctrl+C did not tick the row, and an empty note reads as a dash, not a blank cell.
    expect(useKeydesk.getState().selection).toEqual(new Set());
    const rowB = screen.getByRole('checkbox', { name: 'Select KD-B' }).closest('[role="row"]') as HTMLElement;
    const noteColumn = screen.getAllByRole('columnheader').findIndex((h) => h.textContent.startsWith('Note'));
    expect(noteColumn).toBeGreaterThan(0);
    const rowA = screen.getByRole('checkbox', { name: 'Select KD-A' }).closest('[role="row"]') as HTMLElement;
    expect(within(rowA).getAllByRole('gridcell')[noteColumn]?.textContent).toBe('spring');
    expect(within(rowB).getAllByRole('gridcell')[noteColumn]?.textContent).toBe('—');
  });

  it('keyboard: a refused copy says which copy it was', async () => {
    fake.impl['ledger.query'] = () =>
      Promise.resolve({ ok: true, data: { rows: [{ ...row('KD-A'), hwid: 'HW-BOUND-1' }], total: 1, totalCapped: false } });
    const user = userEvent.setup();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new DOMException('denied', 'NotAllowedError'));
    render(<AllKeys />);
    (await screen.findByRole('checkbox', { name: 'Select KD-A' })).focus();
    await user.keyboard('{Control>}c{/Control}');
    await waitFor(() => {
      expect(useKeydesk.getState().toasts.at(-1)).toMatchObject({
        kind: 'error',
        text: 'Copy key KD-A: the clipboard refused; use an export instead.',
      });
    });
    await user.keyboard('{Control>}{Shift>}C{/Shift}{/Control}');
    await waitFor(() => {
      expect(useKeydesk.getState().toasts.at(-1)).toMatchObject({
        kind: 'error',
        text: 'Copy the HWID of key KD-A: the clipboard refused; use an export instead.',
      });
    });
  });

  it('checks the unknown keys first from Send N requests again', async () => {
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: [row('KD-A')], total: 1, totalCapped: false } });
    fake.impl['jobs.items'] = () =>
      Promise.resolve({
        ok: true,
        data: { items: [{ seq: 1, target: 'KD-A', size: 1, state: 'unknown', code: 'OUTCOME_UNKNOWN', message: 'No answer.' }], total: 1 },
      });
    fake.impl['keys.fetchActive'] = () => Promise.resolve({ ok: true, data: { keys: [], total: 0 } });
    fake.impl['keys.fetchGenerated'] = () => Promise.resolve({ ok: true, data: { keys: [], total: 0 } });
    const deleted = summary({
      action: 'delete',
      note: null,
      state: 'finished',
      finishedAt: '2026-01-01T00:01:00.000Z',
      total: 1,
      counts: { pending: 0, sent: 0, done: 0, failed: 0, unknown: 1 },
    });
    useKeydesk.setState({ jobs: { [deleted.id]: deleted }, currentJobId: deleted.id, bulkJobId: deleted.id });
    const user = userEvent.setup();
    render(<AllKeys />);
    await user.click(await screen.findByRole('button', { name: 'Send the 1 unknown again…' }));
    const dialog = screen.getByRole('dialog', { name: 'Send 1 request again?' });
    expect(dialog.textContent).toContain('“Check these keys first” reads the key as the service has it now');
    await user.click(within(dialog).getByRole('button', { name: 'Check these keys first' }));
    const now = await screen.findByRole('region', { name: 'Keys sent with no answer, as the service has them now' });
    expect(within(now).getByRole('status').textContent).toMatch(
      /^As the service has this key now, read at .+: “not found” means the key is gone from the service, deleted by that request or otherwise\. This is each key’s state now, not a record of what the unanswered request did\.$/,
    );
    expect(within(now).getAllByRole('row')[1]?.textContent).toBe('KD-ANot found: the service has it neither active nor generated.');
    expect(fake.calls.some((c) => c.name === 'jobs.resume')).toBe(false);
  });

  it('says why bulk actions are off while a job runs', async () => {
    fake.impl['ledger.query'] = () =>
      Promise.resolve({ ok: true, data: { rows: [row('KD-A'), row('KD-B')], total: 2, totalCapped: false } });
    const user = userEvent.setup();
    render(<AllKeys />);
    await user.click(await screen.findByRole('checkbox', { name: 'Select KD-A' }));
    const why = /One job at a time per service: these actions come back when the job below ends/;
    expect(screen.queryByText(why)).toBeNull();
    act(() => {
      emit(
        'jobs.progress',
        summary({ action: 'extend', days: 5, total: 10, counts: { pending: 10, sent: 0, done: 0, failed: 0, unknown: 0 } }),
      );
    });
    expect(await screen.findByText(why)).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Delete selected' }).disabled).toBe(true);
    act(() => {
      emit(
        'jobs.progress',
        summary({
          action: 'extend',
          days: 5,
          total: 10,
          state: 'finished',
          finishedAt: '2026-01-01T00:01:00.000Z',
          counts: { pending: 0, sent: 0, done: 10, failed: 0, unknown: 0 },
        }),
      );
    });
    await waitFor(() => {
      expect(screen.queryByText(why)).toBeNull();
    });
  });

  it('lists the keys whose new expiry could not be read back', async () => {
    fake.impl['ledger.query'] = () =>
      Promise.resolve({ ok: true, data: { rows: [row('KD-A'), row('KD-B')], total: 2, totalCapped: false } });
    const extend = { action: 'extend' as const, days: 5, total: 2 };
    fake.impl['jobs.items'] = (input) => {
      const { state, noted } = input as { state?: string; noted?: boolean };
      const items =
        state === 'done' && noted === true
          ? [
              {
                seq: 2,
                target: 'KD-B',
                size: 1,
                state: 'done' as const,
                code: null,
                message: 'Extended. The service did not describe the key…',
              },
            ]
          : [];
      return Promise.resolve({ ok: true, data: { items, total: items.length } });
    };
    render(<AllKeys />);
    await screen.findByText('2 keys');
    act(() => {
      emit('jobs.progress', summary({ ...extend, counts: { pending: 0, sent: 2, done: 0, failed: 0, unknown: 0 } }));
    });
    act(() => {
      emit(
        'jobs.progress',
        summary({
          ...extend,
          state: 'finished',
          finishedAt: '2026-01-01T00:01:00.000Z',
          counts: { pending: 0, sent: 0, done: 2, failed: 0, unknown: 0 },
        }),
      );
    });
    const summaryLine = await screen.findByText(/Extended, but the new expiry could not be read back \(1\)/);
    expect(within(summaryLine.closest('details') as HTMLElement).getByText('KD-B')).toBeTruthy();
  });
});
