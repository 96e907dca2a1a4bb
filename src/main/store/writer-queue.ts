// The writer's queue on main: its options, one queued ledger write and its parts, and how a write ended.
import type { Key } from '../../shared/domain.ts';
import type { BatchIntake } from '../client/service-client.ts';
import type { LedgerReadAnswer, LedgerRowWrite } from './writer-protocol.ts';

/** How one queued write ended. `failure` is in words, for the ledger view and the audit log; null when all went in. */
export interface WriteOutcome {
  written: number;
  failed: number;
  failure: string | null;
}

/** What the ledger view is told when a profile's pending writes change. */
export interface RecordingState {
  profileId: string;
  /** Keys still waiting to be written. */
  recording: number;
  /** The last write that failed for this profile, in words; null once a later write of keys went in whole. */
  failure: string | null;
  /** The writes wait for keydesk.db: another program holds its lock, and they are tried again until it lets go. */
  busy: boolean;
}

export interface WriterOptions {
  /** keydesk.db, already opened (its schema made) by main's LocalDb. */
  file: string;
  /** How long the thread stays with nothing queued (WRITER_IDLE_MS). */
  idleMs?: number;
  /** How long the thread stays after a job's writes (WRITER_LINGER_MS). */
  lingerMs?: number;
  /** A profile's pending count went up (a write was queued) or a write ended. */
  onChange?: (state: RecordingState) => void;
  /** Everything queued has ended and nothing is held: a moment for main's own connection to give memory back. */
  onIdle?: () => void;
  /** A write ended with rows not recorded: `words` for the user, already in the failure words of this file. */
  onFailure?: (profileId: string, words: string) => void;
}

export type Payload =
  | { kind: 'keys'; keys: readonly Key[] }
  | { kind: 'held'; answer: number }
  | { kind: 'deleted'; value: string }
  | { kind: 'hwidCleared'; value: string }
  | { kind: 'reported'; key: Key };

/**
 * A generate answer read on the writer's thread (what ServiceClient.generateInto reads the body with). Its keys
 * wait there until the answer is judged: record() queues them for the ledger like recordKeys, release() lets
 * them go (the answer was a refusal, or unreadable). One of the two must follow a read.
 */
export interface AnswerIntake extends BatchIntake {
  record(profileId: string, seenAt?: string): Promise<WriteOutcome>;
  release(): void;
}

export interface PendingRead {
  resolve: (answer: LedgerReadAnswer) => void;
  reject: (error: Error) => void;
}

export interface Op {
  profileId: string;
  seenAt: string;
  payload: Payload;
  size: number;
  /** Rows handed to the worker so far (keys: the next chunk starts here). */
  posted: number;
  /** Rows not yet acknowledged, written or refused. */
  left: number;
  failed: number;
  /** SQLite's result code of the first refusal (null: the worker stopped). */
  firstError: number | null | undefined;
  done: (outcome: WriteOutcome) => void;
  /** Called once the op has ended, after `done` (flushed()). */
  after: (() => void)[];
}

export interface Part {
  op: Op;
  size: number;
  message: LedgerRowWrite;
  attempts: number;
}
