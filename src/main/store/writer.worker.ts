// The writer's thread: its own connection to keydesk.db (WAL, so main keeps reading while it writes), and the
// writes main hands it, one at a time in the order posted, each in its own transaction, with every claim waiting
// served first. A write SQLite refuses is answered as refused and the next one goes on; the thread stays up.
// It also reads generate answers for main: the body's bytes come here, the keys are read and held here until
// main has judged the answer and says to write them, and main gets back only the body and the keys as a batch.
import { getHeapStatistics } from 'node:v8';
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import type { Key } from '../../shared/domain.ts';
import { batchBuffers, keyOf, packColumns, type KeyColumns } from '../../shared/key-batch.ts';
import { collectAllGarbage } from './collect-garbage.ts';
import { readGenerateAnswer } from './generate-answer.ts';
import { LocalDb, type RunEndRecord, type SettleBatch } from './local-db.ts';
import type {
  CommandAnswer,
  JobCommand,
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

const port = parentPort;
if (port === null) throw new Error('writer.worker.ts runs only as a worker thread.');
const data = workerData as LedgerWorkerData;
const db = new LocalDb(data.file, { cacheKiB: data.cacheKiB, deferText: true });
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
/** Rows waiting for their text entries, as last counted. */
let unindexed = 0;

/** Tells main how many rows wait for their text entries (it keeps the thread while any do). */
function tellUnindexed(left: number): void {
  unindexed = left;
  port?.postMessage({ kind: 'indexing', left } satisfies LedgerIndexing);
}

/** The next slice of text entries, `after` ms from now (each message puts it off: writes go first). */
function indexLater(after: number): void {
  clearTimeout(indexTimer);
  if (unindexed > 0) indexTimer = setTimeout(indexSlice, after);
}

function indexSlice(): void {
  try {
    tellUnindexed(db.indexText(INDEX_SLICE));
    indexLater(0);
  } catch (error) {
    // Rows not indexed are still found (a text filter scans them): tried again after a longer wait.
    console.error('keydesk: the writer thread could not index the ledger text:', error);
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
      try {
        const keys: Key[] = [];
        for (let i = w.from; i < Math.min(w.to, batch.values.length); i++) keys.push(keyOf(batch, i));
        db.recordKeys(w.profileId, keys, w.seenAt);
      } finally {
        if (w.to >= batch.values.length) held.delete(w.answer);
      }
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
      break;
    case 'forgetJob':
      db.forgetJob(c.jobId);
      break;
    case 'ceiling':
      db.setBulkCeiling(c.profileId, c.ceiling);
      break;
    case 'settle':
      db.settleJobItems(JSON.parse(c.batch) as SettleBatch, c.at);
      break;
    case 'end': {
      const end = JSON.parse(c.end) as RunEndRecord;
      db.endJobRun(end.jobId, end.state, end.reason, end.finishedAt);
      break;
    }
    case 'markStale':
      db.markStale(c.profileId, c.what, c.values);
      break;
    case 'audit':
      return db.audit(c.entry);
    case 'settleAudit':
      db.settleAudit(c.id, c.outcome, c.message);
      break;
    case 'sample':
      db.recordSample(c.profileId, c.count, c.at);
  }
  return null;
}

/** A command, answered on the port it came by. */
function command(c: JobCommand, answerOn: { postMessage(a: CommandAnswer): void }): void {
  let answer: CommandAnswer;
  try {
    answer = { command: c.command, ok: true, result: applyCommand(c) };
  } catch (error) {
    const errcode = (error as { errcode?: unknown } | null)?.errcode;
    const message = error instanceof Error ? error.message : String(error);
    answer = { command: c.command, ok: false, message, errcode: typeof errcode === 'number' ? errcode : null };
  }
  answerOn.postMessage(answer);
}

/** Urgent commands that came while other writes were made: a job's requests are waiting for its claims. */
function claimsWaiting(): void {
  for (let m = receiveMessageOnPort(data.urgent); m !== undefined; m = receiveMessageOnPort(data.urgent))
    command(m.message as JobCommand, data.urgent);
}

data.urgent.on('message', (c: JobCommand) => {
  command(c, data.urgent);
});
port.on('message', (w: LedgerWrite) => {
  clearTimeout(indexTimer);
  onMessage(w);
  if (w.kind !== 'stop') indexLater(INDEX_IDLE_MS);
});

const onMessage = (w: LedgerWrite): void => {
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
  claimsWaiting();
  if ('command' in w) {
    command(w, port);
    return;
  }
  const heapBytes = () => getHeapStatistics().total_heap_size;
  if (w.kind === 'read') {
    const reading = read(w);
    // The batch's column bytes are handed over, not copied: this thread keeps its own columns to write from.
    const transfer = reading.json && reading.batch !== null ? batchBuffers(reading.batch) : [];
    port.postMessage({ ...reading, heapBytes: heapBytes() } satisfies LedgerReadAnswer, transfer);
    return;
  }
  let ack: LedgerWriteAck;
  try {
    apply(w);
    ack = { seq: w.seq, ok: true, heapBytes: heapBytes() };
    if (w.kind === 'keys' || w.kind === 'held') tellUnindexed(db.unindexed());
  } catch (error) {
    const e = error as { errcode?: unknown; message?: unknown } | null;
    const message = typeof e?.message === 'string' ? e.message : String(error);
    ack = { seq: w.seq, ok: false, errcode: typeof e?.errcode === 'number' ? e.errcode : null, message, heapBytes: heapBytes() };
  }
  port.postMessage(ack);
};
port.on('close', () => {
  db.close();
});
