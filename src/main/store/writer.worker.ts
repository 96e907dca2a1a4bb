// The writer's thread: its own connection to keydesk.db (WAL, so main keeps reading while it writes), and the
// writes main hands it, one at a time in the order posted, each in its own transaction, with every claim waiting
// served first. A write the file refuses for a moment (another program holds its lock) is tried again, and those
// after it wait; one SQLite truly refuses is answered as refused, and the next one goes on.
// It also reads generate answers for main: the body's bytes come here, the keys are read and held here until
// main has judged the answer and says to write them, and main gets back only the body and the keys as a batch.
import { getHeapStatistics } from 'node:v8';
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import type { Key } from '../../shared/domain.ts';
import { batchBuffers, keyOf, packColumns, type KeyColumns } from '../../shared/key-batch.ts';
import { collectAllGarbage } from './collect-garbage.ts';
import { readGenerateAnswer } from './generate-answer.ts';
import { LocalDb, type RunEndRecord, type SettleBatch } from './local-db.ts';
import type {
  CommandAnswer,
  JobCommand,
  LedgerBusy,
  LedgerRead,
  LedgerReadAnswer,
  LedgerReading,
  LedgerRowWrite,
  LedgerIndexing,
  LedgerStopped,
  LedgerWorkerData,
  LedgerWrite,
  LedgerWriteAck,
} from './writer-protocol.ts';

if (parentPort === null) throw new Error('writer.worker.ts runs only as a worker thread.');
const port: MessagePort = parentPort;
const data = workerData as LedgerWorkerData;
/** How long one try waits inside SQLite for another program's lock; then the write waits its turn to try again. */
const BUSY_MS = 50;
/** The pause between tries of a write the file refused for a moment: doubling from the first, up to the most. */
const RETRY_FIRST_MS = 10;
const RETRY_MOST_MS = 500;
const db = new LocalDb(data.file, { cacheKiB: data.cacheKiB, busyMs: BUSY_MS, deferText: true });
/**
 * Keys read from answers, by answer, until written or let go: as their batch (values, shared fields once), and
 * made whole a chunk at a time as they are written, so 100,000 key objects do not live here either.
 */
const held = new Map<number, KeyColumns>();
/** How much of a body that is not JSON goes back to main, for its message (an HTML page's title, say). */
const HEAD_CHARS = 4_096;

/** With no message for this long, the thread writes the text entries of the rows it wrote (LocalDb.indexText). */
const INDEX_IDLE_MS = 200;
/** Rows whose entries one transaction writes: a message that comes meanwhile waits for one slice at most. */
const INDEX_SLICE = 5_000;
let indexTimer: NodeJS.Timeout | undefined;
/** Rows waiting for their text entries, and sort indexes dropped for a large batch, as last counted. */
let unindexed = 0;
/** How long answers main said are coming (`expect`) hold back building dropped indexes: a failed request sends none. */
const EXPECT_MS = 30_000;
/** Answers main said are coming and not yet read, and until when the last of them is waited for. */
let coming = 0;
let comingUntil = 0;

/** Tells main how much index work is left (it keeps the thread while any is). */
function tellUnindexed(): void {
  unindexed = db.unindexed() + db.droppedIndexes().length + (db.checkpointDue() ? 1 : 0);
  port.postMessage({ kind: 'indexing', left: unindexed } satisfies LedgerIndexing);
}

/** The next slice of index work, `after` ms from now (each message puts it off: writes go first). */
function indexLater(after: number): void {
  clearTimeout(indexTimer);
  if (unindexed > 0) indexTimer = setTimeout(indexSlice, after);
}

/** Whether an answer still to be written (held, or on its way) would land in the indexes if built now. */
const moreComing = (): boolean => held.size > 0 || (coming > 0 && performance.now() < comingUntil);

function indexSlice(): void {
  // Writes waiting for the file go first; the index waits for them.
  if (waiting.length > 0) {
    indexLater(INDEX_IDLE_MS);
    return;
  }
  try {
    // A dropped sort index first (a sort without it reads the whole ledger), once no large batch is on its way.
    if (db.droppedIndexes().length > 0 && !moreComing()) db.buildIndex();
    else if (db.checkpointDue() && !moreComing()) db.checkpoint();
    else if (db.unindexed() > 0) db.indexText(INDEX_SLICE);
    else {
      indexLater(INDEX_IDLE_MS);
      return;
    }
    tellUnindexed();
    indexLater(0);
  } catch (error) {
    // Rows not indexed are still found (a filter or sort reads the table): tried again after a longer wait.
    console.error('keydesk: the writer thread could not index the ledger:', error);
    indexLater(INDEX_IDLE_MS * 25);
  }
}

/** Not SQLite's: a held write whose keys this thread does not have (they went with a thread that stopped). */
class LostKeys extends Error {}

function apply(w: LedgerRowWrite): void {
  switch (w.kind) {
    case 'keys':
      db.recordKeys(w.profileId, JSON.parse(w.keys) as Key[], w.seenAt);
      return;
    case 'held': {
      const batch = held.get(w.answer);
      if (batch === undefined) throw new LostKeys('the keys read from the answer went with a ledger writer thread that stopped');
      if (w.from === 0) db.dropIndexes(batch.values.length);
      if (db.recordShared(w.profileId, batch, w.from, w.to, w.seenAt)) return;
      const keys: Key[] = [];
      for (let i = w.from; i < Math.min(w.to, batch.values.length); i++) keys.push(keyOf(batch, i));
      db.recordKeys(w.profileId, keys, w.seenAt);
      return;
    }
    case 'deleted':
      db.markDeleted(w.profileId, w.value, w.seenAt);
      return;
    case 'hwidCleared':
      db.markHwidCleared(w.profileId, [w.value], w.seenAt);
      return;
    case 'reported':
      db.recordReportedFields(w.profileId, w.key, w.seenAt);
  }
}

/** A generate answer's body: its keys read as the client reads them (read.ts), held here as a batch. */
function read(r: LedgerRead): LedgerReading {
  const text = new TextDecoder().decode(r.bytes);
  let answer;
  try {
    answer = readGenerateAnswer(text);
  } catch {
    return { answer: r.answer, json: false, head: text.slice(0, HEAD_CHARS) };
  }
  if (answer.batch !== null) held.set(r.answer, answer.batch);
  return { answer: r.answer, json: true, body: answer.body, batch: answer.batch && packColumns(answer.batch) };
}

/** What a command writes, and what it returns (null for nothing). */
function applyCommand(c: JobCommand): unknown {
  switch (c.kind) {
    case 'claim':
      return db.jobStep(null, { jobId: c.jobId, max: c.max, retry: c.retry });
    case 'thinWindow':
      return db.thinSampleWindow(c.window);
    case 'createJob':
      return db.createJob(c.job, c.items);
    case 'interrupt':
      return db.interruptRunningJobs(c.reason, c.at, c.ends, c.sent);
    case 'jobState':
      db.setJobState(c.jobId, c.state, c.reason, c.finishedAt);
      break;
    case 'beginRun':
      // What an earlier run left claimed is settled by its own log first; the yes to send unknown items again is
      // taken now the run surely starts.
      db.settleLeftoverClaims(c.jobId, c.log);
      if (c.retryUnknown) db.approveUnknownJobItems(c.jobId);
      db.beginJobRun(c.jobId, c.at);
      return db.jobCounts(c.jobId);
    case 'forgetJob':
      db.forgetJob(c.jobId);
      break;
    case 'renewalTemplate':
      db.setRenewalTemplate(c.profileId, c.template);
      return null;
    case 'ceiling':
      db.setBulkCeiling(c.profileId, c.ceiling);
      break;
    case 'settle':
      db.settleJobItems(JSON.parse(c.batch) as SettleBatch, c.at);
      break;
    case 'end': {
      const end = JSON.parse(c.end) as RunEndRecord;
      db.endJobRun(end.jobId, end.state, end.reason, end.finishedAt);
      return db.jobCounts(end.jobId);
    }
    case 'markStale':
      db.markStale(c.profileId, c.what, c.values);
      break;
    case 'audit':
      return db.audit(c.entry);
    case 'settleAudit':
      db.settleAudit(c.id, c.outcome, c.message, c.after);
      break;
    case 'sample':
      db.recordSample(c.profileId, c.count, c.at);
      break;
    case 'capabilities':
      db.setCapabilities(c.profileId, c.found);
      break;
    case 'hwidEvents':
      db.recordHwidEvents(c.events);
      break;
    case 'runAlive':
      db.runAlive(c.startedAt, c.at);
      break;
    case 'firstRunStep':
      db.markFirstRunStep(c.profileId, c.step, c.at);
      break;
    case 'customers':
      return db.changeCustomers(c.change);
  }
  return null;
}

const heapBytes = () => getHeapStatistics().total_heap_size;

/** Writes in the order they came, from the first the file refused for a moment; each answers for itself once made. */
const waiting: (() => boolean)[] = [];
/** The pause before the next try; 0 while no write waits for the file. */
let retryMs = 0;

/** SQLITE_BUSY: another connection holds the file's lock, and the same write goes in once it lets go. */
function isBusy(error: unknown): boolean {
  const code = (error as { errcode?: unknown } | null)?.errcode;
  return typeof code === 'number' && (code & 0xff) === 5;
}

/** Makes `write` (false: refused for a moment, nothing written) now, or after those waiting: commits in the order they came. */
function inOrder(write: () => boolean): void {
  waiting.push(write);
  if (waiting.length === 1) drain();
}

/** Makes the waiting writes in order; the first the file refuses is tried again after a pause that grows. */
function drain(): void {
  for (let write = waiting.at(0); write !== undefined; write = waiting.at(0)) {
    if (!write()) {
      if (retryMs === 0) port.postMessage({ kind: 'busy', busy: true } satisfies LedgerBusy);
      retryMs = Math.min(Math.max(retryMs * 2, RETRY_FIRST_MS), RETRY_MOST_MS);
      setTimeout(drain, retryMs);
      return;
    }
    waiting.shift();
  }
  if (retryMs > 0) port.postMessage({ kind: 'busy', busy: false } satisfies LedgerBusy);
  retryMs = 0;
}

/** `write` in one transaction, its outcome posted; false (nothing written, nothing posted) while the file is busy. */
function tried<T>(write: () => T, post: (o: { ok: true; result: T } | { ok: false; message: string; errcode: number | null }) => void) {
  return (): boolean => {
    let result: T;
    try {
      result = db.transaction(write);
    } catch (error) {
      if (isBusy(error)) return false;
      const e = error as { errcode?: unknown; message?: unknown } | null;
      const errcode = typeof e?.errcode === 'number' ? e.errcode : null;
      post({ ok: false, message: typeof e?.message === 'string' ? e.message : String(error), errcode });
      return true;
    }
    post({ ok: true, result });
    return true;
  };
}

/** A command, answered on the port it came by. */
function command(c: JobCommand, answerOn: { postMessage(a: CommandAnswer): void }): () => boolean {
  return tried(
    () => applyCommand(c),
    (o) => {
      answerOn.postMessage({ command: c.command, ...o });
    },
  );
}

/** A chunk of ledger rows (or one row's change), acknowledged to main; the answer's last chunk lets its keys go. */
function rows(w: LedgerRowWrite): () => boolean {
  return tried(
    () => {
      apply(w);
    },
    (o) => {
      if (w.kind === 'held' && w.to >= (held.get(w.answer)?.values.length ?? 0)) held.delete(w.answer);
      port.postMessage({ seq: w.seq, heapBytes: heapBytes(), ...(o.ok ? { ok: true } : o) } satisfies LedgerWriteAck);
      // Also after a failure: a first chunk refused still put the checkpoint off (dropIndexes), for idle to make.
      if (w.kind === 'keys' || w.kind === 'held') tellUnindexed();
    },
  );
}

/** Urgent commands that came while other writes were made: a job's requests are waiting for its claims. */
function claimsWaiting(): void {
  for (let m = receiveMessageOnPort(data.urgent); m !== undefined; m = receiveMessageOnPort(data.urgent))
    inOrder(command(m.message as JobCommand, data.urgent));
}

data.urgent.on('message', (c: JobCommand) => {
  inOrder(command(c, data.urgent));
});
port.on('message', (w: LedgerWrite) => {
  clearTimeout(indexTimer);
  onMessage(w);
  if (w.kind !== 'stop') indexLater(INDEX_IDLE_MS);
});

function onMessage(w: LedgerWrite): void {
  if (w.kind === 'stop') {
    data.urgent.close();
    // Main has nothing queued and has let go of this thread: with the port closed nothing keeps it alive, and
    // its heap, page cache and allocator arena go back to the system with it (its V8 pages once collected here).
    // A collection that fails is not worth a thread error: the thread still ends, as asked.
    let collected = false;
    try {
      collected = collectAllGarbage();
    } catch (error) {
      console.error('keydesk: the writer thread could not collect its heap before it ended:', error);
    } finally {
      port.postMessage({ kind: 'stopped', collected } satisfies LedgerStopped);
      port.close();
    }
    return;
  }
  if (w.kind === 'release') {
    held.delete(w.answer);
    return;
  }
  if (w.kind === 'expect') {
    coming++;
    comingUntil = performance.now() + EXPECT_MS;
    return;
  }
  if (w.kind === 'read') {
    coming = Math.max(0, coming - 1);
    const reading = read(w);
    // The batch's column bytes are handed over, not copied: this thread keeps its own columns to write from.
    const transfer = reading.json && reading.batch !== null ? batchBuffers(reading.batch) : [];
    port.postMessage({ ...reading, heapBytes: heapBytes() } satisfies LedgerReadAnswer, transfer);
    return;
  }
  claimsWaiting();
  inOrder('command' in w ? command(w, port) : rows(w));
}
port.on('close', () => {
  db.close();
});
// Rows a thread before this one left without their text entries (it quit or stopped mid-way) are indexed too.
// Sort indexes a thread left dropped are built again too.
if (db.unindexed() + db.droppedIndexes().length > 0) tellUnindexed();
indexLater(INDEX_IDLE_MS);
