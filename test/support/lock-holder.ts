// Another writer of keydesk.db, for tests of what Keydesk does while its records are busy: a connection on a thread
// of its own that holds the write lock from a moment the test chooses, and a delete job that meets it.
import { Worker } from 'node:worker_threads';
import type { JobService } from '../../src/main/jobs/job-service.ts';

/**
 * Another connection to keydesk.db, on a thread of its own, that takes the write lock when told and keeps it until
 * told to let go. `lockNow()` blocks the caller until the lock is held, so a hook inside the sandbox's handling of a
 * request can be sure the job's next write meets it.
 */
export class LockHolder {
  private readonly worker: Worker;
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));

  constructor(file: string) {
    this.worker = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const { DatabaseSync } = require('node:sqlite');
       const db = new DatabaseSync(workerData.file, { timeout: 60000 });
       const flag = new Int32Array(workerData.flag);
       parentPort.on('message', (m) => {
         if (m === 'lock') { db.exec('BEGIN IMMEDIATE'); Atomics.store(flag, 0, 1); Atomics.notify(flag, 0); }
         else if (m === 'release') { if (db.isTransaction) db.exec('COMMIT'); Atomics.store(flag, 0, 0); parentPort.postMessage('released'); }
         else if (m === 'close') { db.close(); parentPort.close(); }
       });`,
      { eval: true, workerData: { file, flag: this.flag.buffer } },
    );
  }

  get held(): boolean {
    return Atomics.load(this.flag, 0) === 1;
  }

  /** Takes the lock, and returns once it is held (the calling thread waits, as a hook inside a request must). */
  lockNow(): void {
    this.worker.postMessage('lock');
    if (Atomics.wait(this.flag, 0, 0, 60_000) === 'timed-out') throw new Error('the lock holder did not get the lock');
  }

  async release(): Promise<void> {
    const released = new Promise((r) => this.worker.once('message', r));
    this.worker.postMessage('release');
    await released;
  }

  async close(): Promise<void> {
    if (this.held) await this.release();
    const exited = new Promise((r) => this.worker.once('exit', r));
    this.worker.postMessage('close');
    await exited;
  }
}

/**
 * Starts a delete of every key in `s.keys` for profile p1, the holder taking the lock as the sandbox is about to
 * perform delete number `at` + 1 (`s.onDelete` is called with how many it has performed); answers the job's id.
 */
export async function startDeleteLockedAt(
  s: { jobs: JobService; holder: LockHolder; keys: string[]; onDelete: ((n: number) => void) | null },
  at: number,
): Promise<string> {
  s.onDelete = (n) => {
    if (n === at) s.holder.lockNow();
  };
  const started = await s.jobs.start('p1', { action: 'delete', target: { keyValues: s.keys } });
  if (!started.ok) throw new Error(started.message);
  return started.data.id;
}
