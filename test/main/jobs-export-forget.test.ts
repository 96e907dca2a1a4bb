// A job's export and "Remove from the list" at once: the export is written into a named pipe the test reads, so
// it is surely under way (blocked on the pipe) when the removal comes, whatever the machine's speed.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_PROFILE_ID } from '../../src/main/core.ts';
import { startTestCore, type TestCore } from '../support/core.ts';
import { tempDir } from '../support/temp-dir.ts';

const N = 50_000;
const dir = tempDir('keydesk-export-pipe-');
let pipe = '';
let t: TestCore;
beforeAll(async () => {
  t = await startTestCore({ askSavePath: () => Promise.resolve(pipe) });
});
afterAll(async () => {
  await t.close();
});

/** A stopped delete job of N items, and a fresh pipe for its export. */
function stoppedJob(): string {
  const id = randomUUID();
  t.writable().createJob(
    { id, profileId: SANDBOX_PROFILE_ID, action: 'delete', params: '{}', createdAt: new Date().toISOString() },
    { keyValues: Array.from({ length: N }, (_, i) => `NOT-A-KEY-${String(i).padStart(7, '0')}`) },
  );
  t.writable().setJobState(id, 'finished', null, new Date().toISOString());
  pipe = join(dir, `${id}.csv`);
  execFileSync('mkfifo', [pipe]);
  return id;
}

/** Reads the pipe's first chunk and holds the rest: the export waits on the full pipe. */
async function firstChunk(): Promise<{ stream: ReadStream; rest: () => Promise<string> }> {
  const stream = createReadStream(pipe, { encoding: 'utf8' });
  const [first] = (await once(stream, 'data')) as [string];
  stream.pause();
  return {
    stream,
    rest: async () => {
      let text = first;
      stream.on('data', (d: string | Buffer) => (text += String(d)));
      stream.resume();
      await once(stream, 'end');
      return text;
    },
  };
}

describe('removing a job while its export is written', () => {
  it('is refused in words; the export writes every row', async () => {
    const id = stoppedJob();
    const exported = t.call('jobs.export', { jobId: id, format: 'csv' });
    const { rest } = await firstChunk();
    const forgot = await t.call('jobs.forget', { jobId: id });
    expect(forgot).toMatchObject({ ok: false, code: 'CONFLICT' });
    if (!forgot.ok) expect(forgot.message).toMatch(/being exported.*wait for the export to finish/i);
    const text = await rest();
    expect(await exported).toEqual({ ok: true, data: { path: pipe } });
    expect(text.trim().split('\n')).toHaveLength(N + 1);
    // Once the file is written, the job can go.
    expect(await t.call('jobs.forget', { jobId: id })).toEqual({ ok: true, data: null });
    expect(t.core.db.job(id)).toBeNull();
  });

  it('writes every row it began with when the job is removed meanwhile', async () => {
    const id = stoppedJob();
    const exported = t.call('jobs.export', { jobId: id, format: 'csv' });
    const { rest } = await firstChunk();
    // A removal the export does not know of (past the service's guard): the export reads a snapshot of its own.
    t.writable().forgetJob(id);
    const text = await rest();
    expect(text.trim().split('\n')).toHaveLength(N + 1);
    expect(await exported).toEqual({ ok: true, data: { path: pipe } });
    expect(t.core.db.job(id)).toBeNull();
  });
});
