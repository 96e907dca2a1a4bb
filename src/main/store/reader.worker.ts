// The ledger reader's thread (reader.ts): its own read-only connection, answering one read at a time.
import { parentPort, workerData } from 'node:worker_threads';
import { LocalDb } from './local-db.ts';
import type { ReaderAnswer, ReaderAsk, ReaderWorkerData } from './reader.ts';

const port = parentPort;
if (port === null) throw new Error('reader.worker.ts runs only as a worker thread.');
const data = workerData as ReaderWorkerData;
const db = new LocalDb(data.file, { cacheKiB: data.cacheKiB, readOnly: true, background: data.background });

port.on('message', (message: ReaderAsk) => {
  if (message.kind === 'stop') {
    db.close();
    port.close();
    return;
  }
  if (message.kind === 'written') {
    // The writer's commits made this connection's cached pages stale; deep-page anchors catch up once.
    db.releaseMemory();
    db.ledgerWritten();
    return;
  }
  let answer: ReaderAnswer;
  try {
    const value =
      message.kind === 'queryLedger'
        ? db.queryLedger(...message.args)
        : message.kind === 'expiryWeeks'
          ? db.expiryWeeks(...message.args)
          : db.seekLedger(...message.args);
    answer = { ask: message.ask, ok: true, value };
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    answer = {
      ask: message.ask,
      ok: false,
      message: error instanceof Error ? error.message : String(error),
      code: typeof code === 'string' ? code : null,
    };
  }
  port.postMessage(answer);
});
