// The writer's thread outlives a job by a while (linger()): the next job finds it ready rather than waiting for
// a new thread to load its code and open keydesk.db; with no job for that long it goes.
import { join } from 'node:path';
import { expect, it, vi } from 'vitest';
import { LocalDb } from '../../src/main/store/local-db.ts';
import { Writer } from '../../src/main/store/writer.ts';
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

it('serves a job starting within the linger from the same thread', async () => {
  const { file, db } = jobFile();
  const writer = new Writer({ file, idleMs: 10, lingerMs: 60_000 });
  try {
    expect((await writer.run('claim', { jobId: 'j', max: 1, retry: false })).map((i) => i.seq)).toEqual([1]);
    const thread = writer.threadId;
    writer.linger();
    // The job has ended and its writes are done; the next job comes past the idle time, within the linger.
    await new Promise((r) => setTimeout(r, 50));
    expect(writer.threadId).toBe(thread);
    expect((await writer.run('claim', { jobId: 'j', max: 1, retry: false })).map((i) => i.seq)).toEqual([2]);
    expect(writer.threadId).toBe(thread);
  } finally {
    await writer.close();
    db.close();
  }
});

it('lets its thread go after the linger and starts another later', async () => {
  const { file, db } = jobFile();
  const writer = new Writer({ file, idleMs: 10, lingerMs: 50 });
  try {
    expect((await writer.run('claim', { jobId: 'j', max: 1, retry: false })).map((i) => i.seq)).toEqual([1]);
    const thread = writer.threadId;
    expect(thread).not.toBeNull();
    writer.linger();
    await vi.waitFor(() => expect(writer.threadRunning).toBe(false), { timeout: 10_000 });
    expect((await writer.run('claim', { jobId: 'j', max: 1, retry: false })).map((i) => i.seq)).toEqual([2]);
    expect(writer.threadId).not.toBe(thread);
  } finally {
    await writer.close();
    db.close();
  }
});
