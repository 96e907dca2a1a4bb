// The messages between main's Writer (writer.ts) and its worker thread (writer.worker.ts).
import type { MessagePort } from 'node:worker_threads';
import type { CustomerChange, CustomerChanged } from '../../shared/customers.ts';
import type { AuditEntry, JobState, Key, KeyFields, ServiceCapabilities } from '../../shared/domain.ts';
import type { KeyBatch } from '../../shared/key-batch.ts';
import type { NewAuditEntry } from './audit.ts';
import type { ClaimedJobItem, RunEndRecord, SendLogRecord } from './jobs-store.ts';
import type { StaleMark } from './ledger-writes.ts';
import type { LocalDb, NewHwidEvent } from './local-db.ts';
import type { SampleWindow } from './samples.ts';
import type { FirstRunMark } from '../../shared/domain.ts';

/** What the worker opens: main's keydesk.db, with its own connection. */
export interface LedgerWorkerData {
  file: string;
  cacheKiB: number;
  /** Urgent commands come on this port: served before the next message of the ordered one. */
  urgent: MessagePort;
}

/**
 * A write main asks for and waits on. A settle's batch and an end go as JSON (one string copies in one block,
 * thousands of objects do not). Claims, audit entries and samples go on the urgent port: no ledger row's order
 * depends on them.
 */
export type JobCommand =
  | { command: number; kind: 'claim'; jobId: string; max: number; retry: boolean }
  | { command: number; kind: 'settle'; batch: string; at: string }
  | { command: number; kind: 'end'; end: string }
  | { command: number; kind: 'markStale'; profileId: string; what: StaleMark; values: string[] }
  | { command: number; kind: 'audit'; entry: NewAuditEntry }
  | { command: number; kind: 'settleAudit'; id: number; outcome: AuditEntry['outcome']; message: string; after?: KeyFields }
  | { command: number; kind: 'sample'; profileId: string; count: number; at: string }
  | { command: number; kind: 'thinWindow'; window: SampleWindow }
  | { command: number; kind: 'createJob'; job: NewJob; items: NewJobItems }
  | { command: number; kind: 'jobState'; jobId: string; state: JobState; reason: string | null; finishedAt: string | null }
  | { command: number; kind: 'beginRun'; jobId: string; at: string; retryUnknown: boolean; log: SendLogRecord | null }
  | { command: number; kind: 'forgetJob'; jobId: string }
  | { command: number; kind: 'ceiling'; profileId: string; ceiling: number | null }
  | { command: number; kind: 'capabilities'; profileId: string; found: ServiceCapabilities }
  | { command: number; kind: 'hwidEvents'; events: NewHwidEvent[] }
  | { command: number; kind: 'customers'; change: CustomerChange }
  | { command: number; kind: 'renewalTemplate'; profileId: string; template: string | null }
  | { command: number; kind: 'interrupt'; reason: string; at?: string; ends: RunEndRecord[]; sent: Map<string, SendLogRecord> }
  // Overview: Keydesk's run alive (the sampler's tick), a first-run step done.
  | { command: number; kind: 'runAlive'; startedAt: string; at: string }
  | { command: number; kind: 'firstRunStep'; profileId: string; step: FirstRunMark; at: string };

/** What each command answers with. */
export interface CommandResults {
  claim: ClaimedJobItem[];
  thinWindow: number;
  createJob: number;
  interrupt: string[];
  /** The new entry's id. */
  audit: number;
  /** The job's counts once the run has begun, or ended: main reads none of its items. */
  beginRun: JobCounts;
  end: JobCounts;
  customers: CustomerChanged;
}
export type JobCounts = ReturnType<LocalDb['jobCounts']>;
export type CommandResult<K extends JobCommand['kind']> = K extends keyof CommandResults ? CommandResults[K] : null;

/** A job as created (LocalDb.createJob), and its items. */
export type NewJob = Parameters<LocalDb['createJob']>[0];
export type NewJobItems = Parameters<LocalDb['createJob']>[1];

/** The thread's answer to a command: committed (with what the write returned), or refused in SQLite's words and code. */
export type CommandAnswer =
  { command: number; ok: true; result: unknown } | { command: number; ok: false; message: string; errcode: number | null };

/**
 * One write, applied in the order posted. `keys` is a JSON array of Key (one chunk of a batch): a string is
 * copied to the worker in one block, where a structured clone of 5,000 objects would cost main far more.
 * `held` writes rows `from`–`to` of keys the worker read itself (a LedgerRead) and holds under `answer`; the
 * last chunk lets them go.
 */
export type LedgerRowWrite =
  | { seq: number; kind: 'keys'; profileId: string; seenAt: string; keys: string }
  | { seq: number; kind: 'held'; profileId: string; seenAt: string; answer: number; from: number; to: number }
  | { seq: number; kind: 'deleted'; profileId: string; seenAt: string; value: string }
  | { seq: number; kind: 'hwidCleared'; profileId: string; seenAt: string; value: string }
  | { seq: number; kind: 'reported'; profileId: string; seenAt: string; key: Key };

/**
 * Read a service answer's JSON body (its bytes, transferred, not copied) and keep its `generatedKeys` in the
 * worker under `answer` until main says to write them (a `held` write) or to let them go (`release`).
 */
export interface LedgerRead {
  kind: 'read';
  answer: number;
  bytes: ArrayBuffer;
}

/** A write, a read, keys to let go, an answer on its way, or: nothing is queued, close the connection and let the thread end. */
export type LedgerWrite =
  | LedgerRowWrite
  | JobCommand
  | LedgerRead
  | { kind: 'release'; answer: number }
  | { kind: 'stop' }
  // A generate answer is on its way: a dropped index waits for it (or for EXPECT_MS, when it never comes).
  | { kind: 'expect' };

/**
 * The worker's answer to one write: committed, or refused with SQLite's result code and text (for main's log);
 * `heapBytes`: the thread's V8 heap after it (main lets a thread with a large heap go as soon as it is idle).
 */
export type LedgerWriteAck = { heapBytes: number } & (
  { seq: number; ok: true } | { seq: number; ok: false; errcode: number | null; message: string }
);

/**
 * The worker's answer to a read: the body's JSON value without `generatedKeys`, and those keys as a batch when
 * they were a list (null: the body had none, and the worker holds nothing; the batch's column bytes are
 * transferred, not copied); or the body was not JSON (`head`: its first characters, for main's message).
 */
export type LedgerReading =
  { answer: number; json: true; body: unknown; batch: KeyBatch | null } | { answer: number; json: false; head: string };
export type LedgerReadAnswer = LedgerReading & { heapBytes: number };

/** The worker's last word after `stop`, as it ends: whether its heap was collected first (collect-garbage.ts). */
export interface LedgerStopped {
  kind: 'stopped';
  collected: boolean;
}

/** The file refused a write for a moment (another program holds its lock): it and those after it wait (`busy`), or went in. */
export interface LedgerBusy {
  kind: 'busy';
  busy: boolean;
}

/** Rows the worker has yet to write text entries for, plus sort indexes it dropped: it stays while there are any. */
export interface LedgerIndexing {
  kind: 'indexing';
  left: number;
}

export type LedgerWorkerMessage = LedgerWriteAck | LedgerReadAnswer | LedgerStopped | LedgerBusy | LedgerIndexing | CommandAnswer;
