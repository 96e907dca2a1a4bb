// The one writer thread for keydesk.db, off main's event loop (100,000 keys cost SQLite seconds): ledger writes
// are queued and applied in order, in chunks of LEDGER_CHUNK rows, one transaction each; a job's claims, answers
// and ends go to the same thread (claims ahead of the rest). A generate answer is read there too (`intake()`).
import { dirname } from 'node:path';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { Key } from '../../shared/domain.ts';
import type { KeyBatch } from '../../shared/key-batch.ts';
import type { BodyReading } from '../client/service-client.ts';
import type {
  CommandAnswer,
  JobCommand,
  CommandResult,
  LedgerReadAnswer,
  LedgerRowWrite,
  LedgerWorkerData,
  LedgerWorkerMessage,
  LedgerWrite,
  LedgerWriteAck,
} from './writer-protocol.ts';
import { GenerateMarks } from './generate-marks.ts';
import { failureWords, QUIT } from './writer-words.ts';
import { JOB_WRITES, JobCommands, MARKING, URGENT, type CommandFields } from './writer-commands.ts';
import type { AnswerIntake, Op, Part, Payload, PendingRead, WriteOutcome, WriterOptions } from './writer-queue.ts';
import type { StaleMark } from './ledger-writes.ts';
import { logWorkerOutput, THREAD_STDERR } from '../worker-output.ts';
export type { AnswerIntake, RecordingState, WriteOutcome } from './writer-queue.ts';

/** Rows per transaction (claims are served between): a large one touches each value-index page for more rows. */
export const LEDGER_CHUNK = 10_000;
/** Progress events while a batch is written, per profile: at most one in this many milliseconds. */
const PROGRESS_EVERY_MS = 250;
/** Chunks handed to the worker before it acknowledges one: enough to keep it busy, few enough to bound memory. */
const AHEAD = 2;
/** A chunk is sent to a restarted worker once more; then it is reported as not recorded. */
const MAX_ATTEMPTS = 2;
/** Worker deaths in a row with no write done in between: then the queue is reported failed rather than retried. */
const MAX_CRASHES_IN_A_ROW = 3;
/** The worker's page cache: it writes, main reads; what a thread's allocator takes stays with the process. */
const WORKER_CACHE_KIB = 8 * 1024;
/** With nothing queued for this long the thread (about 100 MiB after a large write) ends; the next write starts another. */
export const WRITER_IDLE_MS = 5_000;
/** A thread whose V8 heap is larger than this when the queue empties ends then: only its end gives the heap back. */
const LARGE_WORKER_HEAP_BYTES = 32 * 1024 * 1024;
/** The thread's young generation, MiB: reading a 33 MB answer would otherwise grow it to V8's largest, and keep it. */
const WORKER_YOUNG_MIB = 8;
/** How long the thread stays after the last job's writes (linger()): the next job finds it ready. */
export const WRITER_LINGER_MS = 60_000;
/** All a quit gives the writes, answers on the wire included: what is not written by then, the next start marks. */
export const QUIT_MS = 2_000;

/** The worker's entry: the .ts beside this file in source (node, tests, the harness), the bundled .js in out/main. */
function workerUrl(): URL {
  // Computed at run time, so the bundler copies no asset (electron.vite.config.ts builds out/main/writer.worker.js).
  const name = `writer.worker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`;
  return new URL(`./${name}`, import.meta.url);
}

export class Writer {
  private readonly options: WriterOptions;
  private worker: Worker | null = null;
  /** The running thread's port for claims (served before its ordered messages). */
  private urgent: MessagePort | null = null;
  private readonly commands: JobCommands;
  private jobsClosed = false;
  /** Until then (performance.now()) the thread stays though idle: a job ran just now (linger()). */
  private lingerUntil = 0;
  private readonly queue: Op[] = [];
  /** Parts posted to the worker and not yet acknowledged, in the order posted (the worker's order). */
  private readonly inFlight = new Map<number, Part>();
  private nextSeq = 1;
  private pumpScheduled = false;
  private crashesInARow = 0;
  private closing = false;
  private terminated = false;
  /** Parts a dead worker held, to send first to the next one. */
  private resend: Part[] = [];
  private readonly pending = new Map<string, number>();
  private readonly failures = new Map<string, string>();
  private readonly lastProgress = new Map<string, number>();
  private idleWaiters: (() => void)[] = [];
  private idleTimer: NodeJS.Timeout | undefined;
  private nextAnswer = 1;
  /** Answers posted to the worker to read, not yet answered. */
  private readonly reads = new Map<number, PendingRead>();
  /** Answers whose keys the worker holds: not yet released or queued to be written. */
  private readonly held = new Set<number>();
  /** The running thread's V8 heap, as its last acknowledgement said. */
  private workerHeapBytes = 0;
  private waitingForFile = false;
  /** Index work the running thread has yet to do (text entries, dropped sort indexes): it is not let go meanwhile. */
  private unindexed = 0;

  /** Generate answers being recorded; those an earlier session left (generate-marks.ts). */
  readonly marks: GenerateMarks;

  /** The thread starts with the first write, not before: a session that records nothing never pays for it. */
  constructor(options: WriterOptions) {
    this.options = options;
    this.marks = new GenerateMarks(options.file);
    this.commands = new JobCommands(options.file);
  }

  /** Whether a writer thread is running now (it ends after WRITER_IDLE_MS with nothing queued). */
  get threadRunning(): boolean {
    return this.worker !== null;
  }

  /** The running thread's id (tests: whether a later write found the same thread); null with none. */
  get threadId(): number | null {
    return this.worker?.threadId ?? null;
  }

  // ---- the writes (in the order called) --------------------------------------------------------------------

  /** Records keys as the service last described them. Resolves when they are written (or reported failed); never rejects. */
  recordKeys(profileId: string, keys: readonly Key[], seenAt = new Date().toISOString()): Promise<WriteOutcome> {
    return this.enqueue(profileId, seenAt, { kind: 'keys', keys }, keys.length);
  }

  markDeleted(profileId: string, value: string, seenAt = new Date().toISOString()): Promise<WriteOutcome> {
    return this.enqueue(profileId, seenAt, { kind: 'deleted', value }, 1);
  }

  /** A key whose HWID reset was answered done but not read back has no HWID now; queued behind earlier lookups. */
  markHwidCleared(profileId: string, value: string, seenAt = new Date().toISOString()): Promise<WriteOutcome> {
    return this.enqueue(profileId, seenAt, { kind: 'hwidCleared', value }, 1);
  }

  /** A key described in part (no status): only its reported fields update the row (LocalDb.recordReportedFields). */
  recordReportedFields(profileId: string, key: Key, seenAt = new Date().toISOString()): Promise<WriteOutcome> {
    return this.enqueue(profileId, seenAt, { kind: 'reported', key }, 1);
  }

  /** A reader for one generate answer's body, off main's heap (AnswerIntake). */
  intake(): AnswerIntake {
    // The thread starts now, while the request is on its way (it may have ended idle); dropped sort indexes wait for it.
    if (this.worker === null && !this.closing) {
      clearTimeout(this.idleTimer);
      this.startWorker();
      this.stopWhenStillIdle();
    }
    this.worker?.postMessage({ kind: 'expect' } satisfies LedgerWrite);
    let answer: number | null = null;
    let batch: KeyBatch | null = null;
    return {
      get batch() {
        return batch;
      },
      read: async (bytes: ArrayBuffer): Promise<BodyReading> => {
        const read = await this.read(bytes);
        if (!read.json) return { json: false, head: read.head };
        if (read.batch !== null) {
          answer = read.answer;
          batch = read.batch;
        }
        return { json: true, value: read.body };
      },
      record: async (profileId: string, seenAt = new Date().toISOString()): Promise<WriteOutcome> => {
        const from = answer;
        answer = null;
        if (from === null || batch === null) return { written: 0, failed: 0, failure: null };
        const size = batch.count;
        // From here the queue keeps the thread busy until the keys are written, or their write fails.
        if (size === 0 || this.closing) this.release(from);
        else this.held.delete(from);
        // Marked until every key is in: a stop or a failed write first leaves the mark for the next start.
        const mark =
          size > 0 ? this.marks.begin(profileId, typeof batch.same.note === 'string' ? batch.same.note : '', size, seenAt) : null;
        const outcome = await this.enqueue(profileId, seenAt, { kind: 'held', answer: from }, size);
        if (mark !== null && outcome.failed === 0) this.marks.end(mark);
        return outcome;
      },
      release: (): void => {
        if (answer !== null) this.release(answer);
        answer = null;
      },
    };
  }

  // ---- a job's writes -------------------------------------------------------------------------------------------

  /**
   * Posts a command and waits for what it returns, or rejects in SQLite's words. A claim, answers and an end are
   * refused once closeJobs() has run; every command once close() has.
   */
  async run<K extends JobCommand['kind']>(kind: K, fields: CommandFields<K>): Promise<CommandResult<K>> {
    if ((JOB_WRITES.has(kind) && this.jobsClosed) || this.closing) throw new Error('Keydesk is quitting: writes are no longer made.');
    clearTimeout(this.idleTimer);
    // A mark is posted once the rows queued before it are written (they would clear it); till then it counts as asked for.
    const after = MARKING.has(kind) && this.queue.length > 0 ? this.flushed() : null;
    const worker = this.worker ?? this.startWorker();
    const port = URGENT.has(kind) && this.urgent !== null ? this.urgent : worker;
    return (await this.commands.post(
      (c) => {
        if (after === null) port.postMessage(c);
        else
          void after.then(() => {
            if (this.commands.has(c.command) && !this.terminated) (this.worker ?? this.startWorker()).postMessage(c);
          });
      },
      (command) => ({ ...fields, command, kind }) as unknown as JobCommand,
    )) as CommandResult<K>;
  }

  /** Marks rows' fields as not read back (LocalDb.markStale), after the ledger writes queued before it. */
  async markStale(profileId: string, what: StaleMark, values: readonly string[]): Promise<void> {
    await this.run('markStale', { profileId, what, values: [...values] });
  }

  /** Resolves when every job write asked for so far has been answered. */
  jobsIdle(): Promise<void> {
    return this.commands.idle();
  }

  /** No job runs now: the thread stays WRITER_LINGER_MS more, so the next job finds it ready. */
  linger(): void {
    this.lingerUntil = performance.now() + (this.options.lingerMs ?? WRITER_LINGER_MS);
    if (this.isIdle()) this.stopWhenStillIdle();
  }

  /** Refuses every later claim, answer and end; those asked for already stay queued. */
  closeJobs(): void {
    this.jobsClosed = true;
  }

  // ---- what readers see ----------------------------------------------------------------------------------

  /** Rows of this profile queued and not yet written. */
  recording(profileId: string): number {
    return this.pending.get(profileId) ?? 0;
  }

  /** The last failed write of this profile, in words; null once a later write of keys went in whole. */
  failure(profileId: string): string | null {
    return this.failures.get(profileId) ?? null;
  }

  /** Whether writes wait for keydesk.db now, another program holding its lock (they go in once it lets go). */
  get busy(): boolean {
    return this.waitingForFile;
  }

  /** Resolves when every write queued so far has ended (written or reported failed). */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Resolves when every write queued so far has ended; unlike idle(), not held up by writes queued later or answers
   * still read or held, for a reader that needs only what was recorded before it asked (a job's resume).
   */
  flushed(): Promise<void> {
    const ops = [...this.queue];
    if (ops.length === 0) return Promise.resolve();
    return new Promise((resolve) => {
      let left = ops.length;
      for (const op of ops) {
        op.after.push(() => {
          if (--left === 0) resolve();
        });
      }
    });
  }

  /** Drains the queue for at most `budgetMs`, then stops the worker; what is left is logged, and later writes refused. */
  async close(budgetMs = QUIT_MS): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    clearTimeout(this.idleTimer);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.idle(), new Promise<void>((r) => (timer = setTimeout(r, budgetMs)))]);
    clearTimeout(timer);
    const unwritten = [...this.pending.values()].reduce((a, b) => a + b, 0);
    if (unwritten > 0) console.error(`keydesk: quitting with ${unwritten} ledger row(s) not yet written; the service has them.`);
    this.terminated = true;
    const worker = this.worker;
    this.worker = null;
    this.inFlight.clear();
    this.resend = [];
    this.held.clear();
    this.failReads('Keydesk is quitting');
    this.waitingForFile = false;
    this.commands.refuseAll('Keydesk is quitting: job writes are no longer made.');
    this.urgent?.close();
    this.urgent = null;
    for (const op of [...this.queue]) this.ended(op, op.left, QUIT);
    await worker?.terminate();
  }

  // ---- reading answers ----------------------------------------------------------------------------------------

  /** Hands the bytes to the worker (transferred: main keeps no copy) and waits for its reading. */
  private read(bytes: ArrayBuffer): Promise<LedgerReadAnswer> {
    if (this.closing) return Promise.reject(new Error('Keydesk is quitting: the ledger writer reads no more answers.'));
    clearTimeout(this.idleTimer);
    const worker = this.worker ?? this.startWorker();
    const answer = this.nextAnswer++;
    return new Promise((resolve, reject) => {
      this.reads.set(answer, {
        resolve: (read) => {
          if (read.json && read.batch !== null) this.held.add(read.answer);
          resolve(read);
        },
        reject,
      });
      worker.postMessage({ kind: 'read', answer, bytes } satisfies LedgerWrite, [bytes]);
    });
  }

  private onRead(read: LedgerReadAnswer): void {
    const pending = this.reads.get(read.answer);
    this.reads.delete(read.answer);
    this.workerHeapBytes = read.heapBytes;
    pending?.resolve(read);
    this.whenIdle();
  }

  private release(answer: number): void {
    if (!this.held.delete(answer)) return;
    this.worker?.postMessage({ kind: 'release', answer } satisfies LedgerWrite);
    this.whenIdle();
  }

  private failReads(why: string): void {
    const reads = [...this.reads.values()];
    this.reads.clear();
    for (const r of reads) r.reject(new Error(`The answer could not be read: ${why}.`));
  }

  // ---- the queue -------------------------------------------------------------------------------------------

  private enqueue(profileId: string, seenAt: string, payload: Payload, size: number): Promise<WriteOutcome> {
    if (size === 0) return Promise.resolve({ written: 0, failed: 0, failure: null });
    if (this.closing)
      return Promise.resolve({ written: 0, failed: size, failure: 'Keydesk is quitting: the ledger takes no more writes.' });
    clearTimeout(this.idleTimer);
    return new Promise((done) => {
      const op: Op = { profileId, seenAt, payload, size, posted: 0, left: size, failed: 0, firstError: undefined, done, after: [] };
      this.queue.push(op);
      this.addPending(profileId, size);
      this.changed(profileId);
      this.schedulePump();
    });
  }

  /** Posting waits for the next turn of the event loop: the caller (a handler answering) goes first. */
  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  /** Hands the worker the next parts of the queue, at most AHEAD at a time; starts a worker when there is work. */
  private pump(): void {
    if (this.terminated) return;
    const work = () => this.resend.length > 0 || this.queue.some((o) => o.posted < o.size);
    if (this.worker === null && work()) this.startWorker();
    while (this.worker !== null && this.inFlight.size < AHEAD && work()) {
      const again = this.resend.shift();
      if (again) {
        this.post(again);
        continue;
      }
      const op = this.queue.find((o) => o.posted < o.size);
      if (op) this.post(this.nextPart(op));
    }
  }

  private nextPart(op: Op): Part {
    const seq = this.nextSeq++;
    const base = { seq, profileId: op.profileId, seenAt: op.seenAt };
    const p = op.payload;
    let message: LedgerRowWrite;
    let size = 1;
    if (p.kind === 'keys') {
      // Serialised here, one chunk per turn of the event loop: a few milliseconds each, never the whole batch.
      const chunk = p.keys.slice(op.posted, op.posted + LEDGER_CHUNK);
      size = chunk.length;
      message = { ...base, kind: 'keys', keys: JSON.stringify(chunk) };
    } else if (p.kind === 'held') {
      // The worker has the keys: only which rows to write crosses over.
      size = Math.min(LEDGER_CHUNK, op.size - op.posted);
      message = { ...base, kind: 'held', answer: p.answer, from: op.posted, to: op.posted + size };
    } else if (p.kind === 'deleted') {
      message = { ...base, kind: 'deleted', value: p.value };
    } else if (p.kind === 'hwidCleared') {
      message = { ...base, kind: 'hwidCleared', value: p.value };
    } else {
      message = { ...base, kind: 'reported', key: p.key };
    }
    op.posted += size;
    return { op, size, message, attempts: 0 };
  }

  private post(part: Part): void {
    part.attempts++;
    this.inFlight.set(part.message.seq, part);
    this.worker?.postMessage(part.message);
  }

  private onAck(ack: LedgerWriteAck): void {
    const part = this.inFlight.get(ack.seq);
    if (!part) return;
    this.inFlight.delete(ack.seq);
    this.crashesInARow = 0;
    this.workerHeapBytes = ack.heapBytes;
    if (ack.ok) this.ended(part.op, part.size, undefined);
    else {
      console.error(`keydesk: the ledger writer could not write ${part.size} row(s) (SQLite ${ack.errcode ?? '?'}): ${ack.message}`);
      this.ended(part.op, part.size, ack.errcode);
    }
    this.pump();
  }

  /** `rows` of `op` ended: written (`error` undefined) or not (SQLite's code, or null when the worker stopped). */
  private ended(op: Op, rows: number, error: number | null | undefined): void {
    op.left -= rows;
    if (error !== undefined) {
      op.failed += rows;
      if (op.firstError === undefined) op.firstError = error;
    }
    this.addPending(op.profileId, -rows);
    if (op.left > 0) {
      // The count shown goes down as the rows go in, a few times a second at most.
      const now = performance.now();
      if (now - (this.lastProgress.get(op.profileId) ?? Number.NEGATIVE_INFINITY) >= PROGRESS_EVERY_MS) {
        this.lastProgress.set(op.profileId, now);
        this.changed(op.profileId);
      }
      return;
    }
    const i = this.queue.indexOf(op);
    if (i >= 0) this.queue.splice(i, 1);
    let failure: string | null = null;
    if (op.failed > 0) {
      failure = failureWords(op, dirname(this.options.file));
      this.failures.set(op.profileId, failure);
      const words = failure;
      this.tell('onFailure', () => this.options.onFailure?.(op.profileId, words));
    } else if (op.payload.kind === 'keys' || op.payload.kind === 'held') {
      this.failures.delete(op.profileId);
    }
    op.done({ written: op.size - op.failed, failed: op.failed, failure });
    for (const after of op.after) after();
    this.changed(op.profileId);
    this.whenIdle();
  }

  /** With nothing left to do: wakes idle() waiters and lets the thread go later. */
  private whenIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
    this.tell('onIdle', () => this.options.onIdle?.());
    this.stopWhenStillIdle();
  }

  /** Lets the thread go once nothing has been queued for WRITER_IDLE_MS. */
  private stopWhenStillIdle(): void {
    clearTimeout(this.idleTimer);
    const idleMs = Math.max(this.options.idleMs ?? WRITER_IDLE_MS, this.lingerUntil - performance.now());
    const waitMs = this.workerHeapBytes > LARGE_WORKER_HEAP_BYTES ? 0 : idleMs;
    this.idleTimer = setTimeout(() => {
      const worker = this.worker;
      if (worker === null || !this.isIdle() || this.closing || this.unindexed > 0) return;
      // Forgotten first, so its exit is not taken for a crash; a write queued from now on starts a new thread.
      this.worker = null;
      this.urgent?.close();
      this.urgent = null;
      worker.postMessage({ kind: 'stop' } satisfies LedgerWrite);
    }, waitMs);
    this.idleTimer.unref();
  }

  /** Nothing queued or in the worker's hands: no write, no answer being read, no keys held for a write to come. */
  private isIdle(): boolean {
    const ledger = this.queue.length === 0 && this.inFlight.size === 0 && this.reads.size === 0 && this.held.size === 0;
    return ledger && this.commands.size === 0;
  }

  private addPending(profileId: string, n: number): void {
    const now = (this.pending.get(profileId) ?? 0) + n;
    if (now > 0) this.pending.set(profileId, now);
    else this.pending.delete(profileId);
  }

  private changed(profileId: string): void {
    const state = { profileId, recording: this.recording(profileId), failure: this.failure(profileId), busy: this.waitingForFile };
    this.tell('onChange', () => this.options.onChange?.(state));
  }

  /** A listener that throws (an audit insert on a closing database, say) must not stop the queue. */
  private tell(what: string, listener: () => void): void {
    try {
      listener();
    } catch (error) {
      console.error(`keydesk: the ledger writer's ${what} listener failed:`, error);
    }
  }

  // ---- the worker ------------------------------------------------------------------------------------------

  private startWorker(): Worker {
    const channel = new MessageChannel();
    const workerData: LedgerWorkerData = { file: this.options.file, cacheKiB: WORKER_CACHE_KIB, urgent: channel.port2 };
    const worker = new Worker(workerUrl(), {
      ...THREAD_STDERR,
      workerData,
      transferList: [channel.port2],
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MIB },
    });
    logWorkerOutput(worker, 'ledger writer');
    // The queue, not the thread, keeps Keydesk's work alive: close() flushes it before quitting.
    worker.unref();
    channel.port1.unref();
    worker.on('message', (message: LedgerWorkerMessage) => {
      // A thread told to stop was let go first, so its 'stopped' never gets here.
      if (this.worker !== worker) return;
      if ('command' in message) this.onCommand(message);
      else if ('answer' in message) this.onRead(message);
      else if ('seq' in message) this.onAck(message);
      else if (message.kind === 'busy') this.onBusy(message.busy);
      else if (message.kind === 'indexing') this.onIndexing(message.left);
    });
    channel.port1.on('message', (message: CommandAnswer) => {
      if (this.worker === worker) this.onCommand(message);
    });
    worker.on('error', (error) => {
      console.error('keydesk: the writer thread failed:', error);
    });
    worker.on('exit', (code) => {
      if (this.worker === worker) this.onWorkerExit(code);
    });
    this.worker = worker;
    this.urgent = channel.port1;
    this.workerHeapBytes = 0;
    this.unindexed = 0;
    return worker;
  }

  /** Every profile with rows waiting hears whether they wait for the file (All keys says so). */
  private onBusy(busy: boolean): void {
    if (busy) console.error('keydesk: keydesk.db is locked by another program; the ledger writes wait and are tried again.');
    this.waitingForFile = busy;
    for (const profileId of this.pending.keys()) this.changed(profileId);
  }

  private onIndexing(left: number): void {
    this.unindexed = left;
    if (left === 0 && this.isIdle()) this.stopWhenStillIdle();
  }

  private onCommand(answer: CommandAnswer): void {
    this.commands.answer(answer);
    this.whenIdle();
  }

  /**
   * The worker died (not stopped by close): what it held goes once more to a new one, first and in order; a part
   * sent twice, or all of the queue after repeated deaths with nothing written between, is reported not recorded.
   */
  private onWorkerExit(code: number): void {
    console.error(`keydesk: the writer thread stopped (exit code ${code}) with ${this.inFlight.size} write(s) in its hands.`);
    this.worker = null;
    this.waitingForFile = false;
    this.urgent?.close();
    this.urgent = null;
    this.crashesInARow++;
    this.commands.refuseAll('the writer thread stopped unexpectedly');
    // Answers it was reading are lost (the caller reports the call's outcome as unknown), and so are the keys it
    // held: their writes, queued or to come, are answered as not recorded by the next thread.
    this.failReads('the ledger writer stopped unexpectedly');
    this.held.clear();
    const held = [...this.inFlight.values()];
    this.inFlight.clear();
    const giveUp = this.crashesInARow >= MAX_CRASHES_IN_A_ROW;
    for (const part of held) {
      // Held keys went with the thread: sending their rows again would only be refused.
      if (giveUp || part.attempts >= MAX_ATTEMPTS || part.op.payload.kind === 'held') this.ended(part.op, part.size, null);
      else this.resend.push(part);
    }
    for (const op of this.queue.filter((o) => o.payload.kind === 'held' && o.posted < o.size)) {
      const unposted = op.size - op.posted;
      op.posted = op.size;
      this.ended(op, unposted, null);
    }
    if (giveUp) {
      for (const part of this.resend) this.ended(part.op, part.size, null);
      this.resend = [];
      for (const op of [...this.queue]) this.ended(op, op.left, null);
      this.crashesInARow = 0;
    }
    this.pump();
  }
}
