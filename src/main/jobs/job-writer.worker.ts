// The job writer's thread (job-writer.ts): writes a job's answers in the order posted, each group in its own
// transaction, with every claim waiting served before each group; a refused write is answered refused (`busy`: a lock).
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { isSqliteBusy, LocalDb, type SettleBatch } from '../store/local-db.ts';
import type { JobRunEnd, JobWriterAnswer, JobWriterClaim, JobWriterData, JobWriterRequest } from './job-writer.ts';

const port = parentPort;
if (port === null) throw new Error('job-writer.worker.ts runs only as a worker thread.');
const data = workerData as JobWriterData;
const db = new LocalDb(data.file, { cacheKiB: data.cacheKiB, busyTimeoutMs: data.busyTimeoutMs });

function refused(id: number, error: unknown): JobWriterAnswer {
  return { id, ok: false, message: error instanceof Error ? error.message : String(error), busy: isSqliteBusy(error) };
}

function claim(c: JobWriterClaim): void {
  let answer: JobWriterAnswer;
  try {
    answer = { id: c.id, ok: true, claimed: db.jobStep(null, { jobId: c.jobId, max: c.max, retry: c.retry === true }) };
  } catch (error) {
    answer = refused(c.id, error);
  }
  data.claims.postMessage(answer);
}

/** Claims that came while answers were written: the requests are waiting for them. */
function claimsWaiting(): void {
  for (let m = receiveMessageOnPort(data.claims); m !== undefined; m = receiveMessageOnPort(data.claims))
    claim(m.message as JobWriterClaim);
}

data.claims.on('message', claim);
port.on('message', (w: JobWriterRequest) => {
  if (w.kind === 'stop') {
    // Main has let go of this thread: with its ports closed nothing keeps it alive.
    data.claims.close();
    port.close();
    return;
  }
  claimsWaiting();
  if (w.kind === 'claim') {
    claim(w);
    return;
  }
  let answer: JobWriterAnswer;
  try {
    if (w.kind === 'end') {
      const end = JSON.parse(w.end) as JobRunEnd;
      db.endJobRun(end.jobId, end.state, end.reason, end.finishedAt, end.batches);
    } else db.settleJobItems(JSON.parse(w.batch) as SettleBatch, w.at);
    answer = { id: w.id, ok: true, claimed: [] };
  } catch (error) {
    answer = refused(w.id, error);
  }
  port.postMessage(answer);
});
port.on('close', () => {
  db.close();
});
