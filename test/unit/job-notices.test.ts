// Job notices as plain logic: which jobs count, the fraction on the taskbar, the error mark, and the words of a
// notification for a job that ends while the window is not focused.
import { describe, expect, it } from 'vitest';
import type { JobSummary } from '../../src/shared/domain.ts';
import { endNotice, JobNotices, progressOf, type JobNotice, type TaskbarProgress } from '../../src/main/job-notices.ts';

function job(over: Partial<JobSummary> & { id: string }): JobSummary {
  return {
    profileId: 'sandbox',
    action: 'delete',
    days: null,
    note: null,
    state: 'running',
    reason: null,
    createdAt: '2026-11-29T19:00:00.000Z',
    finishedAt: null,
    total: 100,
    counts: { pending: 100, sent: 0, done: 0, failed: 0, unknown: 0 },
    ratePerSecond: null,
    etaSeconds: null,
    concurrency: 1,
    ceiling: 64,
    pausedUntil: null,
    version: 1,
    ...over,
  };
}
const counts = (done: number, failed = 0, unknown = 0, pending = 0) => ({ pending, sent: 0, done, failed, unknown });
const ended = (j: JobSummary, over: Partial<JobSummary> = {}): JobSummary => ({
  ...j,
  state: 'finished',
  finishedAt: '2026-11-29T19:05:00.000Z',
  ...over,
});

function tracker(focused = false) {
  const notices: JobNotice[] = [];
  const bars: TaskbarProgress[] = [];
  const sink = {
    focused: () => sink.isFocused,
    isFocused: focused,
    notify: (n: JobNotice) => void notices.push(n),
    progress: (p: TaskbarProgress) => void bars.push(p),
  };
  const jobs = new JobNotices(sink, (id) => (id === 'sandbox' ? 'Local sandbox' : null));
  return { jobs, notices, bars, sink };
}

describe('taskbar progress', () => {
  it('is keys answered over all running jobs', () => {
    const a = job({ id: 'a', total: 100, counts: counts(30, 5, 5, 60) });
    const b = job({ id: 'b', total: 300, counts: counts(60, 0, 0, 240) });
    expect(progressOf([a, b], false)).toEqual({ mode: 'normal', fraction: 0.25 });
  });

  it('is cleared with nothing running, and marked while a failure is unseen', () => {
    expect(progressOf([], false)).toEqual({ mode: 'none', fraction: 0 });
    expect(progressOf([], true)).toEqual({ mode: 'error', fraction: 1 });
    expect(progressOf([job({ id: 'a', total: 10, counts: counts(5, 0, 0, 5) })], true)).toEqual({ mode: 'error', fraction: 0.5 });
  });
});

describe('the words of a job that ended', () => {
  it('say what finished, how far, and where', () => {
    const j = ended(job({ id: 'a', action: 'extend', days: 7, total: 1000, counts: counts(1000) }));
    expect(endNotice(j, 'Local sandbox')).toEqual({
      jobId: 'a',
      title: 'Extend by 7 days finished',
      body: '1,000 of 1,000 done on Local sandbox. Click to open it in Jobs.',
    });
  });

  it('count the failed and the unknown', () => {
    const j = ended(job({ id: 'a', total: 10, counts: counts(7, 2, 1) }));
    expect(endNotice(j, null)).toMatchObject({
      title: 'Delete ended with problems',
      body: '7 of 10 done, 2 failed, 1 with no known outcome. Click to open it in Jobs.',
    });
  });

  it('give the reason a job stopped by itself', () => {
    const j = ended(job({ id: 'a', action: 'resetHwid', counts: counts(40, 0, 0, 60) }), {
      state: 'interrupted',
      reason: 'The service stopped answering.',
    });
    expect(endNotice(j, 'Acme')).toMatchObject({
      title: 'Reset HWID stopped',
      body: '40 of 100 done on Acme. The service stopped answering. Click to open it in Jobs.',
    });
  });
});

describe('following the jobs', () => {
  it('notifies when a running job ends while the window is not focused', () => {
    const { jobs, notices, bars } = tracker(false);
    const a = job({ id: 'a', counts: counts(50, 0, 0, 50) });
    jobs.heard(a);
    jobs.heard(ended(a, { counts: counts(100) }));
    expect(notices.map((n) => n.title)).toEqual(['Delete finished']);
    expect(bars).toEqual([
      { mode: 'normal', fraction: 0.5 },
      { mode: 'none', fraction: 0 },
    ]);
  });

  it('stays quiet while focused, and about jobs never seen running', () => {
    const { jobs, notices, sink } = tracker(true);
    const a = job({ id: 'a' });
    jobs.heard(a);
    jobs.heard(ended(a));
    sink.isFocused = false;
    jobs.heard(ended(job({ id: 'old' })));
    expect(notices).toEqual([]);
  });

  it('marks the bar after a failure until the window is focused', () => {
    const { jobs, bars } = tracker(false);
    const a = job({ id: 'a' });
    const b = job({ id: 'b', counts: counts(50, 0, 0, 50) });
    jobs.heard(a);
    jobs.heard(b);
    jobs.heard(ended(a, { counts: counts(90, 10) }));
    expect(bars.at(-1)).toEqual({ mode: 'error', fraction: 0.5 });
    jobs.heard(ended(b, { counts: counts(100) }));
    expect(bars.at(-1)).toEqual({ mode: 'error', fraction: 1 });
    jobs.focused();
    expect(bars.at(-1)).toEqual({ mode: 'none', fraction: 0 });
  });

  it('does not mark a job the user cancelled with nothing failed', () => {
    const { jobs, bars, notices } = tracker(false);
    const a = job({ id: 'a' });
    jobs.heard(a);
    jobs.heard(ended(a, { state: 'cancelled', counts: counts(20, 0, 0, 80) }));
    expect(bars.at(-1)).toEqual({ mode: 'none', fraction: 0 });
    expect(notices[0]?.title).toBe('Delete cancelled');
  });
});
