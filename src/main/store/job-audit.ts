// A stopped job's audit entry, from its items: shared by the jobs store and a backup's restore.
import type { StatementSync } from 'node:sqlite';
import type { JobItemState, JobState } from '../../shared/domain.ts';
import { JOB_STATE_WORDS } from '../../shared/job-words.ts';

/** Keys per item state of a job, through `prepare` (a cached statement, or a plain connection's). */
export function jobItemCounts(prepare: (sql: string) => StatementSync, jobId: string): Record<JobItemState, number> {
  const counts: Record<JobItemState, number> = { pending: 0, sent: 0, done: 0, failed: 0, unknown: 0 };
  const generate = prepare("SELECT 1 FROM jobs WHERE id = ? AND action = 'generate'").get(jobId) !== undefined;
  const n = generate ? 'sum(size)' : 'count(*)';
  for (const r of prepare(`SELECT state, ${n} AS n FROM job_items WHERE job_id = ? GROUP BY state`).all(jobId) as {
    state: JobItemState | 'retry';
    n: number;
  }[]) {
    counts[r.state === 'retry' ? 'unknown' : r.state] += r.n;
  }
  return counts;
}

/** A stopped job's audit entry: its keys per outcome (a key sent and unanswered is unknown), the act's outcome, why. */
export function jobEndAudit(
  state: JobState,
  reason: string | null,
  c: Record<JobItemState, number>,
): { outcome: 'ok' | 'failed' | 'unknown'; message: string; counts: Record<JobItemState, number> } {
  const counts = { ...c, unknown: c.unknown + c.sent, sent: 0 };
  // Keys left unsent: the act did not happen in full, so it is not "ok".
  const outcome = counts.unknown > 0 ? 'unknown' : counts.failed > 0 || counts.pending > 0 ? 'failed' : 'ok';
  const message = state === 'finished' ? '' : `${JOB_STATE_WORDS[state]}${reason ? `: ${reason}` : '.'}`;
  return { outcome, message, counts };
}
