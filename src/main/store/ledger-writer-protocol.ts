// The messages between main's LedgerWriter (ledger-writer.ts) and its worker thread (ledger-writer.worker.ts).
import type { Key } from '../../shared/domain.ts';

/** What the worker opens: main's keydesk.db, with its own connection. */
export interface LedgerWorkerData {
  file: string;
  cacheKiB: number;
  busyTimeoutMs: number;
}

/**
 * One write, applied in the order posted. `keys` is a JSON array of Key (one chunk of a batch): a string is
 * copied to the worker in one block, where a structured clone of 5,000 objects would cost main far more.
 */
export type LedgerRowWrite =
  | { seq: number; kind: 'keys'; profileId: string; seenAt: string; keys: string }
  | { seq: number; kind: 'deleted'; profileId: string; seenAt: string; value: string }
  | { seq: number; kind: 'reported'; profileId: string; seenAt: string; key: Key };

/** A write, or: nothing is queued, close the connection and let the thread end (main starts another for the next write). */
export type LedgerWrite = LedgerRowWrite | { kind: 'stop' };

/** The worker's answer to one write: committed, or refused with SQLite's result code and text (for main's log). */
export type LedgerWriteAck = { seq: number; ok: true } | { seq: number; ok: false; errcode: number | null; message: string };
