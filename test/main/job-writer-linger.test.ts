// The job writer's thread outlives a job by a while (WRITER_LINGER_MS): the next job finds it ready rather than
// waiting for a new thread to load its code and open keydesk.db; with no job for that long it goes.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ThreadJobWrites } from '../../src/main/jobs/job-writer.ts';
import { LocalDb } from '../../src/main/store/local-db.ts';
import { tempDir } from '../support/temp-dir.ts';

function jobFile(): { file: string; db: LocalDb } {
  const file = join(tempDir('keydesk-writer-'), 'keydesk.db');
  const db = new LocalDb(file);
  db.createJob(
    { id: 'j', profileId: 'p', action: 'delete', params: '{}', createdAt: new Date().toISOString() },
    { keyValues: ['K-1', 'K-2', 'K-3'] },
  );
  return { file, db };
}

it('serves a job started within the linger from the same thread', async () => {
  const { file, db } = jobFile();
  const writes = new ThreadJobWrites(file, { lingerMs: 60_000 });
  try {
    expect((await writes.claim('j', 1)).map((i) => i.seq)).toEqual([1]);
    const thread = writes.exited();
    writes.release();
    // The job has ended and its writes are done; the next job comes a moment later.
    await new Promise((r) => setTimeout(r, 50));
    expect(writes.threadRunning).toBe(true);
    expect((await writes.claim('j', 1)).map((i) => i.seq)).toEqual([2]);
    expect(writes.exited()).toBe(thread);
  } finally {
    await writes.close();
    db.close();
  }
});

it('lets its thread go after the linger; a later job starts another', async () => {
  const { file, db } = jobFile();
  const writes = new ThreadJobWrites(file, { lingerMs: 50 });
  try {
    expect((await writes.claim('j', 1)).map((i) => i.seq)).toEqual([1]);
    const thread = writes.exited();
    writes.release();
    await thread;
    expect(writes.threadRunning).toBe(false);
    expect((await writes.claim('j', 1)).map((i) => i.seq)).toEqual([2]);
    expect(writes.exited()).not.toBe(thread);
  } finally {
    await writes.close();
    db.close();
  }
});
