// What the component tests of a large generate and of All keys' bulk jobs share: one job as main describes it
// (a generate of 100,001 keys, noted "spring", running), ledger rows noted the same, and each test's start.
import { vi } from 'vitest';
import type { LedgerRow } from '../../src/shared/domain.ts';
import { fake, ledgerRow, readyStore } from './fake-bridge.ts';
import { jobSummaries, listed } from './fake-jobs.ts';

export const JOB = '6f1d2c3b-4a59-4e68-9b7a-8c9d0e1f2a3b';
/** The job's summaries, each newer than the one before; every field can be changed, the id and action too. */
export const summary = jobSummaries({
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

export const row = (value: string): LedgerRow => ledgerRow(value, { note: 'spring' });

/** Each test's start: real timers, a store ready on the sandbox profile, and main listing no job. */
export function readyWithNoJobs(): void {
  vi.useRealTimers();
  readyStore();
  fake.impl['jobs.list'] = () => listed([]);
}
