// The ledger reader's thread (reader.ts): its own read-only connection, answering one read at a time.
import { parentPort, workerData } from 'node:worker_threads';
import { LocalDb } from './local-db.ts';
import type { ReaderAnswer, ReaderAsk, ReaderWorkerData } from './reader.ts';

const port = parentPort;
if (port === null) throw new Error('reader.worker.ts runs only as a worker thread.');
const data = workerData as ReaderWorkerData;
const db = new LocalDb(data.file, { cacheKiB: data.cacheKiB, readOnly: true });

port.on('message', (message: ReaderAsk) => {
  if (message.kind === 'stop') {
    db.close();
    port.close();
    return;
  }
  let answer: ReaderAnswer;
  try {
    answer = { ask: message.ask, ok: true, page: db.queryLedger(...message.args) };
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
