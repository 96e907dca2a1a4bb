// Keydesk quits while a job is between its start (or resume) and its run: reserved, waiting for its client, nothing
// sent. The job's writes are on the job writer's thread as the app makes them, and the quit closes that writer, so a
// cancel's end asked for as the quit begins is refused; what the job reads after the quit and the next start (another
// JobService on the same file) must still be true: cancelled when it was cancelled, and otherwise that it sent
// nothing, never "Keydesk quit while this job ran". The service is a loopback server that records every request:
// none may reach it.
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServiceClient } from '../../src/main/client/service-client.ts';
import { JobService } from '../../src/main/jobs/job-service.ts';
import { jobWritesOn } from '../../src/main/jobs/job-writes.ts';
import { Writer } from '../../src/main/store/writer.ts';
import { LocalDb } from '../../src/main/store/local-db.ts';
import type { JobSummary } from '../../src/shared/domain.ts';
import { startCaptureServer, type CaptureServer } from '../support/capture-server.ts';
import { tempDir } from '../support/temp-dir.ts';

const KEYS = ['Q-1', 'Q-2', 'Q-3'];
/** A quit's budget long enough for any machine: what its last statement writes is proved, not its speed. */
const QUIT_LONG = 60_000;

interface Setup {
  file: string;
  db: LocalDb;
  jobs: JobService;
  server: CaptureServer;
  /** Lets the jobs' client come (until then every start or resume waits for it, reserved). */
  giveClient(): void;
  /** Another JobService on the same file: the next start of Keydesk. */
  nextStart(): JobService;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function setup(): Promise<Setup> {
  const file = join(tempDir('keydesk-quit-starting-'), 'keydesk.db');
  const server = await startCaptureServer();
  const client = new ServiceClient(
    { baseUrl: server.url, validationUrl: `${server.url}/v2_validation`, apiKey: 'k' },
    { retryDelaysMs: [] },
  );
  let give = (): void => undefined;
  const clientCame = new Promise<ServiceClient>((resolve) => (give = () => resolve(client)));
  const db = new LocalDb(file);
  const writer = new Writer({ file });
  const profile = (id: string): { id: string; name: string; kind: 'remote' } => ({ id, name: 'Quit Shop', kind: 'remote' });
  const jobs = new JobService({
    db,
    profile,
    clientFor: () => clientCame,
    emit: () => undefined,
    writes: jobWritesOn(writer),
  });
  const opened: { db: LocalDb; jobs: JobService }[] = [];
  cleanups.push(async () => {
    give();
    await jobs.close();
    await writer.close();
    for (const o of opened) {
      await o.jobs.close();
      o.db.close();
    }
    db.close();
    await server.close();
  });
  return {
    file,
    db,
    jobs,
    server,
    giveClient: () => {
      give();
    },
    nextStart: () => {
      const again = new LocalDb(file);
      const next = new JobService({ db: again, profile, clientFor: () => Promise.resolve(client), emit: () => undefined });
      opened.push({ db: again, jobs: next });
      return next;
    },
  };
}

/** The job reserved and starting for profile p1 (the only one), once the writer has created it. */
async function startingJob(jobs: JobService): Promise<JobSummary> {
  // The writer thread may take seconds to start on a loaded machine.
  return vi.waitFor(() => {
    const [job] = jobs.list('p1');
    if (job?.startingSince === undefined) throw new Error('no job is starting');
    return job;
  }, 30_000);
}

describe('a job Keydesk quits under while it is starting', () => {
  it('cancelled while starting, then quit at once: reads cancelled after the restart', async () => {
    const s = await setup();
    const started = s.jobs.start('p1', { action: 'extend', target: { keyValues: KEYS }, days: 5 });
    const { id } = await startingJob(s.jobs);
    expect(s.jobs.cancel('p1', id)).toMatchObject({ ok: true, data: { state: 'cancelled' } });
    // The quit begins before the cancel's end is written.
    await s.jobs.close(QUIT_LONG);
    s.giveClient();
    expect(await started).toMatchObject({ ok: true, data: { state: 'cancelled' } });
    expect(s.jobs.get('p1', id)).toMatchObject({ state: 'cancelled', reason: null });

    const next = s.nextStart();
    expect(next.get('p1', id)).toMatchObject({
      state: 'cancelled',
      reason: null,
      counts: { pending: KEYS.length, sent: 0, unknown: 0, done: 0 },
    });
    expect(next.get('p1', id)?.endUnseen).toBeUndefined();
    expect(s.server.requests).toEqual([]);
  });

  it('a resume cancelled while starting, then quit: reads cancelled after restart', async () => {
    const s = await setup();
    s.db.createJob(
      { id: 'j1', profileId: 'p1', action: 'extend', params: JSON.stringify({ days: 5 }), createdAt: new Date().toISOString() },
      { keyValues: KEYS },
    );
    s.db.setJobState('j1', 'interrupted', 'Stopped for the test.', new Date().toISOString());
    const resumed = s.jobs.resume('p1', 'j1', false);
    expect((await startingJob(s.jobs)).id).toBe('j1');
    s.jobs.cancel('p1', 'j1');
    await s.jobs.close(QUIT_LONG);
    s.giveClient();
    expect(await resumed).toMatchObject({ ok: true, data: { state: 'cancelled' } });

    expect(s.nextStart().get('p1', 'j1')).toMatchObject({
      state: 'cancelled',
      reason: null,
      counts: { pending: KEYS.length, sent: 0, unknown: 0 },
    });
    expect(s.server.requests).toEqual([]);
  });

  it('merely starting at the quit: reads interrupted, nothing sent, keys pending', async () => {
    const s = await setup();
    const started = s.jobs.start('p1', { action: 'extend', target: { keyValues: KEYS }, days: 5 });
    const { id } = await startingJob(s.jobs);
    await s.jobs.close(QUIT_LONG);
    // Its client comes after the quit: the run does not begin.
    s.giveClient();
    expect(await started).toMatchObject({ ok: false, code: 'CANCELLED' });

    const words = 'Keydesk quit while this job was starting, before it sent anything: no key was sent. Resume it to send them.';
    const next = s.nextStart();
    expect(next.get('p1', id)).toMatchObject({
      state: 'interrupted',
      reason: words,
      counts: { pending: KEYS.length, sent: 0, unknown: 0, done: 0 },
    });
    expect(next.get('p1', id)?.endUnseen).toBeUndefined();
    expect(s.server.requests).toEqual([]);
  });
});
