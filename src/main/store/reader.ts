// A ledger reader: a thread with its own read-only connection to keydesk.db, for the ledger's pages and counts,
// which at a million keys take longer than main may wait (an exact count, seconds). Started on first use, gone when idle.
import { Worker } from 'node:worker_threads';
import type { LedgerRow } from '../../shared/domain.ts';
import type { LedgerPage } from './ledger-query.ts';
import type { LocalDb } from './local-db.ts';
import { logWorkerOutput, THREAD_STDERR } from '../worker-output.ts';

export interface ReaderWorkerData {
  file: string;
  cacheKiB: number;
  /** The connection finds deep-page anchors ahead of need, on the reader's event loop (ledger-warming.ts). */
  background: boolean;
}
export type ReaderAsk =
  | { ask: number; kind: 'queryLedger'; args: Parameters<LocalDb['queryLedger']> }
  | { ask: number; kind: 'seekLedger'; args: Parameters<LocalDb['seekLedger']> }
  | { ask: number; kind: 'expiryWeeks'; args: Parameters<LocalDb['expiryWeeks']> }
  | { kind: 'written' }
  | { kind: 'stop' };
export type ReaderAnswer = { ask: number; ok: true; value: unknown } | { ask: number; ok: false; message: string; code: string | null };

export interface ReaderOptions {
  cacheKiB: number;
  background: boolean;
  /** With nothing asked for this long, the thread (and its page cache) goes; the next read starts another. */
  idleMs: number;
}

/** A read the reader refused, with SQLite's code when it has one. */
export class ReadRefused extends Error {
  readonly code: string | null;
  constructor(message: string, code: string | null) {
    super(message);
    this.name = 'ReadRefused';
    this.code = code;
  }
}

/** The worker's entry: the .ts beside this file in source, the bundled .js in out/main (electron.vite.config.ts). */
function workerUrl(): URL {
  return new URL(`./reader.worker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url);
}

export class LedgerReader {
  private readonly file: string;
  private readonly options: ReaderOptions;
  private worker: Worker | null = null;
  private next = 1;
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(file: string, options: ReaderOptions) {
    this.file = file;
    this.options = options;
  }

  /** The running thread's id (tests: the read happened off main); null with none. */
  get threadId(): number | null {
    return this.worker?.threadId ?? null;
  }

  /** LocalDb.queryLedger on the reader's thread. */
  queryLedger(...args: Parameters<LocalDb['queryLedger']>): Promise<LedgerPage> {
    return this.ask((ask) => ({ ask, kind: 'queryLedger', args })) as Promise<LedgerPage>;
  }

  /** LocalDb.seekLedger on the reader's thread. */
  seekLedger(...args: Parameters<LocalDb['seekLedger']>): Promise<LedgerRow[]> {
    return this.ask((ask) => ({ ask, kind: 'seekLedger', args })) as Promise<LedgerRow[]>;
  }

  /** LocalDb.expiryWeeks on the reader's thread. */
  expiryWeeks(...args: Parameters<LocalDb['expiryWeeks']>): Promise<ReturnType<LocalDb['expiryWeeks']>> {
    return this.ask((ask) => ({ ask, kind: 'expiryWeeks', args })) as Promise<ReturnType<LocalDb['expiryWeeks']>>;
  }

  /** The ledger writer committed: a running thread's anchors follow (LocalDb.ledgerWritten), its cached pages go. */
  ledgerWritten(): void {
    this.worker?.postMessage({ kind: 'written' } satisfies ReaderAsk);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = null;
    this.refuseAll('Keydesk is quitting: the ledger is no longer read.');
    await worker?.terminate();
  }

  private ask(message: (ask: number) => ReaderAsk): Promise<unknown> {
    if (this.closed) return Promise.reject(new ReadRefused('Keydesk is quitting: the ledger is no longer read.', null));
    clearTimeout(this.idleTimer);
    const worker = this.worker ?? this.start();
    const ask = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(ask, { resolve, reject });
      worker.postMessage(message(ask));
    });
  }

  private start(): Worker {
    const { cacheKiB, background } = this.options;
    const worker = new Worker(workerUrl(), {
      ...THREAD_STDERR,
      workerData: { file: this.file, cacheKiB, background } satisfies ReaderWorkerData,
    });
    logWorkerOutput(worker, 'ledger reader');
    // The reads waiting, not the thread, keep Keydesk's work alive.
    worker.unref();
    worker.on('message', (answer: ReaderAnswer) => {
      const waiting = this.waiting.get(answer.ask);
      this.waiting.delete(answer.ask);
      if (answer.ok) waiting?.resolve(answer.value);
      else waiting?.reject(new ReadRefused(answer.message, answer.code));
      if (this.waiting.size === 0 && this.worker === worker) this.stopWhenStillIdle(worker);
    });
    // A thread that could not open the file says why, so the read that started it is refused with that reason.
    let failure: Error | null = null;
    worker.on('error', (error: Error) => {
      failure = error;
      console.error('keydesk: a ledger reader thread failed:', error);
    });
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      this.worker = null;
      const why = failure === null ? `exit code ${code}` : failure.message;
      this.refuseAll(`the ledger reader stopped unexpectedly (${why})`, (failure as { code?: unknown } | null)?.code);
    });
    this.worker = worker;
    return worker;
  }

  private stopWhenStillIdle(worker: Worker): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.worker !== worker || this.waiting.size > 0) return;
      // Forgotten first, so its exit is not taken for a crash.
      this.worker = null;
      worker.postMessage({ kind: 'stop' } satisfies ReaderAsk);
    }, this.options.idleMs);
    this.idleTimer.unref();
  }

  private refuseAll(why: string, code?: unknown): void {
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const w of waiting) w.reject(new ReadRefused(why, typeof code === 'string' ? code : null));
  }
}
