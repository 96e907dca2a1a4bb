// The Jobs view never says what is not true, in the states a person meets after the first load: a job main is
// getting ready to resume and its Cancel there, a Resume refused because main already runs it,
// a job Keydesk stopped under (its end not seen), Esc on an opened job, "Show 20 older" and the older-jobs count
// after a removal, and a list answer older than a progress event.
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { OperationResult } from '../../src/shared/contract.ts';
import type { JobSummary } from '../../src/shared/domain.ts';
import { emit, fake, installBridge, readySession } from '../support/fake-bridge.ts';
import { deferred, jobRowTexts as rowTexts, jobSummaries, jobsTable as table, listed } from '../support/fake-jobs.ts';

installBridge();
const { useKeydesk } = await import('../../src/renderer/src/store/index.ts');
const { Jobs } = await import('../../src/renderer/src/views/Jobs/Jobs.tsx');
const { Toasts } = await import('../../src/renderer/src/components/Toasts.tsx');
const { GenerateForm } = await import('../../src/renderer/src/views/Keys/GenerateForm.tsx');
const { fmt } = await import('../../src/renderer/src/lib/format.ts');
const initial = useKeydesk.getState();

const GENERATE = '22222222-2222-4222-8222-222222222222';
const summary = jobSummaries({
  id: GENERATE,
  profileId: 'sandbox',
  action: 'generate',
  days: null,
  note: 'spring',
  state: 'cancelled',
  reason: null,
  createdAt: '2026-01-02T09:00:00.000Z',
  finishedAt: '2026-01-02T09:05:00.000Z',
  total: 300_000,
  counts: { pending: 100_000, sent: 0, done: 200_000, failed: 0, unknown: 0 },
  ratePerSecond: null,
  etaSeconds: null,
  concurrency: 0,
  ceiling: 1,
  pausedUntil: null,
});
/** The same job as main describes it while it gets ready to resume it (waiting for the ledger). */
const starting = (over: Partial<JobSummary> = {}): JobSummary =>
  summary({ state: 'running', finishedAt: null, startingSince: new Date(Date.now() - 12_000).toISOString(), ...over });
const uuid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
/** A finished delete job, the i-th newest. */
const old = (i: number): JobSummary =>
  summary({
    id: uuid(i),
    action: 'delete',
    note: null,
    state: 'finished',
    total: 1,
    counts: { pending: 0, sent: 0, done: 1, failed: 0, unknown: 0 },
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, 100 - i)).toISOString(),
  });

beforeEach(() => {
  vi.useRealTimers();
  readySession(useKeydesk, initial);
  fake.impl['jobs.items'] = () => Promise.resolve({ ok: true, data: { items: [], total: 0 } });
});

describe('Jobs: a job main is getting ready to resume', () => {
  it('lists a resuming job as Starting, with Cancel and no Resume', async () => {
    // The clock stands still (timers stay real), so "12 s so far" holds however slowly the test runs.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-02T10:00:00.000Z'));
    fake.impl['jobs.list'] = () => listed([starting()]);
    const user = userEvent.setup();
    render(<Jobs />);
    await screen.findByRole('table', { name: 'Jobs' });
    expect(rowTexts()[0]?.slice(0, 2)).toEqual(['Generate (“spring”)300,000 keys', 'Starting']);
    expect(rowTexts()[0]?.[2]).toMatch(/not ended yet$/);
    await user.click(screen.getByRole('button', { name: /^Generate \(“spring”\)/ }));
    const detail = screen.getByRole('region', { name: 'Generate (“spring”)' });
    expect(within(detail).getAllByRole('status')[0]?.textContent).toMatch(
      /^Generate, starting: Keydesk first finishes recording keys already made \(up to about a minute after hundreds of thousands of keys\); nothing new has been sent yet\. Before: 200,000 of 300,000 done\. 12 s so far\.$/,
    );
    expect(within(detail).queryByRole('button', { name: /^Resume/ })).toBeNull();
    // Main ends a job it is getting ready to run on Cancel, sending nothing (jobs-history.test.ts).
    expect(within(detail).getByRole('button', { name: 'Cancel' })).toBeTruthy();
    expect(within(detail).queryByRole('button', { name: 'Remove from the list…' })).toBeNull();
    // Once main runs it, the row and the line say so.
    act(() => {
      emit('jobs.progress', summary({ state: 'running', finishedAt: null }));
    });
    expect(rowTexts()[0]?.[1]).toBe('Running');
    expect(within(detail).getByRole('button', { name: 'Cancel' })).toBeTruthy();
  });

  it('cancels a starting job, then offers its unsent items to resume', async () => {
    // Main's list as it stands: starting, then cancelling once asked to cancel (its end is being written).
    let now = starting();
    fake.impl['jobs.list'] = () => listed([now]);
    fake.impl['jobs.cancel'] = () => {
      now = summary({ state: 'cancelled', finishedAt: null });
      return Promise.resolve({ ok: true, data: now });
    };
    const user = userEvent.setup();
    render(<Jobs />);
    await user.click(await screen.findByRole('button', { name: /^Generate \(“spring”\)/ }));
    const detail = screen.getByRole('region', { name: 'Generate (“spring”)' });
    await user.click(within(detail).getByRole('button', { name: 'Cancel' }));
    expect(fake.calls.filter((c) => c.name === 'jobs.cancel').map((c) => c.input)).toEqual([{ jobId: GENERATE }]);
    await waitFor(() => {
      expect(rowTexts()[0]?.[1]).toBe('Cancelling');
    });
    expect(within(detail).queryByRole('button', { name: 'Cancel' })).toBeNull();
    // Main's event once the end is written: cancelled, the items as they stood.
    act(() => {
      emit('jobs.progress', summary({ state: 'cancelled', finishedAt: '2026-01-02T10:00:05.000Z' }));
    });
    expect(rowTexts()[0]?.[1]).toBe('Cancelled');
    expect(within(detail).getAllByRole('status')[0]?.textContent).toBe('Generate, cancelled: 200,000 of 300,000 done, 100,000 not sent.');
    expect(within(detail).getByRole('button', { name: 'Resume generating 100,000 keys' })).toBeTruthy();
  });
});

describe('Jobs: a job Keydesk stopped under (a crash, a kill)', () => {
  // No one saw these end: main gives the last moment each was known at work (endUnseen), never an end time.
  const unseen = (id: string, end: NonNullable<JobSummary['endUnseen']>, over: Partial<JobSummary> = {}): JobSummary =>
    summary({
      id,
      action: 'delete',
      note: null,
      state: 'interrupted',
      reason: 'Keydesk stopped while this job ran.',
      total: 10,
      counts: { pending: 6, sent: 0, done: 3, failed: 0, unknown: 1 },
      finishedAt: end.lastAnswerAt ?? end.runStartedAt ?? '2026-01-02T09:00:00.000Z',
      endUnseen: end,
      ...over,
    });
  const ANSWERED = '2026-01-02T09:04:00.000Z';
  const RESUMED = '2026-01-03T11:30:00.000Z';

  it('says when its last answer was recorded, never that it ended', async () => {
    fake.impl['jobs.list'] = () =>
      listed([
        // As main gives them (test/main/jobs-crash.test.ts): a first run began at the job's creation, and is no resume.
        unseen(
          uuid(1),
          { lastAnswerAt: ANSWERED, runStartedAt: '2026-01-02T09:00:04.000Z', resumed: false },
          { createdAt: '2026-01-02T09:00:04.000Z' },
        ),
        unseen(
          uuid(2),
          { lastAnswerAt: null, runStartedAt: '2026-01-02T09:00:03.000Z', resumed: false },
          { createdAt: '2026-01-02T09:00:03.000Z' },
        ),
        unseen(uuid(3), { lastAnswerAt: null, runStartedAt: RESUMED, resumed: true }, { createdAt: '2026-01-02T09:00:02.000Z' }),
        unseen(uuid(4), { lastAnswerAt: null, runStartedAt: null, resumed: false }, { createdAt: '2026-01-02T09:00:01.000Z' }),
        // A job whose end this Keydesk saw still says when it ended.
        summary({
          id: uuid(5),
          action: 'delete',
          note: null,
          state: 'interrupted',
          createdAt: '2026-01-02T09:00:00.000Z',
          finishedAt: '2026-01-02T09:30:00.000Z',
        }),
      ]);
    const user = userEvent.setup();
    render(<Jobs />);
    await screen.findByRole('table', { name: 'Jobs' });
    const when = rowTexts().map((r) => r[2]);
    expect(when).toEqual([
      `${fmt.dateTime('2026-01-02T09:00:04.000Z')}stopped — last answer recorded ${fmt.time(ANSWERED)}`,
      `${fmt.dateTime('2026-01-02T09:00:03.000Z')}stopped — no answer recorded after it started`,
      // Resumed on another day: the date too.
      `${fmt.dateTime('2026-01-02T09:00:02.000Z')}stopped — no answer recorded after its resume ${fmt.dateTime(RESUMED)}`,
      `${fmt.dateTime('2026-01-02T09:00:01.000Z')}stopped — when is not known`,
      `${fmt.dateTime('2026-01-02T09:00:00.000Z')}ended ${fmt.time('2026-01-02T09:30:00.000Z')}`,
    ]);
    // The moment shown is the one main recorded, exact in the markup.
    expect(within(table()).getAllByRole('row')[1]?.querySelectorAll('time')[1]?.getAttribute('datetime')).toBe(ANSWERED);

    // Opened, the same in a sentence: it stopped some time after that moment, not at it.
    await user.click(screen.getAllByRole('button', { name: /^Delete, started/ })[0] as HTMLElement);
    const detail = screen.getByRole('region', { name: 'Delete' });
    const started = within(detail).getByText(/^Started /);
    expect(started.textContent).toBe(
      `Started ${fmt.dateTime('2026-01-02T09:00:04.000Z')}; Keydesk stopped while it ran, some time after its last answer was recorded (${fmt.dateTime(ANSWERED)}). 10 keys.`,
    );
    expect(started.textContent).not.toContain('ended');
    await user.click(within(detail).getByRole('button', { name: 'Close' }));
    await user.click(screen.getAllByRole('button', { name: /^Delete, started/ })[1] as HTMLElement);
    expect(within(screen.getByRole('region', { name: 'Delete' })).getByText(/^Started /).textContent).toBe(
      `Started ${fmt.dateTime('2026-01-02T09:00:03.000Z')}; Keydesk stopped while it ran, some time after it started: no answer was recorded. 10 keys.`,
    );
  });

  it('shows a job main already runs as running when Resume is refused', async () => {
    // Main as it is after another window's Resume (or this one's, before a reload): getting the job ready.
    let resumed = false;
    fake.impl['jobs.list'] = () => listed([resumed ? starting() : summary({})]);
    fake.impl['jobs.resume'] = () => {
      resumed = true;
      return Promise.resolve({ ok: false, code: 'CONFLICT', message: 'That job is already running.' });
    };
    fake.impl['jobs.get'] = () => Promise.resolve({ ok: true, data: starting() });
    const user = userEvent.setup();
    render(
      <>
        <Jobs />
        <Toasts />
      </>,
    );
    await user.click(await screen.findByRole('button', { name: /^Generate \(“spring”\)/ }));
    const detail = screen.getByRole('region', { name: 'Generate (“spring”)' });
    await user.click(within(detail).getByRole('button', { name: 'Resume generating 100,000 keys' }));
    const errors = screen.getByRole('alert', { name: 'Errors' });
    await waitFor(() => {
      expect(errors.textContent).toContain('That job is already running.');
    });
    // The screen agrees with the toast: the job is not shown cancelled with Resume offered.
    await waitFor(() => {
      expect(rowTexts()[0]?.[1]).toBe('Starting');
    });
    expect(within(detail).queryByRole('button', { name: /^Resume/ })).toBeNull();
    act(() => {
      emit('jobs.progress', summary({ state: 'finished', counts: { pending: 0, sent: 0, done: 300_000, failed: 0, unknown: 0 } }));
    });
    expect(rowTexts()[0]?.[1]).toBe('Finished');
    expect(errors.textContent).not.toContain('That job is already running.');
  });
});

describe("Jobs: a running generate job's detail", () => {
  it('says its rate and time left, and offers Cancel', async () => {
    const running = {
      state: 'running' as const,
      finishedAt: null,
      counts: { pending: 90_000, sent: 10_000, done: 200_000, failed: 0, unknown: 0 },
    };
    fake.impl['jobs.list'] = () => listed([summary({ ...running, ratePerSecond: 760, etaSeconds: 132 })]);
    const user = userEvent.setup();
    render(<Jobs />);
    await user.click(await screen.findByRole('button', { name: /^Generate \(“spring”\)/ }));
    const detail = screen.getByRole('region', { name: 'Generate (“spring”)' });
    const line = () => within(detail).getAllByRole('status')[0]?.textContent;
    expect(line()).toBe('Generate, running: 200,000 of 300,000 done, 760 keys/s, about 2 min left.');
    expect(within(detail).getByRole('button', { name: 'Cancel' })).toBeTruthy();
  });
});

describe('Keys: a generate job being resumed', () => {
  it('shows it starting after a reload, as main lists it', async () => {
    fake.impl['jobs.list'] = () => listed([starting()]);
    render(<GenerateForm />);
    const panel = await screen.findByRole('group', { name: 'Generate job' });
    await waitFor(() => {
      expect(within(panel).getByRole('status').textContent).toMatch(
        /^Generate, starting: Keydesk first finishes recording keys already made .*; nothing new has been sent yet\. Before: 200,000 of 300,000 done\. \d+ s so far\.$/,
      );
    });
    expect(within(panel).queryByRole('button', { name: /^Resume/ })).toBeNull();
    expect(within(panel).getByRole('button', { name: 'Cancel' })).toBeTruthy();
  });

  it('says it is resuming, and for how long, until main answers', async () => {
    // The clock moves only when the test moves it (timers stay real), so the time so far is known whatever the load.
    vi.useFakeTimers({ toFake: ['Date'] });
    const clicked = Date.parse('2026-01-02T10:00:00.000Z');
    vi.setSystemTime(clicked);
    fake.impl['jobs.list'] = () => listed([summary({})]);
    const answer = deferred<OperationResult<'jobs.resume'>>();
    fake.impl['jobs.resume'] = () => answer.promise;
    const user = userEvent.setup();
    render(<GenerateForm />);
    await user.click(await screen.findByRole('button', { name: 'Resume (100,000 keys not requested)' }));
    const line = () => within(screen.getByRole('group', { name: 'Generate job' })).getByRole('status').textContent;
    expect(line()).toMatch(
      /^Generate: resuming the job… Keydesk first finishes recording keys already made \(up to about a minute after hundreds of thousands of keys\); nothing new has been sent yet\. 0 s so far\.$/,
    );
    expect(line()).not.toContain('a few seconds');
    // The time so far moves on while main has not answered: the line's next tick reads the moved clock.
    vi.setSystemTime(clicked + 7_000);
    await waitFor(
      () => {
        expect(line()).toMatch(/ 7 s so far\.$/);
      },
      { timeout: 30_000 },
    );
    await act(async () => {
      answer.resolve({ ok: true, data: summary({ state: 'running', finishedAt: null }) });
      await answer.promise;
    });
    await waitFor(() => {
      expect(line()).toBe('Generate, running: 200,000 of 300,000 done.');
    });
  });
});

describe('Jobs: keyboard', () => {
  it('closes an opened job on Esc, focusing its name in the list', async () => {
    fake.impl['jobs.list'] = () => listed([summary({})]);
    const user = userEvent.setup();
    render(<Jobs />);
    const name = await screen.findByRole('button', { name: /^Generate \(“spring”\)/ });
    await user.click(name);
    const detail = screen.getByRole('region', { name: 'Generate (“spring”)' });
    expect(document.activeElement).toBe(within(detail).getByRole('heading', { name: 'Generate (“spring”)' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('region', { name: 'Generate (“spring”)' })).toBeNull();
    await waitFor(() => {
      expect(document.activeElement).toBe(screen.getByRole('button', { name: /^Generate \(“spring”\)/ }));
    });
    expect(screen.getByRole('button', { name: /^Generate \(“spring”\)/ }).getAttribute('aria-expanded')).toBe('false');
  });

  it('leaves the job open when Esc closes a confirmation over it', async () => {
    fake.impl['jobs.list'] = () => listed([summary({})]);
    const user = userEvent.setup();
    render(<Jobs />);
    await user.click(await screen.findByRole('button', { name: /^Generate \(“spring”\)/ }));
    await user.click(screen.getByRole('button', { name: 'Remove from the list…' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove this job from the list?' });
    await user.type(within(dialog).getByRole('button', { name: 'Cancel' }), '{Escape}', { skipClick: true });
    expect(screen.getByRole('region', { name: 'Generate (“spring”)' })).toBeTruthy();
  });
});

describe('Jobs: older jobs', () => {
  it('Show 20 older asks main for 20 more than listed', async () => {
    // 20 newest and 3 older interrupted ones listed; 22 left out. recent + 20 would add 17: main says 43 adds 20.
    const first = [
      ...Array.from({ length: 20 }, (_, i) => old(i)),
      ...[20, 21, 22].map((i) => ({ ...old(i), state: 'interrupted' as const })),
    ];
    const second = [...first, ...Array.from({ length: 20 }, (_, i) => old(23 + i))];
    fake.impl['jobs.list'] = (input) =>
      (input as { recent?: number } | undefined)?.recent === 43
        ? listed(second, { unlisted: 2, next: 45 })
        : listed(first, { unlisted: 22, next: 43 });
    const user = userEvent.setup();
    render(<Jobs />);
    expect(await screen.findByText('22 older jobs are not shown.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Show 20 older' }));
    await screen.findByText('2 older jobs are not shown.');
    expect(rowTexts()).toHaveLength(43);
    expect(fake.calls.filter((c) => c.name === 'jobs.list').map((c) => c.input)).toEqual([undefined, { recent: 43 }]);
    expect(screen.getByRole('button', { name: 'Show 2 older' })).toBeTruthy();
  });

  it("offers no Show older at main's limit, and says why", async () => {
    // Main's answer at recent = JOBS_LIST_MAX: older jobs are left out and no longer list can be asked for (no next).
    fake.impl['jobs.list'] = () =>
      listed(
        Array.from({ length: 20 }, (_, i) => old(i)),
        { unlisted: 22 },
      );
    render(<Jobs />);
    expect(
      await screen.findByText(
        /^22 older jobs are not shown\. Keydesk lists at most 1,000 jobs besides the running and interrupted ones: remove older ones you no longer need to bring these in\.$/,
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Show \d+ older$/ })).toBeNull();
  });

  it('lists the next older job in place of a removed one', async () => {
    // Main's list as main keeps it: the 20 newest of 23, and the rest once one is removed.
    let jobs = Array.from({ length: 23 }, (_, i) => old(i));
    fake.impl['jobs.list'] = () => {
      const shown = jobs.slice(0, 20);
      return listed(shown, jobs.length > 20 ? { unlisted: jobs.length - 20, next: jobs.length } : {});
    };
    fake.impl['jobs.forget'] = (input) => {
      jobs = jobs.filter((j) => j.id !== (input as { jobId: string }).jobId);
      return Promise.resolve({ ok: true, data: null });
    };
    const user = userEvent.setup();
    render(<Jobs />);
    expect(await screen.findByText('3 older jobs are not shown.')).toBeTruthy();
    const first = within(table()).getAllByRole('button')[0];
    if (!first) throw new Error('no job listed');
    await user.click(first);
    await user.click(screen.getByRole('button', { name: 'Remove from the list…' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Remove this job from the list?' })).getByRole('button', { name: 'Remove' }),
    );
    expect(await screen.findByText('2 older jobs are not shown.')).toBeTruthy();
    expect(rowTexts()).toHaveLength(20);
  });
});

describe('Jobs: answers and events in either order', () => {
  it('keeps a newer progress event over an older list answer', async () => {
    fake.impl['jobs.list'] = () => listed([summary({ state: 'running', finishedAt: null })]);
    fake.impl['jobs.cancel'] = () =>
      Promise.resolve({
        ok: true,
        data: summary({
          state: 'cancelled',
          finishedAt: null,
          counts: { pending: 100_000, sent: 100_000, done: 100_000, failed: 0, unknown: 0 },
        }),
      });
    const user = userEvent.setup();
    render(<Jobs />);
    await user.click(await screen.findByRole('button', { name: /^Generate \(“spring”\)/ }));
    // The refresh after Cancel: main made this answer before the job's last event, and it arrives after it.
    const late = deferred<OperationResult<'jobs.list'>>();
    const stale = summary({
      state: 'cancelled',
      finishedAt: null,
      counts: { pending: 100_000, sent: 100_000, done: 100_000, failed: 0, unknown: 0 },
    });
    fake.impl['jobs.list'] = () => late.promise;
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    act(() => {
      emit('jobs.progress', summary({}));
    });
    expect(rowTexts()[0]?.[1]).toBe('Cancelled');
    await act(async () => {
      late.resolve({ ok: true, data: { jobs: [stale], elsewhere: [] } });
      await late.promise;
    });
    expect(rowTexts()[0]?.[1]).toBe('Cancelled');
    expect(rowTexts()[0]?.[3]).toBe('200,000');
  });

  it('keeps a job started after the list answer was made', async () => {
    const late = deferred<OperationResult<'jobs.list'>>();
    fake.impl['jobs.list'] = () => listed([old(1)]);
    render(<Jobs />);
    await screen.findByRole('table', { name: 'Jobs' });
    fake.impl['jobs.list'] = () => late.promise;
    void useKeydesk.getState().loadJobList();
    const made = old(1);
    act(() => {
      emit('jobs.progress', summary({ state: 'running', finishedAt: null, createdAt: '2026-02-01T00:00:00.000Z' }));
    });
    await act(async () => {
      late.resolve({ ok: true, data: { jobs: [made], elsewhere: [] } });
      await late.promise;
    });
    expect(rowTexts().map((r) => r[1])).toEqual(['Running', 'Finished']);
  });
});

describe('Toasts: an interrupted job that a Resume then finished', () => {
  it("drops the interrupted run's error once the same job finishes", async () => {
    const EXTEND = '33333333-3333-4333-8333-333333333333';
    const extend = (over: Partial<JobSummary>) =>
      summary({
        id: EXTEND,
        action: 'extend',
        days: 5,
        note: null,
        total: 100,
        counts: { pending: 100, sent: 0, done: 0, failed: 0, unknown: 0 },
        ...over,
      });
    const other = summary({
      id: uuid(7),
      action: 'delete',
      note: null,
      state: 'interrupted',
      total: 3,
      counts: { pending: 3, sent: 0, done: 0, failed: 0, unknown: 0 },
    });
    fake.impl['jobs.list'] = () => listed([extend({ state: 'running', finishedAt: null })]);
    render(
      <>
        <Jobs />
        <Toasts />
      </>,
    );
    await screen.findByRole('table', { name: 'Jobs' });
    const errors = screen.getByRole('alert', { name: 'Errors' });
    const interrupted = 'Extend by 5 days: 0 of 100 done, 100 not sent (interrupted).';
    act(() => {
      emit('jobs.progress', extend({ state: 'interrupted' }));
    });
    await waitFor(() => {
      expect(errors.textContent).toContain(interrupted);
    });
    act(() => {
      emit('jobs.progress', other);
      emit(
        'jobs.progress',
        extend({ state: 'running', finishedAt: null, counts: { pending: 40, sent: 0, done: 60, failed: 0, unknown: 0 } }),
      );
    });
    // Resumed, running again: the interrupted run's words stay until the job ends again.
    expect(errors.textContent).toContain(interrupted);
    act(() => {
      emit('jobs.progress', extend({ state: 'finished', counts: { pending: 0, sent: 0, done: 100, failed: 0, unknown: 0 } }));
    });
    await waitFor(() => {
      expect(screen.getByRole('status', { name: 'Notifications' }).textContent).toContain('Extend by 5 days: 100 of 100 done.');
    });
    expect(errors.textContent).not.toContain(interrupted);
    expect(errors.textContent).toContain('Delete: 0 of 3 done, 3 not sent (interrupted).');
    // A repeated end of the job (an answer and an event racing) does not take its own words away.
    act(() => {
      emit('jobs.progress', extend({ state: 'finished', counts: { pending: 0, sent: 0, done: 100, failed: 0, unknown: 0 } }));
    });
    expect(screen.getByRole('status', { name: 'Notifications' }).textContent).toContain('Extend by 5 days: 100 of 100 done.');
  });
});
