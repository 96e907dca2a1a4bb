// The ledger writer's thread: its own connection to keydesk.db (WAL, so main keeps reading while it writes), and
// the writes main hands it, one at a time in the order posted, each chunk in its own transaction (LocalDb's). A
// write SQLite refuses is answered as refused and the next one goes on; the thread itself stays up.
// It also reads generate answers for main: the body's bytes come here, the keys are read and held here until
// main has judged the answer and says to write them, and main gets back only the body and the keys as a batch.
import { parentPort, workerData } from 'node:worker_threads';
import type { Key } from '../../shared/domain.ts';
import { toKeyBatch } from '../../shared/key-batch.ts';
import { isObject, readKeys } from '../client/read.ts';
import { LocalDb } from './local-db.ts';
import type { LedgerRead, LedgerReadAnswer, LedgerRowWrite, LedgerWorkerData, LedgerWrite, LedgerWriteAck } from './ledger-writer-protocol.ts';

const port = parentPort;
if (port === null) throw new Error('ledger-writer.worker.ts runs only as a worker thread.');
const data = workerData as LedgerWorkerData;
const db = new LocalDb(data.file, { cacheKiB: data.cacheKiB, busyTimeoutMs: data.busyTimeoutMs });
/** Keys read from answers, by answer, until written or let go. */
const held = new Map<number, Key[]>();
/** How much of a body that is not JSON goes back to main, for its message (an HTML page's title, say). */
const HEAD_CHARS = 4_096;

/** Not SQLite's: a held write whose keys this thread does not have (they went with a thread that stopped). */
class LostKeys extends Error {}

function apply(w: LedgerRowWrite): void {
  switch (w.kind) {
    case 'keys':
      db.recordKeys(w.profileId, JSON.parse(w.keys) as Key[], w.seenAt);
      return;
    case 'held': {
      const keys = held.get(w.answer);
      if (keys === undefined) throw new LostKeys('the keys read from the answer went with a ledger writer thread that stopped');
      try {
        db.recordKeys(w.profileId, keys.slice(w.from, w.to), w.seenAt);
      } finally {
        if (w.to >= keys.length) held.delete(w.answer);
      }
      return;
    }
    case 'deleted':
      db.markDeleted(w.profileId, w.value, w.seenAt);
      return;
    case 'reported':
      db.recordReportedFields(w.profileId, w.key, w.seenAt);
  }
}

/** A generate answer's body: its keys as the client reads them (read.ts, the same tolerance), held here. */
function read(r: LedgerRead): LedgerReadAnswer {
  const text = new TextDecoder().decode(r.bytes);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { answer: r.answer, json: false, head: text.slice(0, HEAD_CHARS) };
  }
  if (!isObject(json) || !Array.isArray(json.generatedKeys)) return { answer: r.answer, json: true, body: json, batch: null };
  const { generatedKeys, ...body } = json;
  const keys = readKeys(generatedKeys, 'generated');
  held.set(r.answer, keys);
  return { answer: r.answer, json: true, body, batch: toKeyBatch(keys) };
}

port.on('message', (w: LedgerWrite) => {
  if (w.kind === 'stop') {
    // Main has nothing queued and has let go of this thread: with the port closed nothing keeps it alive, and
    // its heap, page cache and allocator arena go back to the system with it.
    port.close();
    return;
  }
  if (w.kind === 'release') {
    held.delete(w.answer);
    return;
  }
  if (w.kind === 'read') {
    port.postMessage(read(w));
    return;
  }
  let ack: LedgerWriteAck;
  try {
    apply(w);
    ack = { seq: w.seq, ok: true };
  } catch (error) {
    const e = error as { errcode?: unknown; message?: unknown } | null;
    ack = { seq: w.seq, ok: false, errcode: typeof e?.errcode === 'number' ? e.errcode : null, message: typeof e?.message === 'string' ? e.message : String(error) };
  }
  port.postMessage(ack);
});
port.on('close', () => {
  db.close();
});
