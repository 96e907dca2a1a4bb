// What a run writes through the job writer (LocalDb on its thread): claims, answers in groups, and its end. Each
// waits out another writer's hold on keydesk.db's lock, up to the job's wait, and falls back to main's connection.
import { unexpectedFailure } from '../failures.ts';
import { lockWords } from '../../shared/job-words.ts';
import type { JobItemState } from '../../shared/domain.ts';
import type { SettleBatch } from '../store/local-db.ts';
import { isCurrent, realClock, type Engine, type KeptEnd } from './engine.ts';
import { isLockWait, type ClaimedItem, type JobRunEnd } from './job-writes.ts';
import { emit, summarize } from './progress.ts';
import { halt, putBack, signal, stopped, takeAnswers, type Run } from './run.ts';
import { removeSendLogs } from './send-log.ts';

/**
 * Answers are written in groups, at most this long after the first arrived or at once when this many wait: small, as
 * a claim waits for the group before it. Only answers wait: an item is committed sent before its request goes out.
 */
export const WRITE_ANSWERS_EVERY_MS = 10;
const WRITE_ANSWERS_AT = 32;
/** A write refused for keydesk.db's lock (another writer's large job or batch: seconds) is made again after this, doubling. */
const LOCK_RETRY_MS = { first: 25, most: 1_000 } as const;
/** How long a job waits for keydesk.db's lock before it stops, interrupted (as long as the upgrade waits for it). */
export const LOCK_WAIT_MS = 60_000;

/**
 * Marks up to `max` more items sent, committed before they go out. While another writer holds the lock the claim
 * is made again, until the job is stopped or has waited its lock wait: then it stops, interrupted, saying so.
 */
export async function claim(e: Engine, run: Run, max: number): Promise<ClaimedItem[]> {
  if (max <= 0) return [];
  run.claims.claiming = true;
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        const claimed = await e.writes.claim(run.job.id, max, run.retryUnknown);
        if (claimed.length < max) run.claims.exhausted = true;
        lockLetGo(e, run);
        if (stopped(run)) {
          // Cancelled (or quitting) while the claim was being written: claimed, never sent, so back as they were.
          for (const item of claimed) putBack(run, item, false);
          writeAnswers(e, run);
          return [];
        }
        return claimed;
      } catch (error) {
        if (!isLockWait(error)) throw error;
        if (stopped(run)) return [];
        if (lockWaitOver(e, run)) {
          halt(run, { state: 'interrupted', reason: lockWords(e.lockWaitMs) });
          return [];
        }
        emit(e, run, false);
        await lockPause(attempt, run.wire.abort.signal);
        if (stopped(run)) return [];
      }
    }
  } finally {
    run.claims.claiming = false;
  }
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

/** Writes the answers waiting, then waits until every group asked for is written (or held back by the lock). */
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

/**
 * A write was refused for the lock: whether the run has waited its lock wait (real time: not a pause the job chose).
 * The first refusal is said at once, so the screen does not go on showing a rate nothing backs.
 */
function lockWaitOver(e: Engine, run: Run): boolean {
  const now = performance.now();
  if (run.lock.since === null) {
    run.lock.since = now;
    run.lock.sinceIso = new Date().toISOString();
    if (isCurrent(e, run) && !stopped(run)) emit(e, run, true);
  }
  return now - run.lock.since >= e.lockWaitMs;
}

/** A write of this run went through: the lock is let go, and the answers it held back are written now. */
function lockLetGo(e: Engine, run: Run): void {
  const waited = run.lock.since !== null;
  run.lock.since = null;
  // The screen said the job waits for the records: it hears at once that it does not any more.
  if (waited && isCurrent(e, run)) emit(e, run, true);
  for (const batch of run.answers.unwritten.splice(0)) track(run, settle(e, run, batch));
}

/**
 * One group of answers into the file: the requests were made, so it is never dropped. Past the lock wait it is kept
 * for the end; refused otherwise, the job stops (its items stay sent, so the end makes them unknown).
 */
async function settle(e: Engine, run: Run, batch: SettleBatch): Promise<void> {
  run.answers.inWrite.add(batch);
  try {
    await settleBatch(e, run, batch);
  } finally {
    run.answers.inWrite.delete(batch);
  }
}

async function settleBatch(e: Engine, run: Run, batch: SettleBatch): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await e.writes.settle(batch);
      lockLetGo(e, run);
      return;
    } catch (error) {
      if (isLockWait(error)) {
        // Stopped (a cancel, a quit): not made again, so the run ends now; kept, it is written with the end.
        if (e.closed || lockWaitOver(e, run) || stopped(run)) {
          run.answers.unwritten.push(batch);
          return;
        }
        emit(e, run, false);
        await lockPause(attempt, run.wire.abort.signal);
        continue;
      }
      // Quitting (the job writes closed at the end of the quit's budget): the next start marks what is left.
      if (e.closed) {
        run.answers.unwritten.push(batch);
        return;
      }
      halt(run, { state: 'interrupted', reason: unexpectedFailure("recording this job's answers", error).message });
      signal(run);
      return;
    }
  }
}

/** Records a run's end through the writer. Never throws: 'busy' when another writer held the lock (it may succeed later). */
export async function writeEnd(e: Engine, end: JobRunEnd): Promise<'written' | 'busy' | 'failed'> {
  try {
    await e.writes.end(end);
    return 'written';
  } catch (error) {
    // Quitting: kept for the quit's last statement, which writes the ends shown.
    if (isLockWait(error) || e.closed) return 'busy';
    console.error("keydesk: a job's end could not be recorded:", error);
    return 'failed';
  }
}

/**
 * A run's end not in the file: shown ended, its items still sent as unknown (as the end records them). `busy`:
 * written again until the lock is let go; otherwise the next start turns the job into interrupted.
 */
export function keepEnd(e: Engine, end: JobRunEnd, counts: Record<JobItemState, number>, busy: boolean): void {
  const kept: KeptEnd = { end, counts: { ...counts, unknown: counts.unknown + counts.sent, sent: 0 }, recorded: null };
  e.ends.set(end.jobId, kept);
  if (!busy) return;
  kept.recorded = (async () => {
    for (let attempt = 0; ; attempt++) {
      await lockPause(attempt);
      // Quitting: close() makes the last try.
      if (e.closed) return;
      const written = await writeEnd(e, end);
      if (written === 'busy') continue;
      if (written === 'written') {
        e.ends.delete(end.jobId);
        removeSendLog(e, end.jobId);
      } else kept.recorded = null;
      if (e.runs.size === 0) e.writes.release();
      const job = e.db.job(end.jobId);
      if (job) e.deps.emit(summarize(e, job, null));
      return;
    }
  })();
}

/** Whether a run of this job has ended and its end is still to be written (another writer holds the lock). */
export function endPending(e: Engine, jobId: string): boolean {
  return (e.ends.get(jobId)?.recorded ?? null) !== null;
}

export function removeSendLog(e: Engine, jobId: string): void {
  if (e.sendLogs !== null) removeSendLogs(e.sendLogs, [jobId]);
}

/** A pause before a write refused for keydesk.db's lock is made again (ends early when `signal` aborts). */
function lockPause(attempt: number, signal: AbortSignal = new AbortController().signal): Promise<void> {
  return realClock.sleep(Math.min(LOCK_RETRY_MS.most, LOCK_RETRY_MS.first * 2 ** attempt), signal);
}
