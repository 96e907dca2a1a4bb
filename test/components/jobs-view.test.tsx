// The Jobs view as a person meets it in jsdom against the contract-typed fake bridge: every state of the list
// (loading, failed, empty, another profile's answer, a running job's row moving), a job opened with its results by
// state, exports, Resume, the unknown items never sent again without a yes, and a job removed from the list.
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { OperationResult } from '../../src/shared/contract.ts';
import type { JobItem } from '../../src/shared/domain.ts';
import { emit, fake, key, readyStore, remoteProfile, useKeydesk } from '../support/fake-bridge.ts';
import { deferred, jobRowTexts as rowTexts, jobSummaries, jobsTable as table, listed } from '../support/fake-jobs.ts';
import { Jobs } from '../../src/renderer/src/views/Jobs/Jobs.tsx';

const EXTEND = '11111111-1111-4111-8111-111111111111';
const GENERATE = '22222222-2222-4222-8222-222222222222';
const RESET = '33333333-3333-4333-8333-333333333333';
const summary = jobSummaries({
  id: EXTEND,
  profileId: 'sandbox',
  action: 'extend',
  days: 1,
  note: null,
  state: 'finished',
  reason: null,
  createdAt: '2026-01-01T10:00:00.000Z',
  finishedAt: '2026-01-01T10:05:00.000Z',
  total: 5,
  counts: { pending: 0, sent: 0, done: 5, failed: 0, unknown: 0 },
  ratePerSecond: null,
  etaSeconds: null,
  concurrency: 0,
  ceiling: 64,
  pausedUntil: null,
});
const item = (seq: number, target: string, state: JobItem['state'], message: string | null = null): JobItem => ({
  seq,
  target,
  size: 1,
  state,
  code: message ? 'NOT_FOUND' : null,
  message,
});

beforeEach(() => {
  vi.useRealTimers();
  readyStore();
});

describe('Jobs: the list', () => {
  it("says loading until main answers, then lists each job's counts", async () => {
    const answer = deferred<OperationResult<'jobs.list'>>();
    fake.impl['jobs.list'] = () => answer.promise;
    render(<Jobs />);
    expect(screen.getByRole('heading', { level: 1, name: 'Jobs' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Loading jobs…');
    expect(screen.queryByRole('table', { name: 'Jobs' })).toBeNull();
    act(() => {
      answer.resolve({
        ok: true,
        data: {
          jobs: [
            summary({
              id: RESET,
              action: 'resetHwid',
              days: null,
              state: 'interrupted',
              createdAt: '2026-01-03T09:00:00.000Z',
              finishedAt: '2026-01-03T09:01:00.000Z',
              total: 10,
              counts: { pending: 6, sent: 0, done: 2, failed: 1, unknown: 1 },
              reason: 'Keydesk stopped while this job ran.',
            }),
            summary({
              id: GENERATE,
              action: 'generate',
              days: null,
              note: 'spring',
              state: 'cancelled',
              createdAt: '2026-01-02T09:00:00.000Z',
              total: 300_000,
              counts: { pending: 100_000, sent: 0, done: 200_000, failed: 0, unknown: 0 },
            }),
            summary({}),
          ],
          elsewhere: [],
        },
      });
    });
    await screen.findByRole('table', { name: 'Jobs' });
    const rows = rowTexts();
    expect(rows.map((r) => [r[0], r[1], r[3], r[4], r[5], r[6]])).toEqual([
      ['Reset HWID10 keys', 'Interrupted', '2', '1', '1', '6'],
      ['Generate (“spring”)300,000 keys', 'Cancelled', '200,000', '0', '0', '100,000'],
      ['Extend by 1 day5 keys', 'Finished', '5', '0', '0', '0'],
    ]);
    // Started and ended as dates a person reads, the exact moment in the markup.
    const when = within(table()).getAllByRole('row')[3]?.querySelectorAll('time');
    expect([...(when ?? [])].map((t) => t.getAttribute('datetime'))).toEqual(['2026-01-01T10:00:00.000Z', '2026-01-01T10:05:00.000Z']);
    expect(rows[2]?.[2]).toMatch(/ended /);
    expect(screen.getByText(/Listed for Local sandbox: every running or interrupted job, and the 20 most recent\./)).toBeTruthy();
  });

  it('says why main cannot list the jobs and offers Try again', async () => {
    fake.impl['jobs.list'] = () =>
      Promise.resolve({ ok: false, code: 'INTERNAL', message: 'Keydesk could not read its local database.', detail: 'SQLITE_BUSY' });
    const user = userEvent.setup();
    render(<Jobs />);
    expect((await screen.findByRole('alert')).textContent).toContain('Keydesk could not read its local database.');
    expect(screen.queryByRole('table', { name: 'Jobs' })).toBeNull();
    expect(screen.queryByText('No jobs yet')).toBeNull();
    fake.impl['jobs.list'] = () => listed([summary({})]);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('table', { name: 'Jobs' });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(rowTexts()).toHaveLength(1);
  });

  it('says No jobs yet and where jobs come from', async () => {
    fake.impl['jobs.list'] = () => listed([]);
    const user = userEvent.setup();
    render(<Jobs />);
    expect(await screen.findByText('No jobs yet')).toBeTruthy();
    expect(
      screen.getByText(/A bulk action on keys in All keys, or a generate of more than 100,000 keys in Keys, runs as a job/),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Go to All keys' }));
    expect(useKeydesk.getState().view).toBe('ledger');
  });

  it('counts older jobs not shown and lists 20 more on request', async () => {
    const older = summary({ id: GENERATE, action: 'delete', days: null, createdAt: '2025-12-01T00:00:00.000Z' });
    fake.impl['jobs.list'] = (input) =>
      (input as { recent?: number } | undefined)?.recent === 40
        ? listed([summary({}), older])
        : Promise.resolve({ ok: true, data: { jobs: [summary({})], elsewhere: [], unlisted: 1, next: 40 } });
    const user = userEvent.setup();
    render(<Jobs />);
    expect(await screen.findByText('1 older job is not shown.')).toBeTruthy();
    expect(screen.getByText(/and the 20 most recent \(older ones on request, below\)\./)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Show 1 older' }));
    await waitFor(() => {
      expect(rowTexts().map((r) => r[0])).toEqual(['Extend by 1 day5 keys', 'Delete5 keys']);
    });
    expect(fake.calls.filter((c) => c.name === 'jobs.list').map((c) => c.input)).toEqual([undefined, { recent: 40 }]);
    expect(screen.queryByText(/older job/)).toBeNull();
    expect(screen.getByText(/and the 40 most recent\./)).toBeTruthy();
  });

  it("moves a running job's row with main's progress events", async () => {
    fake.impl['jobs.list'] = () =>
      listed([
        summary({ state: 'running', finishedAt: null, total: 1_000, counts: { pending: 900, sent: 50, done: 50, failed: 0, unknown: 0 } }),
      ]);
    render(<Jobs />);
    await screen.findByRole('table', { name: 'Jobs' });
    expect(rowTexts()[0]?.slice(0, 2)).toEqual(['Extend by 1 day1,000 keys', 'Running']);
    expect(rowTexts()[0]?.[2]).toMatch(/not ended yet$/);
    expect(rowTexts()[0]?.[6]).toBe('900 (+50 awaiting an answer)');
    act(() => {
      emit(
        'jobs.progress',
        summary({ state: 'running', finishedAt: null, total: 1_000, counts: { pending: 400, sent: 0, done: 590, failed: 10, unknown: 0 } }),
      );
    });
    expect(rowTexts()[0]?.slice(3, 7)).toEqual(['590', '10', '0', '400']);
    // An older summary arriving late does not move the row back.
    act(() => {
      emit('jobs.progress', {
        ...summary({
          state: 'running',
          finishedAt: null,
          total: 1_000,
          counts: { pending: 900, sent: 50, done: 50, failed: 0, unknown: 0 },
        }),
        version: 1,
      });
    });
    expect(rowTexts()[0]?.[3]).toBe('590');
    act(() => {
      emit('jobs.progress', summary({ total: 1_000, counts: { pending: 0, sent: 0, done: 990, failed: 10, unknown: 0 } }));
    });
    expect(rowTexts()[0]?.slice(1, 2)).toEqual(['Finished']);
    expect(within(table()).getAllByRole('row')[1]?.querySelector('.badge')?.getAttribute('title')).toBe(
      'Finished: some keys failed or have an unknown outcome',
    );
    act(() => {
      emit('jobs.progress', summary({ id: RESET, profileId: 'p2', action: 'resetHwid', state: 'running', finishedAt: null }));
      emit(
        'jobs.progress',
        summary({
          id: GENERATE,
          action: 'generate',
          days: null,
          state: 'running',
          finishedAt: null,
          createdAt: '2026-01-05T00:00:00.000Z',
          total: 150_000,
          counts: { pending: 150_000, sent: 0, done: 0, failed: 0, unknown: 0 },
        }),
      );
    });
    expect(rowTexts().map((r) => r[0])).toEqual(['Generate150,000 keys', 'Extend by 1 day1,000 keys']);
  });

  it("shows only the new profile's jobs after a switch", async () => {
    const late = deferred<OperationResult<'jobs.list'>>();
    fake.impl['jobs.list'] = () => late.promise;
    render(<Jobs />);
    fake.impl['profiles.select'] = () => Promise.resolve({ ok: true, data: remoteProfile });
    fake.impl['jobs.list'] = () => listed([summary({ id: RESET, profileId: 'p2', action: 'delete', days: null })]);
    await act(() => useKeydesk.getState().selectProfile('p2'));
    await screen.findByRole('table', { name: 'Jobs' });
    expect(rowTexts().map((r) => r[0])).toEqual(['Delete5 keys']);
    // The first profile's answer arrives now: it belongs to no view any more.
    await act(async () => {
      late.resolve(listed([summary({})]) as unknown as OperationResult<'jobs.list'>);
      await late.promise;
    });
    expect(rowTexts().map((r) => r[0])).toEqual(['Delete5 keys']);
    expect(screen.getByText(/Listed for Remote Shop:/)).toBeTruthy();
  });
});

describe('Jobs: reached from a job panel, and beside another profile', () => {
  it("opens on the job a panel's link names", async () => {
    const { GenerateForm } = await import('../../src/renderer/src/views/Keys/GenerateForm.tsx');
    const gen = summary({
      id: GENERATE,
      action: 'generate',
      days: null,
      total: 150_000,
      counts: { pending: 0, sent: 0, done: 150_000, failed: 0, unknown: 0 },
    });
    fake.impl['jobs.list'] = () => listed([gen, summary({})]);
    fake.impl['jobs.items'] = () => Promise.resolve({ ok: true, data: { items: [], total: 0 } });
    const user = userEvent.setup();
    const keys = render(<GenerateForm />);
    const panel = await screen.findByRole('group', { name: 'Generate job' });
    await user.click(within(panel).getByRole('button', { name: 'See every result in Jobs' }));
    expect(useKeydesk.getState()).toMatchObject({ view: 'jobs', openJobId: GENERATE });
    keys.unmount();
    render(<Jobs />);
    const detail = await screen.findByRole('region', { name: 'Generate' });
    expect(within(detail).getAllByRole('status')[0]?.textContent).toBe('Generate, finished: 150,000 of 150,000 done.');
    await waitFor(() => {
      expect(document.activeElement).toBe(within(detail).getByRole('heading', { level: 2 }));
    });
  });

  it("says another profile's job still runs, and lists none of its rows", async () => {
    fake.impl['jobs.list'] = () =>
      Promise.resolve({
        ok: true,
        data: {
          jobs: [],
          elsewhere: [
            summary({
              id: RESET,
              profileId: 'p2',
              action: 'delete',
              days: null,
              state: 'running',
              finishedAt: null,
              total: 10,
              counts: { pending: 6, sent: 0, done: 4, failed: 0, unknown: 0 },
            }),
          ],
        },
      });
    render(<Jobs />);
    expect(await screen.findByText('No jobs yet')).toBeTruthy();
    expect(screen.getByText(/^A job is running for profile Remote Shop: Delete, running: 4 of 10 done/).textContent).toMatch(
      /Switch to that profile to follow or cancel it\.$/,
    );
  });
});

describe('Jobs: one job opened', () => {
  const interrupted = () =>
    summary({
      state: 'interrupted',
      days: 30,
      total: 6,
      counts: { pending: 3, sent: 0, done: 1, failed: 1, unknown: 1 },
      reason: 'Keydesk stopped while this job ran.',
    });

  it("shows an opened job's results by state, with export and focus", async () => {
    fake.impl['jobs.list'] = () => listed([interrupted()]);
    fake.impl['jobs.items'] = (input) => {
      const { state } = input as { state?: string };
      const all = [
        item(1, 'KD-A', 'done'),
        item(2, 'KD-B', 'failed', 'No key has that value.'),
        item(3, 'KD-C', 'unknown', 'The connection closed before an answer.'),
        item(4, 'KD-D', 'pending'),
        item(5, 'KD-E', 'pending'),
        item(6, 'KD-F', 'pending'),
      ];
      const items = all.filter((i) => state === undefined || i.state === state);
      return Promise.resolve({ ok: true, data: { items, total: items.length } });
    };
    fake.impl['jobs.export'] = () => Promise.resolve({ ok: true, data: { path: '/tmp/keydesk-job-extend.csv' } });
    const user = userEvent.setup();
    render(<Jobs />);
    await screen.findByRole('table', { name: 'Jobs' });
    const open = screen.getByRole('button', { name: /^Extend by 30 days, started / });
    await user.click(open);
    const detail = screen.getByRole('region', { name: 'Extend by 30 days' });
    expect(document.activeElement).toBe(within(detail).getByRole('heading', { level: 2 }));
    expect(within(detail).getAllByRole('status')[0]?.textContent).toBe(
      'Extend by 30 days, interrupted: 1 of 6 done, 1 failed, 1 unknown, 3 not sent.',
    );
    expect(within(detail).getByText('Keydesk stopped while this job ran.')).toBeTruthy();
    const results = await within(detail).findByRole('table', { name: 'Job results' });
    expect(
      within(results)
        .getAllByRole('row')
        .slice(1)
        .map((r) =>
          within(r)
            .getAllByRole('cell')
            .map((c) => c.textContent),
        ),
    ).toEqual([
      ['KD-A', 'Extended', '—'],
      ['KD-B', 'Refused', 'No key has that value.'],
      ['KD-C', 'Unknown: sent, no answer came back', 'The connection closed before an answer.'],
      ['KD-D', 'Not sent', '—'],
      ['KD-E', 'Not sent', '—'],
      ['KD-F', 'Not sent', '—'],
    ]);
    await user.selectOptions(within(detail).getByLabelText('Show'), 'Unknown (1)');
    await waitFor(() => {
      expect(
        within(detail)
          .getAllByRole('row')
          .slice(1)
          .map((r) => r.textContent),
      ).toEqual(['KD-CUnknown: sent, no answer came backThe connection closed before an answer.']);
    });
    expect(fake.calls.filter((c) => c.name === 'jobs.items').at(-1)?.input).toEqual({
      jobId: EXTEND,
      state: 'unknown',
      offset: 0,
      limit: 100,
    });

    await user.click(within(detail).getByRole('button', { name: 'Export results CSV' }));
    expect(fake.calls.filter((c) => c.name === 'jobs.export').map((c) => c.input)).toEqual([{ jobId: EXTEND, format: 'csv' }]);
    await waitFor(() => {
      expect(useKeydesk.getState().toasts.at(-1)).toMatchObject({ kind: 'success', text: 'Saved to /tmp/keydesk-job-extend.csv.' });
    });
    // The toast leaves; where the file went stays beside the job.
    expect(within(detail).getByText(/^Last saved to/).textContent).toBe('Last saved to /tmp/keydesk-job-extend.csv');

    await user.click(within(detail).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('region', { name: 'Extend by 30 days' })).toBeNull();
    await waitFor(() => {
      expect(document.activeElement).toBe(screen.getByRole('button', { name: /^Extend by 30 days/ }));
    });
  });

  it("tells a generate's Request again to look up its note first", async () => {
    const gen = summary({
      id: GENERATE,
      action: 'generate',
      days: null,
      note: 'spring',
      state: 'interrupted',
      total: 300_000,
      counts: { pending: 0, sent: 0, done: 200_000, failed: 0, unknown: 100_000 },
    });
    fake.impl['jobs.list'] = () => listed([gen]);
    fake.impl['jobs.items'] = () => Promise.resolve({ ok: true, data: { items: [], total: 0 } });
    const user = userEvent.setup();
    render(<Jobs />);
    await user.click(await screen.findByRole('button', { name: /^Generate \(“spring”\), started / }));
    await user.click(
      within(screen.getByRole('region', { name: 'Generate (“spring”)' })).getByRole('button', { name: 'Send the 100,000 unknown again…' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Request 100,000 keys again?' });
    expect(dialog.textContent).toContain(
      'To check first, close this and look up the note “spring” in Keys: keys these requests made carry it.',
    );
    expect(dialog.textContent).not.toContain('Check them first if that matters.');
  });

  it('resumes pending items, and resends unknown ones only after a yes', async () => {
    fake.impl['jobs.list'] = () => listed([interrupted()]);
    fake.impl['jobs.items'] = () => Promise.resolve({ ok: true, data: { items: [], total: 0 } });
    fake.impl['jobs.resume'] = () =>
      Promise.resolve({
        ok: true,
        data: summary({ state: 'running', finishedAt: null, total: 6, counts: { pending: 3, sent: 0, done: 1, failed: 1, unknown: 1 } }),
      });
    const user = userEvent.setup();
    render(<Jobs />);
    await user.click(await screen.findByRole('button', { name: /^Extend by 30 days/ }));
    const detail = screen.getByRole('region', { name: 'Extend by 30 days' });
    expect(
      within(detail).getByText(
        '1 request sent with no answer: it may have taken effect. Keydesk never sends it again by itself; check first (Show: Unknown), then choose.',
      ),
    ).toBeTruthy();

    await user.click(within(detail).getByRole('button', { name: 'Send the 1 unknown again…' }));
    const dialog = screen.getByRole('dialog', { name: 'Send 1 request again?' });
    // One request: "it", not "each".
    expect(dialog.textContent).toMatch(
      /^Send 1 request again\?It was sent once and no answer came back, so it may already have taken effect\. /,
    );
    expect(dialog.textContent).toContain('Sending an extension again extends the key again.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fake.calls.some((c) => c.name === 'jobs.resume')).toBe(false);

    fake.impl['jobs.list'] = () =>
      listed([
        summary({
          state: 'running',
          finishedAt: null,
          days: 30,
          total: 6,
          counts: { pending: 3, sent: 0, done: 1, failed: 1, unknown: 1 },
        }),
      ]);
    await user.click(within(detail).getByRole('button', { name: 'Resume extending 3 keys by 30 days…' }));
    // A cancel was a change of mind: resuming an extend asks first, naming the act and the count.
    const resumeDialog = screen.getByRole('dialog', { name: 'Extend the 3 keys not sent by 30 days?' });
    expect(fake.calls.some((c) => c.name === 'jobs.resume')).toBe(false);
    await user.click(within(resumeDialog).getByRole('button', { name: 'Extend 3 keys' }));
    expect(fake.calls.filter((c) => c.name === 'jobs.resume').map((c) => c.input)).toEqual([{ jobId: EXTEND, retryUnknown: false }]);
    await waitFor(() => {
      expect(rowTexts()[0]?.[1]).toBe('Running');
    });
    // Running now: nothing to resume or remove, and Cancel is offered.
    expect(within(detail).queryByRole('button', { name: /Resume|Remove/ })).toBeNull();
    expect(within(detail).getByRole('button', { name: 'Cancel' })).toBeTruthy();
  });

  it('checks the unknown keys as the service has them now', async () => {
    const stopped = summary({
      state: 'interrupted',
      days: 30,
      total: 6,
      counts: { pending: 2, sent: 0, done: 1, failed: 1, unknown: 2 },
      reason: 'Keydesk stopped while this job ran.',
    });
    fake.impl['jobs.list'] = () => listed([stopped]);
    fake.impl['jobs.items'] = (input) =>
      Promise.resolve({
        ok: true,
        data:
          (input as { state?: string }).state === 'unknown'
            ? { items: [item(4, 'KD-A', 'unknown', 'No answer.'), item(5, 'KD-B', 'unknown', 'No answer.')], total: 2 }
            : { items: [], total: 0 },
      });
    // KD-A is active with an expiry the extension may have moved; KD-B the service has no more.
    fake.impl['keys.fetchActive'] = (input) =>
      Promise.resolve({
        ok: true,
        data:
          (input as { term: string }).term === 'KD-A'
            ? { keys: [key('KD-A', 'active', { expiresAt: '2099-01-31T23:59:59.999Z', hwid: 'HW-1' })], total: 1 }
            : { keys: [], total: 0 },
      });
    fake.impl['keys.fetchGenerated'] = () => Promise.resolve({ ok: true, data: { keys: [], total: 0 } });
    const user = userEvent.setup();
    render(<Jobs />);
    await user.click(await screen.findByRole('button', { name: /^Extend by 30 days/ }));
    const detail = screen.getByRole('region', { name: 'Extend by 30 days' });
    await user.click(within(detail).getByRole('button', { name: 'Send the 2 unknown again…' }));
    const dialog = screen.getByRole('dialog', { name: 'Send 2 requests again?' });
    expect(dialog.textContent).toContain(
      '“Check these keys first” reads each of them as the service has them now, so you can see whether the request took effect before sending it again.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Check these keys first' }));
    expect(dialog.hasAttribute('open')).toBe(false);

    const now = await within(detail).findByRole('region', { name: 'Keys sent with no answer, as the service has them now' });
    const said = within(now).getByRole('status').textContent;
    expect(said).toMatch(
      /^As the service has these keys now, read at .+: an expiry already 30 days later than before means that extension took effect, and sending it again would extend the key a second time\. This is each key’s state now, not a record of what the unanswered request did\.$/,
    );
    const rows = within(now)
      .getAllByRole('row')
      .map((r) => r.textContent);
    expect(rows[1]).toMatch(/^KD-AActive.*Bound.*HW-1$/);
    expect(rows[1]).toContain('2099');
    expect(rows[2]).toBe('KD-BNot found: the service has it neither active nor generated.');
    // Each key read by its exact value, and nothing sent again.
    expect(fake.calls.filter((c) => c.name === 'keys.fetchActive').map((c) => (c.input as { term: string }).term)).toEqual([
      'KD-A',
      'KD-B',
    ]);
    expect(fake.calls.some((c) => c.name === 'jobs.resume')).toBe(false);
    // The job moves on (resumed elsewhere, say): what was read of its keys no longer stands beside it.
    act(() => {
      emit(
        'jobs.progress',
        summary({
          state: 'running',
          finishedAt: null,
          days: 30,
          total: 6,
          counts: { pending: 2, sent: 0, done: 1, failed: 1, unknown: 2 },
        }),
      );
    });
    await waitFor(() => {
      expect(within(detail).queryByRole('region', { name: 'Keys sent with no answer, as the service has them now' })).toBeNull();
    });
  });

  it('says when the keys could not be read now', async () => {
    const stopped = summary({
      state: 'interrupted',
      days: 30,
      total: 6,
      counts: { pending: 2, sent: 0, done: 1, failed: 1, unknown: 2 },
      reason: 'Keydesk stopped while this job ran.',
    });
    fake.impl['jobs.list'] = () => listed([stopped]);
    fake.impl['jobs.items'] = () => Promise.resolve({ ok: true, data: { items: [item(4, 'KD-A', 'unknown', 'No answer.')], total: 2 } });
    fake.impl['keys.fetchActive'] = () => Promise.resolve({ ok: false, code: 'NETWORK', message: 'Keydesk could not reach the service.' });
    const user = userEvent.setup();
    render(<Jobs />);
    await user.click(await screen.findByRole('button', { name: /^Extend by 30 days/ }));
    const detail = screen.getByRole('region', { name: 'Extend by 30 days' });
    await user.click(within(detail).getByRole('button', { name: 'Send the 2 unknown again…' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Send 2 requests again?' })).getByRole('button', { name: 'Check these keys first' }),
    );
    await within(detail).findByText('The keys sent with no answer could not be read now:');
    expect(within(detail).getByRole('alert').textContent).toContain('Keydesk could not reach the service.');
    expect(within(detail).queryByRole('region', { name: 'Keys sent with no answer, as the service has them now' })).toBeNull();
  });

  it("never shows another state's rows while the chosen page loads", async () => {
    fake.impl['jobs.list'] = () => listed([interrupted()]);
    const unknown = deferred<OperationResult<'jobs.items'>>();
    fake.impl['jobs.items'] = (input) =>
      (input as { state?: string }).state === 'unknown'
        ? unknown.promise
        : Promise.resolve({ ok: true, data: { items: [item(1, 'KD-A', 'done'), item(3, 'KD-C', 'unknown', 'No answer.')], total: 2 } });
    const user = userEvent.setup();
    render(<Jobs />);
    await user.click(await screen.findByRole('button', { name: /^Extend by 30 days/ }));
    const detail = screen.getByRole('region', { name: 'Extend by 30 days' });
    await within(detail).findByRole('table', { name: 'Job results' });
    await user.selectOptions(within(detail).getByLabelText('Show'), 'Unknown (1)');
    expect(within(detail).queryByRole('table', { name: 'Job results' })).toBeNull();
    expect(within(detail).getByText("Loading the job's results…")).toBeTruthy();
    await act(async () => {
      unknown.resolve({ ok: true, data: { items: [item(3, 'KD-C', 'unknown', 'No answer.')], total: 1 } });
      await unknown.promise;
    });
    const rows = within(await within(detail).findByRole('table', { name: 'Job results' })).getAllByRole('row');
    expect(rows.slice(1).map((r) => r.textContent)).toEqual(['KD-CUnknown: sent, no answer came backNo answer.']);
  });

  it("reads a running job's results again as it runs", async () => {
    fake.impl['jobs.list'] = () =>
      listed([summary({ state: 'running', finishedAt: null, total: 2, counts: { pending: 0, sent: 2, done: 0, failed: 0, unknown: 0 } })]);
    let answered = false;
    fake.impl['jobs.items'] = () =>
      Promise.resolve({ ok: true, data: { items: [item(1, 'KD-A', answered ? 'done' : 'sent'), item(2, 'KD-B', 'sent')], total: 2 } });
    const user = userEvent.setup();
    render(<Jobs />);
    await user.click(await screen.findByRole('button', { name: /^Extend by 1 day/ }));
    const results = await screen.findByRole('table', { name: 'Job results' });
    expect(within(results).getAllByRole('row')[1]?.textContent).toBe('KD-ASent, awaiting an answer—');
    answered = true;
    await waitFor(() => {
      expect(within(results).getAllByRole('row')[1]?.textContent).toBe('KD-AExtended—');
    });
  });

  it('removes a stopped job after a yes that says what goes', async () => {
    // Main's list as main keeps it: a job removed is not listed again.
    let jobs = [
      summary({
        id: GENERATE,
        action: 'generate',
        days: null,
        note: 'spring',
        state: 'cancelled',
        total: 300_000,
        counts: { pending: 100_000, sent: 0, done: 200_000, failed: 0, unknown: 0 },
      }),
      summary({}),
    ];
    fake.impl['jobs.list'] = () => listed(jobs);
    fake.impl['jobs.items'] = () =>
      Promise.resolve({
        ok: true,
        data: { items: [{ seq: 1, target: 'batch 1', size: 100_000, state: 'done', code: null, message: null }], total: 3 },
      });
    fake.impl['jobs.forget'] = (input) => {
      jobs = jobs.filter((j) => j.id !== (input as { jobId: string }).jobId);
      return Promise.resolve({ ok: true, data: null });
    };
    fake.impl['jobs.export'] = () => Promise.resolve({ ok: true, data: { path: null } });
    const user = userEvent.setup();
    render(<Jobs />);
    await user.click(await screen.findByRole('button', { name: /^Generate \(“spring”\)/ }));
    const detail = screen.getByRole('region', { name: 'Generate (“spring”)' });
    await user.click(within(detail).getByRole('button', { name: 'Export the 200,000 keys JSON' }));
    expect(fake.calls.filter((c) => c.name === 'jobs.export').map((c) => c.input)).toEqual([
      { jobId: GENERATE, format: 'json', what: 'keys' },
    ]);
    await user.click(within(detail).getByRole('button', { name: 'Remove from the list…' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove this job from the list?' });
    expect(dialog.textContent).toContain('The 200,000 keys it made stay in All keys (search them by note)');
    expect(dialog.textContent).toContain('The 100,000 not sent can no longer be resumed.');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(fake.calls.filter((c) => c.name === 'jobs.forget').map((c) => c.input)).toEqual([{ jobId: GENERATE }]);
    await waitFor(() => {
      expect(rowTexts().map((r) => r[0])).toEqual(['Extend by 1 day5 keys']);
    });
    expect(screen.queryByRole('region', { name: 'Generate (“spring”)' })).toBeNull();
  });

  it('keeps a job listed when main refuses to remove it', async () => {
    fake.impl['jobs.list'] = () => listed([summary({})]);
    fake.impl['jobs.items'] = () => Promise.resolve({ ok: true, data: { items: [], total: 0 } });
    fake.impl['jobs.forget'] = () =>
      Promise.resolve({
        ok: false,
        code: 'CONFLICT',
        message: 'That job is still running: cancel it and wait for it to end, then remove it.',
      });
    const user = userEvent.setup();
    render(<Jobs />);
    await user.click(await screen.findByRole('button', { name: /^Extend by 1 day/ }));
    await user.click(screen.getByRole('button', { name: 'Remove from the list…' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Remove this job from the list?' })).getByRole('button', { name: 'Remove' }),
    );
    await waitFor(() => {
      expect(useKeydesk.getState().toasts.at(-1)).toMatchObject({
        kind: 'error',
        text: 'Remove a job from the list: That job is still running: cancel it and wait for it to end, then remove it.',
      });
    });
    expect(rowTexts()).toHaveLength(1);
    expect(screen.getByRole('region', { name: 'Extend by 1 day' })).toBeTruthy();
  });
});
