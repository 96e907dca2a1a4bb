// What the rooms of the job engine share: main's handles (the database, the job writer, the clock) and the jobs
// main holds now (runs, starts getting ready, ends not yet written).
import { SETTINGS_DEFAULTS } from '../../shared/contract.ts';
import type { JobItemState, JobSummary } from '../../shared/domain.ts';
import type { BatchIntake, ServiceClient } from '../client/service-client.ts';
import type { LocalDb } from '../store/local-db.ts';
import type { JobRunEnd, JobWrites } from './job-writes.ts';
import type { Run } from './run.ts';

/**
 * Requests in flight a job may reach unless the user sets otherwise. 64 at 100 ms a round trip is 640 keys/s, twice
 * a script at 32: the limit finds the service's pace below it (concurrency.ts), so the ceiling is a safety, not a pace.
 */
export const DEFAULT_CEILING = SETTINGS_DEFAULTS.bulkLimit;

/** Time, injectable so tests can hold a Retry-After pause open without waiting for it. */
export interface JobClock {
  now(): number;
  /** Resolves after `ms`, or at once when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}
export const realClock: JobClock = {
  now: () => performance.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal.aborted) {
        resolve();
        return;
      }
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
    }),
};

/** What a generate item's answer is read with (AnswerIntake): after the read, record() or release(), once. */
export interface GenerateIntake extends BatchIntake {
  /** Queues the keys read for the ledger; resolves when written or reported failed (the writer says so in words). */
  record(profileId: string): Promise<unknown>;
  release(): void;
}

export interface JobServiceDeps {
  db: LocalDb;
  /** The profile's name and kind, or null when it is gone. */
  profile(profileId: string): { id: string; name: string; kind: 'sandbox' | 'remote' } | null;
  clientFor(profileId: string): Promise<ServiceClient | null>;
  emit(summary: JobSummary): void;
  clock?: JobClock;
  /** Reads a generate answer off main (Writer.intake), where its keys are recorded; without it, read here. */
  generateIntake?: () => GenerateIntake;
  /** Where claims and answers are written: the app's is the writer thread (jobWritesOn); without it, `db`. */
  writes?: JobWrites;
  /** How long with no answer counts as the service not answering (concurrency.ts' SILENT_MS unless a test sets it). */
  silentMs?: number;
  /** The limit of a profile that has none of its own (Settings → Default bulk limit); DEFAULT_CEILING without it. */
  defaultCeiling?: () => number;
  /** Where runs log the items they send (send-log.ts): beside `db`'s file unless given; null for none (claims as slots free). */
  sendLogDir?: string | null;
}

/** A job reserved to run and getting ready (JobService.run): since when, and whether the user cancelled it meanwhile. */
export interface Starting {
  since: string;
  cancelled: boolean;
  /** When it was cancelled (its end's time), or null. */
  cancelledAt: string | null;
  /** Cancels it: it sends nothing, and ends cancelled with its items as they stand. */
  cancel(): void;
}

/** A run's end the writer refused, shown ended with the run's counts; the next start interrupts the job. */
export interface KeptEnd {
  end: JobRunEnd;
  counts: Record<JobItemState, number>;
}

export interface Engine {
  readonly db: LocalDb;
  readonly deps: JobServiceDeps;
  readonly clock: JobClock;
  readonly writes: JobWrites;
  readonly runs: Map<string, Run>;
  /** Jobs between a start or resume and their run: reserved before the first await, so a second one is refused. */
  readonly starting: Map<string, Starting>;
  /** Runs that ended and whose end is not in the file: shown ended, not running. */
  readonly ends: Map<string, KeptEnd>;
  /** Item counts of stopped jobs, which only a new run or a forget changes: a list of big jobs counts each once. */
  readonly stoppedCounts: Map<string, Record<JobItemState, number>>;
  readonly silentMs: number | undefined;
  /** The send logs' directory, or null for none. */
  readonly sendLogs: string | null;
  /** Quitting: nothing more is said, and writes are left to the quit. */
  closed: boolean;
  /** The last summary's version (JobSummary.version). */
  version: number;
}

/** Whether `run` is the job's run now (not one that ended, its job run again since). */
export function isCurrent(e: Engine, run: Run): boolean {
  return e.runs.get(run.job.id) === run;
}

export function ceilingOf(e: Engine, profileId: string): { ceiling: number; isDefault: boolean } {
  const set = e.db.bulkCeiling(profileId);
  if (set !== null) return { ceiling: set, isDefault: false };
  return { ceiling: e.deps.defaultCeiling?.() ?? DEFAULT_CEILING, isDefault: true };
}
