// The ledger writer's thread: its own connection to keydesk.db (WAL, so main keeps reading while it writes), and
// the writes main hands it, one at a time in the order posted, each chunk in its own transaction (LocalDb's). A
// write SQLite refuses is answered as refused and the next one goes on; the thread itself stays up.
import { parentPort, workerData } from 'node:worker_threads';
import type { Key } from '../../shared/domain.ts';
import { LocalDb } from './local-db.ts';
import type { LedgerRowWrite, LedgerWorkerData, LedgerWrite, LedgerWriteAck } from './ledger-writer-protocol.ts';

const port = parentPort;
if (port === null) throw new Error('ledger-writer.worker.ts runs only as a worker thread.');
const data = workerData as LedgerWorkerData;
const db = new LocalDb(data.file, { cacheKiB: data.cacheKiB, busyTimeoutMs: data.busyTimeoutMs });

function apply(w: LedgerRowWrite): void {
  switch (w.kind) {
    case 'keys':
      db.recordKeys(w.profileId, JSON.parse(w.keys) as Key[], w.seenAt);
      return;
    case 'deleted':
      db.markDeleted(w.profileId, w.value, w.seenAt);
      return;
    case 'reported':
      db.recordReportedFields(w.profileId, w.key, w.seenAt);
  }
}

port.on('message', (w: LedgerWrite) => {
  if (w.kind === 'stop') {
    // Main has nothing queued and has let go of this thread: with the port closed nothing keeps it alive, and
    // its heap, page cache and allocator arena go back to the system with it.
    port.close();
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
