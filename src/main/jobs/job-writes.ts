// Where a bulk job's writes go: in the app to the writer thread (store/writer.ts), so main's event loop is left to
// the requests, in order, each in its own transaction; else at once on a connection main also reads (tests).
import type { JobState } from '../../shared/domain.ts';
import type { ClaimedJobItem, LocalDb, RunEndRecord, SendLogRecord, SettleBatch } from '../store/local-db.ts';
import type { JobCounts, NewJob, NewJobItems } from '../store/writer-protocol.ts';
import type { Writer } from '../store/writer.ts';

/** An item claimed for sending (committed as sent); `retry`: an unknown item the user chose to send again. */
export type ClaimedItem = ClaimedJobItem;

/** The writes of the job service: a job's creation, runs, end and removal, and a profile's ceiling. */
export interface JobWrites {
  /** Creates the job and its items; resolves with how many items it has. */
  createJob(job: NewJob, items: NewJobItems): Promise<number>;
  jobState(jobId: string, state: JobState, reason: string | null, finishedAt: string | null): Promise<void>;
  /** Settles what an earlier run left claimed (by its send log), takes the yes to send unknown ones, begins the run; resolves with its counts. */
  beginRun(jobId: string, at: string, retryUnknown: boolean, log: SendLogRecord | null): Promise<JobCounts>;
  forgetJob(jobId: string): Promise<void>;
  setBulkCeiling(profileId: string, ceiling: number | null): Promise<void>;
  /** Marks the jobs still running interrupted (LocalDb.interruptRunningJobs); resolves with their ids. */
  interrupt(reason: string, at: string | undefined, ends: RunEndRecord[], sent: Map<string, SendLogRecord>): Promise<string[]>;
  /**
   * Marks up to `max` pending items sent (with `retry`, then the unknown ones), resolving once committed. It goes ahead
   * of answers still queued, so may miss an item they put back: the job looks again once the writes are idle.
   */
  claim(jobId: string, max: number, retry?: boolean): Promise<ClaimedItem[]>;
  /** Writes answers (items' ends, the keys they changed, their audit entries); resolves once committed. */
  settle(batch: SettleBatch, at?: string): Promise<void>;
  /** Records a run's end (LocalDb.endJobRun), after the writes asked for before it; resolves once committed, with the job's counts. */
  end(end: JobRunEnd): Promise<JobCounts>;
  /** Resolves when every write asked for so far has ended (committed or failed). */
  idle(): Promise<void>;
  /** No job runs now: what the writes hold (a thread) may go until the next write. */
  release(): void;
  /** Quitting: refuses every later claim, answer and end; those asked for already stay queued. */
  close(): void;
}

/** A run's end as recorded (LocalDb.endJobRun): one type with the store's. */
export type JobRunEnd = RunEndRecord;

/** The writes on main's own connection, at once. */
export class InlineJobWrites implements JobWrites {
  private readonly db: LocalDb;
  constructor(db: LocalDb) {
    this.db = db;
  }
  createJob(job: NewJob, items: NewJobItems): Promise<number> {
    return now(() => this.db.createJob(job, items));
  }
  jobState(jobId: string, state: JobState, reason: string | null, finishedAt: string | null): Promise<void> {
    return now(() => this.db.setJobState(jobId, state, reason, finishedAt));
  }
  beginRun(jobId: string, at: string, retryUnknown: boolean, log: SendLogRecord | null): Promise<JobCounts> {
    return now(() => {
      this.db.settleLeftoverClaims(jobId, log);
      if (retryUnknown) this.db.approveUnknownJobItems(jobId);
      this.db.beginJobRun(jobId, at);
      return this.db.jobCounts(jobId);
    });
  }
  forgetJob(jobId: string): Promise<void> {
    return now(() => void this.db.forgetJob(jobId));
  }
  setBulkCeiling(profileId: string, ceiling: number | null): Promise<void> {
    return now(() => this.db.setBulkCeiling(profileId, ceiling));
  }
  interrupt(reason: string, at: string | undefined, ends: RunEndRecord[], sent: Map<string, SendLogRecord>): Promise<string[]> {
    return now(() => this.db.interruptRunningJobs(reason, at, ends, sent));
  }
  claim(jobId: string, max: number, retry = false): Promise<ClaimedItem[]> {
    return now(() => this.db.jobStep(null, { jobId, max, retry }));
  }
  settle(batch: SettleBatch, at?: string): Promise<void> {
    return now(() => this.db.settleJobItems(batch, at));
  }
  end(end: JobRunEnd): Promise<JobCounts> {
    return now(() => {
      this.db.endJobRun(end.jobId, end.state, end.reason, end.finishedAt);
      return this.db.jobCounts(end.jobId);
    });
  }
  idle(): Promise<void> {
    return Promise.resolve();
  }
  release(): void {
    // Nothing is held.
  }
  close(): void {
    // Nothing is queued.
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

/** The app's job writes: on the one writer thread, with the ledger's (writer.ts). */
export function jobWritesOn(writer: Writer): JobWrites {
  return {
    createJob: (job, items) => writer.run('createJob', { job, items }),
    jobState: async (jobId, state, reason, finishedAt) => {
      await writer.run('jobState', { jobId, state, reason, finishedAt });
    },
    beginRun: (jobId, at, retryUnknown, log) => writer.run('beginRun', { jobId, at, retryUnknown, log }),
    forgetJob: async (jobId) => {
      await writer.run('forgetJob', { jobId });
    },
    setBulkCeiling: async (profileId, ceiling) => {
      await writer.run('ceiling', { profileId, ceiling });
    },
    interrupt: (reason, at, ends, sent) => writer.run('interrupt', { reason, ...(at === undefined ? {} : { at }), ends, sent }),
    claim: (jobId, max, retry = false) => writer.run('claim', { jobId, max, retry }),
    // Batches and ends cross as JSON: one string copies in one block, thousands of objects do not.
    settle: async (batch, at = new Date().toISOString()) => {
      await writer.run('settle', { batch: JSON.stringify(batch), at });
    },
    end: (end) => writer.run('end', { end: JSON.stringify(end) }),
    idle: () => writer.jobsIdle(),
    release: () => {
      writer.linger();
    },
    close: () => {
      writer.closeJobs();
    },
  };
}
