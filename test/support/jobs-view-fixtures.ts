// The jobs the Jobs view's tests show: a finished extend of 5 keys as main describes it (each summary newer than
// the one before), ids for two more jobs, a job item, and each test's start.
import { vi } from 'vitest';
import type { JobItem } from '../../src/shared/domain.ts';
import { readyStore } from './fake-bridge.ts';
import { jobSummaries } from './fake-jobs.ts';

export const EXTEND = '11111111-1111-4111-8111-111111111111';
export const GENERATE = '22222222-2222-4222-8222-222222222222';
export const RESET = '33333333-3333-4333-8333-333333333333';
export const summary = jobSummaries({
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
export const item = (seq: number, target: string, state: JobItem['state'], message: string | null = null): JobItem => ({
  seq,
  target,
  size: 1,
  state,
  code: message ? 'NOT_FOUND' : null,
  message,
});

/** The extend stopped under Keydesk: 6 keys, one each done, failed and unknown, three not sent. */
export const interrupted = () =>
  summary({
    state: 'interrupted',
    days: 30,
    total: 6,
    counts: { pending: 3, sent: 0, done: 1, failed: 1, unknown: 1 },
    reason: 'Keydesk stopped while this job ran.',
  });

/** Each test's start: real timers, and a store ready on the sandbox profile. */
export function readyJobsView(): void {
  vi.useRealTimers();
  readyStore();
}
