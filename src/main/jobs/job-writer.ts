// Where a bulk job's claims and answers are written: in the app on a thread with its own connection to keydesk.db,
// so main's event loop is left to the requests, in order, each group in its own transaction; else on main's.
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { isSqliteBusy, type ClaimedJobItem, type LocalDb, type RunEndRecord, type SettleBatch } from '../store/local-db.ts';

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

/** What the job writer's thread opens, and the port claims come on (served before queued answers). */
export interface JobWriterData {
  file: string;
  cacheKiB: number;
  busyTimeoutMs: number;
  claims: MessagePort;
}

/** A write for the thread; a settle's batch as JSON (one string copies in one block, thousands of objects do not). */
export type JobWriterRequest =
  JobWriterClaim | { id: number; kind: 'settle'; batch: string; at: string } | { id: number; kind: 'end'; end: string } | { kind: 'stop' };
export interface JobWriterClaim {
  id: number;
  kind: 'claim';
  jobId: string;
  max: number;
  /** Unknown items the user chose to send again are claimed too (after the pending ones). */
  retry?: boolean;
}

/**
 * The thread's answer to one write: committed (a claim's items with it), or refused, in SQLite's words (main's
 * log); `busy`: because another connection held keydesk.db's lock (the same write succeeds later).
 */
export type JobWriterAnswer = { id: number; ok: true; claimed: ClaimedItem[] } | { id: number; ok: false; message: string; busy?: boolean };

/** A job write refused; `busy`: another connection held keydesk.db's lock past the busy timeout, nothing was written. */
export class JobWriteError extends Error {
  readonly busy: boolean;
  constructor(message: string, busy: boolean) {
    super(message);
    this.name = 'JobWriteError';
    this.busy = busy;
  }
}

/** Whether a job write failed only because another writer held keydesk.db's lock: it can be made again. */
export function isLockWait(error: unknown): boolean {
  return error instanceof JobWriteError ? error.busy : isSqliteBusy(error);
}

/** The thread's page cache: it writes, main reads (as the ledger writer's). */
const WORKER_CACHE_KIB = 8 * 1024;
/**
 * How long the thread stays after the last job's writes (release()): a job started meanwhile (the next of several
 * bulk acts, a resume) finds it ready, rather than waiting for a thread to load its code and open keydesk.db.
 */
export const WRITER_LINGER_MS = 60_000;

/** The worker's entry: the .ts beside this file in source (node, tests, the harness), the bundled .js in out/main. */
function workerUrl(): URL {
  // Computed at run time so the bundler does not copy it as an asset (electron.vite.config.ts builds it as an entry).
  const name = `job-writer.worker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`;
  return new URL(`./${name}`, import.meta.url);
}

interface Waiting {
  resolve: (claimed: ClaimedItem[]) => void;
  reject: (error: Error) => void;
}

/**
 * The writes on a thread of their own. It starts with the first write and ends when a job's writes are done
 * (release()) or on close(); a thread that dies fails the writes it had, and the next write starts another.
 */
export class ThreadJobWrites implements JobWrites {
  private readonly data: Omit<JobWriterData, 'claims'>;
  private worker: { thread: Worker; claims: MessagePort } | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();
  private idleWaiters: (() => void)[] = [];
  private closed = false;
  /** Stops the thread once no job has written for WRITER_LINGER_MS (release()); cleared by the next write. */
  private linger: NodeJS.Timeout | undefined;
  private readonly lingerMs: number;
  /** Resolves once the last thread started has exited (see exited()). */
  private exit: Promise<void> = Promise.resolve();

  constructor(file: string, options: { busyTimeoutMs?: number; lingerMs?: number } = {}) {
    this.lingerMs = options.lingerMs ?? WRITER_LINGER_MS;
    // Short: a write refused for the lock is made again by the job service (job-service.ts) for as long as the
    // lock is held, and between tries the thread is free for the next claim or a cancel's last answers.
    this.data = { file, cacheKiB: WORKER_CACHE_KIB, busyTimeoutMs: options.busyTimeoutMs ?? 1_000 };
  }

  /** Whether a thread runs now (tests). */
  get threadRunning(): boolean {
    return this.worker !== null;
  }

  claim(jobId: string, max: number, retry = false): Promise<ClaimedItem[]> {
    return this.post((id) => ({ id, kind: 'claim', jobId, max, retry }));
  }

  async settle(batch: SettleBatch, at = new Date().toISOString()): Promise<void> {
    const json = JSON.stringify(batch);
    await this.post((id) => ({ id, kind: 'settle', batch: json, at }));
  }

  async end(end: JobRunEnd): Promise<void> {
    const json = JSON.stringify(end);
    await this.post((id) => ({ id, kind: 'end', end: json }));
  }

  idle(): Promise<void> {
    if (this.waiting.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * No job is running: the thread goes once its writes are done and no other has come for `lingerMs` (the next job
   * then starts another). The timer keeps nothing alive.
   */
  release(): void {
    clearTimeout(this.linger);
    this.linger = setTimeout(() => {
      this.linger = undefined;
      void this.idle().then(() => {
        if (this.waiting.size > 0 || this.worker === null || this.linger !== undefined) return;
        this.worker.thread.postMessage({ kind: 'stop' } satisfies JobWriterRequest);
        this.worker.claims.close();
        this.worker = null;
      });
    }, this.lingerMs);
    this.linger.unref();
  }

  async close(waitMs = Number.POSITIVE_INFINITY): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.linger);
    this.linger = undefined;
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const waited = (): Promise<void> =>
      Number.isFinite(waitMs)
        ? new Promise((resolve) => (timer = setTimeout(resolve, Math.max(0, waitMs - (performance.now() - started)))))
        : new Promise(() => undefined);
    try {
      await Promise.race([this.idle(), waited()]);
      clearTimeout(timer);
      const worker = this.worker;
      this.worker = null;
      worker?.claims.close();
      // A thread inside a write that waits for another writer's lock stops once SQLite gives up (its busy timeout):
      // that is not waited for past `waitMs`, and the writes it had are refused now.
      const stopped = worker?.thread.terminate().then(() => undefined);
      this.refuseWaiting('Keydesk is quitting: job writes are no longer made.');
      if (stopped) await Promise.race([stopped, waited()]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Resolves once the last thread this started has exited (tests: no write of it can land after this). */
  exited(): Promise<void> {
    return this.exit;
  }

  /** Every write waiting is refused (not for the lock): the thread they were posted to is gone. */
  private refuseWaiting(why: string): void {
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const w of waiting) w.reject(new JobWriteError(why, false));
    this.whenIdle();
  }

  private post(request: (id: number) => JobWriterRequest): Promise<ClaimedItem[]> {
    if (this.closed) return Promise.reject(new Error('Keydesk is quitting: job writes are no longer made.'));
    clearTimeout(this.linger);
    this.linger = undefined;
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      const message = request(id);
      (message.kind === 'claim' ? worker.claims : worker.thread).postMessage(message);
    });
  }

  private start(): { thread: Worker; claims: MessagePort } {
    const channel = new MessageChannel();
    const thread = new Worker(workerUrl(), {
      workerData: { ...this.data, claims: channel.port2 } satisfies JobWriterData,
      transferList: [channel.port2],
      resourceLimits: { maxYoungGenerationSizeMb: 8 },
    });
    const worker = { thread, claims: channel.port1 };
    this.exit = new Promise((resolve) => thread.once('exit', () => resolve()));
    // The job, not the thread, keeps Keydesk's work alive: a job's end and close() wait for its writes.
    thread.unref();
    channel.port1.unref();
    const onAnswer = (answer: JobWriterAnswer): void => {
      const w = this.waiting.get(answer.id);
      if (!w) return;
      this.waiting.delete(answer.id);
      if (answer.ok) w.resolve(answer.claimed);
      else {
        // Waiting for another writer's lock is not a failure worth the log: the write is made again.
        if (answer.busy !== true) console.error('keydesk: a job write failed:', answer.message);
        w.reject(new JobWriteError(answer.message, answer.busy === true));
      }
      this.whenIdle();
    };
    thread.on('message', onAnswer);
    channel.port1.on('message', onAnswer);
    // Every write waiting was posted to this thread (it was the current one): they fail with it.
    const lost = (why: string): void => {
      if (this.worker !== worker) return;
      this.worker = null;
      const waiting = [...this.waiting.values()];
      this.waiting.clear();
      for (const w of waiting) w.reject(new Error(why));
      this.whenIdle();
    };
    thread.on('error', (error) => {
      console.error('keydesk: the job writer thread failed:', error);
      lost('the job writer thread failed');
    });
    thread.on('exit', (code) => {
      lost(`the job writer thread stopped (exit code ${code})`);
    });
    this.worker = worker;
    return worker;
  }

  private whenIdle(): void {
    if (this.waiting.size > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}
