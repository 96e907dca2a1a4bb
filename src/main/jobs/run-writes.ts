// What a run writes through the writer thread: claims, answers in groups, and its end. A write refused stops the
// run; its items stay sent, so they read unknown.
import { unexpectedFailure } from '../failures.ts';
import type { JobItemState } from '../../shared/domain.ts';
import type { SettleBatch } from '../store/local-db.ts';
import type { Engine } from './engine.ts';
import type { ClaimedItem, JobRunEnd } from './job-writes.ts';
import { halt, putBack, signal, stopped, takeAnswers, type Run } from './run.ts';
import { removeSendLogs } from './send-log.ts';

/**
 * Answers are written in groups, at most this long after the first arrived or at once when this many wait: small, as
 * a claim waits for the group before it. Only answers wait: an item is committed sent before its request goes out.
 */
export const WRITE_ANSWERS_EVERY_MS = 10;
const WRITE_ANSWERS_AT = 32;

/** Marks up to `max` more items sent, committed before they go out. */
export async function claim(e: Engine, run: Run, max: number): Promise<ClaimedItem[]> {
  if (max <= 0) return [];
  const claimed = await e.writes.claim(run.job.id, max, run.retryUnknown);
  if (claimed.length < max) run.claims.exhausted = true;
  if (stopped(run)) {
    // Cancelled (or quitting) while the claim was being written: claimed, never sent, so back as they were.
    for (const item of claimed) putBack(run, item, false);
    writeAnswers(e, run);
    return [];
  }
  return claimed;
}

/** Whether the answers waiting are to be written now. Real time, not the job's clock: a write is not a pause. */
export function answersDue(run: Run): boolean {
  const waiting = run.answers.next.items.length;
  return waiting > 0 && (waiting >= WRITE_ANSWERS_AT || performance.now() - run.answers.since >= WRITE_ANSWERS_EVERY_MS);
}

/** Writes what has settled since the last write, through the job writer (in order, after the writes before it). */
export function writeAnswers(e: Engine, run: Run): void {
  const batch = takeAnswers(run);
  if (batch !== null) track(run, settle(e, run, batch));
}

/** Writes the answers waiting, then waits until every group asked for is written (or refused). */
export async function answersWritten(e: Engine, run: Run): Promise<void> {
  writeAnswers(e, run);
  while (run.answers.writing.size > 0) {
    await Promise.all(run.answers.writing);
    writeAnswers(e, run);
  }
}

function track(run: Run, write: Promise<void>): void {
  const written: Promise<void> = write.finally(() => run.answers.writing.delete(written));
  run.answers.writing.add(written);
}

/** One group of answers into the file: refused, the job stops (its items stay sent, so the end makes them unknown). */
async function settle(e: Engine, run: Run, batch: SettleBatch): Promise<void> {
  run.answers.inWrite.add(batch);
  try {
    await e.writes.settle(batch);
  } catch (error) {
    // Quitting: the quit's last statement, or else the next start, marks what is left.
    if (e.closed) return;
    halt(run, { state: 'interrupted', reason: unexpectedFailure("recording this job's answers", error).message });
    signal(run);
  } finally {
    run.answers.inWrite.delete(batch);
  }
}

/** Records a run's end through the writer; false when it was refused (logged unless quitting). Never throws. */
/** Writes a run's end; resolves with the job's counts as written, or null when it was not. */
export async function writeEnd(e: Engine, end: JobRunEnd): Promise<Record<JobItemState, number> | null> {
  try {
    return await e.writes.end(end);
  } catch (error) {
    if (!e.closed) console.error("keydesk: a job's end could not be recorded:", error);
    return null;
  }
}

/** A run's end not in the file: shown ended, its items still sent as unknown; the next start interrupts the job. */
export function keepEnd(e: Engine, end: JobRunEnd, counts: Record<JobItemState, number>): void {
  e.ends.set(end.jobId, { end, counts: { ...counts, unknown: counts.unknown + counts.sent, sent: 0 } });
}

export function removeSendLog(e: Engine, jobId: string): void {
  if (e.sendLogs !== null) removeSendLogs(e.sendLogs, [jobId]);
}
