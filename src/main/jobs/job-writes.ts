// Where a bulk job's claims and answers are written: in the app on the writer thread (store/writer.ts), so main's
// event loop is left to the requests, in order, each group in its own transaction; else on main's connection.
import { isSqliteBusy, type ClaimedJobItem, type LocalDb, type RunEndRecord, type SettleBatch } from '../store/local-db.ts';
import { WriteRefused } from '../store/writer-commands.ts';
import type { Writer } from '../store/writer.ts';

/** An item claimed for sending (committed as sent); `retry`: an unknown item the user chose to send again. */
export type ClaimedItem = ClaimedJobItem;

/** The job writes a bulk job makes while it runs. */
export interface JobWrites {
  /**
   * Marks up to `max` pending items sent (with `retry`, then the unknown ones), resolving once committed. It goes ahead
   * of answers still queued, so may miss an item they put back: the job looks again once the writes are idle.
   */
  claim(jobId: string, max: number, retry?: boolean): Promise<ClaimedItem[]>;
  /** Writes answers (items' ends, the keys they changed, their audit entries); resolves once committed. */
  settle(batch: SettleBatch, at?: string): Promise<void>;
  /**
   * Records a run's end (LocalDb.endJobRun): the groups of answers held back, then the job's state, in one
   * transaction, after the writes asked for before it; resolves once committed.
   */
  end(end: JobRunEnd): Promise<void>;
  /** Resolves when every write asked for so far has ended (committed or failed). */
  idle(): Promise<void>;
  /** No job runs now: what the writes hold (a thread) may go until the next write. */
  release(): void;
  /**
   * Ends after the writes asked for so far, or once `waitMs` has passed (quitting has a budget): a write not made by
   * then is refused, one under way let go with its transaction. Nothing is written after it.
   */
  close(waitMs?: number): Promise<void>;
}

/** A run's end as recorded (LocalDb.endJobRun): one type with the store's. */
export type JobRunEnd = RunEndRecord;

/** The writes on main's own connection, at once. */
export class InlineJobWrites implements JobWrites {
  private readonly db: LocalDb;
  constructor(db: LocalDb) {
    this.db = db;
  }
  claim(jobId: string, max: number, retry = false): Promise<ClaimedItem[]> {
    return now(() => this.db.jobStep(null, { jobId, max, retry }));
  }
  settle(batch: SettleBatch, at?: string): Promise<void> {
    return now(() => this.db.settleJobItems(batch, at));
  }
  end(end: JobRunEnd): Promise<void> {
    return now(() => this.db.endJobRun(end.jobId, end.state, end.reason, end.finishedAt, end.batches));
  }
  idle(): Promise<void> {
    return Promise.resolve();
  }
  release(): void {
    // Nothing is held.
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** A write made now, as a promise of its outcome. */
function now<T>(write: () => T): Promise<T> {
  try {
    return Promise.resolve(write());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

/** Whether a job write failed only because another writer held keydesk.db's lock: it can be made again. */
export function isLockWait(error: unknown): boolean {
  return error instanceof WriteRefused ? error.busy : isSqliteBusy(error);
}

/** The app's job writes: on the one writer thread, with the ledger's (writer.ts). */
export function jobWritesOn(writer: Writer): JobWrites {
  return {
    claim: (jobId, max, retry) => writer.claim(jobId, max, retry),
    settle: (batch, at) => writer.settle(batch, at),
    end: (end) => writer.end(end),
    idle: () => writer.jobsIdle(),
    release: () => {
      writer.linger();
    },
    close: (waitMs) => writer.closeJobs(waitMs),
  };
}
