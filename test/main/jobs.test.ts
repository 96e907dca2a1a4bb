// The job engine at its boundaries: a fake service where the point is what the service does on the wire (a reset
// mid-request, a 429 with Retry-After), a fake clock so a 30-second pause costs nothing, and a real child process
// killed with SIGKILL mid-job whose sandbox database is then compared with the job's items.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { ServiceClient } from '../../src/main/client/service-client.ts';
import { Core } from '../../src/main/core.ts';
import { MemorySecretStore } from '../../src/main/secrets/secret-store.ts';
import { START_CONCURRENCY } from '../../src/main/jobs/concurrency.ts';
import { JobService, type JobClock } from '../../src/main/jobs/job-service.ts';
import { jobWritesOn, type JobWrites } from '../../src/main/jobs/job-writes.ts';
import { Writer } from '../../src/main/store/writer.ts';
import { LocalDb } from '../../src/main/store/local-db.ts';
import { SANDBOX_DB_FILE } from '../../src/sandbox/paths.ts';
import { SandboxStore } from '../../src/sandbox/store.ts';
import type { JobSummary } from '../../src/shared/domain.ts';
import { cutOffWords } from '../../src/shared/job-words.ts';
import { readSendLogs } from '../../src/main/jobs/send-log.ts';
import { killJobChildAfter } from '../support/job-crash.ts';
import { tempDir } from '../support/temp-dir.ts';

/** A service that deletes keys, with a hook deciding each request's fate; it logs every key it was sent. */
interface FakeService {
  url: string;
  received: string[];
  close(): Promise<void>;
}
type Fate = (keyValue: string, n: number, req: IncomingMessage, res: ServerResponse) => 'ok' | 'handled';

async function fakeService(fate: Fate): Promise<FakeService> {
  const received: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      const { keyValue } = JSON.parse(body || '{}') as { keyValue?: string };
      received.push(keyValue ?? '');
      if (fate(keyValue ?? '', received.length, req, res) === 'handled') return;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, deletedKey: keyValue }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

/** Time that only moves when a test lets a sleep end. */
function fakeClock(): JobClock & { sleeps: number[]; release(): void; pending(): number } {
  let t = 0;
  const waiting: { ms: number; resolve: () => void }[] = [];
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => t,
    sleep: (ms, signal) =>
      new Promise((resolve) => {
        sleeps.push(ms);
        const entry = { ms, resolve };
        waiting.push(entry);
        // An ended sleep is no longer waiting: release() moves time for the sleeps still pending.
        signal.addEventListener(
          'abort',
          () => {
            const i = waiting.indexOf(entry);
            if (i >= 0) waiting.splice(i, 1);
            resolve();
          },
          { once: true },
        );
      }),
    release() {
      const w = waiting.shift();
      if (!w) return;
      t += w.ms;
      w.resolve();
    },
    pending: () => waiting.length,
  };
}

const until = async (check: () => boolean): Promise<void> => {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
};

function service(url: string, db: LocalDb, clock?: JobClock, events: JobSummary[] = [], writes?: JobWrites): JobService {
  const client = new ServiceClient({ baseUrl: url, validationUrl: `${url}/v2_validation`, apiKey: 'test-key' }, { retryDelaysMs: [] });
  return new JobService({
    db,
    profile: (id) => (id === 'p1' ? { id, name: 'Fake', kind: 'remote' } : null),
    clientFor: () => Promise.resolve(client),
    emit: (s) => events.push(s),
    ...(clock ? { clock } : {}),
    ...(writes ? { writes } : {}),
  });
}

/**
 * A fresh keydesk.db and a job engine on `fake` for this test: both close when it finishes (pass or fail), its
 * jobs settled first when `settle` is set.
 */
function rig(fake: FakeService, { clock, events, settle = false }: { clock?: JobClock; events?: JobSummary[]; settle?: boolean } = {}) {
  const db = new LocalDb(join(tempDir('keydesk-jobs-'), 'keydesk.db'));
  const jobs = service(fake.url, db, clock, events);
  onTestFinished(async () => {
    if (settle) for (const job of jobs.list('p1')) await jobs.settled(job.id);
    db.close();
    await fake.close();
  });
  return { db, jobs };
}

/** The fields of a key the ledger records that these tests leave plain; each test adds its value and status. */
const LEDGER_KEY = {
  id: '',
  note: '',
  isPremium: false,
  expire: null,
  expiresByDaysKey: false,
  daysKey: null,
  expiresAt: null,
  hwid: null,
  createdAt: null,
  activatedAt: null,
  lastResetAt: null,
  serviceId: '',
};

const values = (n: number, prefix = 'K'): string[] => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(4, '0')}`);

describe('unknown outcomes', () => {
  let fake: FakeService;
  let db: LocalDb;
  beforeAll(async () => {
    // K0003's request reaches the service, and the connection dies before an answer: sent, outcome unknown.
    fake = await fakeService((key, _n, req) => {
      if (key !== 'K0003') return 'ok';
      req.socket.destroy();
      return 'handled';
    });
    db = new LocalDb(join(tempDir('keydesk-jobs-'), 'keydesk.db'));
  });
  afterAll(async () => {
    db.close();
    await fake.close();
  });

  it('marks an unanswered item unknown and never resends it unless asked', async () => {
    const jobs = service(fake.url, db);
    const started = await jobs.start('p1', { action: 'delete', target: { keyValues: values(8) } });
    if (!started.ok) throw new Error(started.message);
    await jobs.settled(started.data.id);
    const after = jobs.get('p1', started.data.id);
    expect(after).toMatchObject({ state: 'finished', counts: { done: 7, unknown: 1, pending: 0, sent: 0, failed: 0 } });
    expect(db.jobItems(started.data.id, 'unknown', 0, 10).items).toEqual([
      expect.objectContaining({ target: 'K0003', state: 'unknown', code: 'OUTCOME_UNKNOWN' }),
    ]);
    expect(fake.received.filter((k) => k === 'K0003')).toHaveLength(1);

    // Resuming sends pending items only: there are none, and the unknown one stays unsent.
    const resumed = await jobs.resume('p1', started.data.id, false);
    expect(resumed.ok && resumed.data.counts.unknown).toBe(1);
    await jobs.settled(started.data.id);
    expect(fake.received.filter((k) => k === 'K0003')).toHaveLength(1);
    expect(fake.received).toHaveLength(8);

    // The user's explicit choice sends it again (and here it is lost again).
    const retried = await jobs.resume('p1', started.data.id, true);
    expect(retried.ok).toBe(true);
    await jobs.settled(started.data.id);
    expect(fake.received.filter((k) => k === 'K0003')).toHaveLength(2);
    expect(fake.received).toHaveLength(9);
  });

  it("does not show or cancel another profile's job", async () => {
    const jobs = service(fake.url, db);
    const started = await jobs.start('p1', { action: 'delete', target: { keyValues: ['X1'] } });
    if (!started.ok) throw new Error(started.message);
    await jobs.settled(started.data.id);
    expect(jobs.get('p2', started.data.id)).toBeNull();
    expect(jobs.list('p2')).toEqual([]);
    expect(jobs.cancel('p2', started.data.id)).toMatchObject({ ok: false, code: 'NOT_FOUND' });
  });
});

describe('resuming and cancelling', () => {
  it('runs a job once when two resumes arrive together', async () => {
    const fake = await fakeService(() => 'ok');
    const { db, jobs } = rig(fake);
    const id = 'job-twice';
    db.createJob({ id, profileId: 'p1', action: 'delete', params: '{}', createdAt: new Date().toISOString() }, { keyValues: values(6) });
    db.setJobState(id, 'interrupted', 'Stopped for the test.', new Date().toISOString());
    // Both calls are made before either awaits anything: the second must see the first's reservation.
    const [a, b] = await Promise.all([jobs.resume('p1', id, false), jobs.resume('p1', id, false)]);
    expect([a.ok, b.ok].sort()).toEqual([false, true]);
    expect([a, b].find((r) => !r.ok)).toMatchObject({ ok: false, code: 'CONFLICT' });
    await jobs.settled(id);
    expect(jobs.get('p1', id)).toMatchObject({ state: 'finished', counts: { done: 6, pending: 0, sent: 0, unknown: 0 } });
    expect(fake.received).toHaveLength(6);
  });

  it('refuses a second bulk job on a profile while one runs', async () => {
    // Answers are held until the test lets them go: the first job is still running when the others arrive.
    const held: (() => void)[] = [];
    const fake = await fakeService((key, _n, _req, res) => {
      held.push(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, deletedKey: key })));
      return 'handled';
    });
    const { db, jobs } = rig(fake);
    // Two starts made together (a confirmation accepted twice): the second sees the first's reservation.
    const [a, b] = await Promise.all([
      jobs.start('p1', { action: 'delete', target: { keyValues: values(4) } }),
      jobs.start('p1', { action: 'delete', target: { keyValues: values(4) } }),
    ]);
    expect([a.ok, b.ok].sort()).toEqual([false, true]);
    const refused = a.ok ? b : a;
    expect(refused).toMatchObject({ ok: false, code: 'CONFLICT' });
    expect(refused.ok ? '' : refused.message).toMatch(/already running for this profile.*nothing was started/);
    const first = [a, b].find((r) => r.ok);
    if (!first?.ok) throw new Error('no job started');
    // While it runs, another bulk action over the same keys is refused too, and so is a resume of another job.
    await until(() => held.length > 0);
    expect(await jobs.start('p1', { action: 'resetHwid', target: { keyValues: values(4) } })).toMatchObject({
      ok: false,
      code: 'CONFLICT',
    });
    db.createJob(
      { id: 'other', profileId: 'p1', action: 'delete', params: '{}', createdAt: new Date().toISOString() },
      { keyValues: values(2) },
    );
    db.setJobState('other', 'interrupted', 'Stopped for the test.', new Date().toISOString());
    expect(await jobs.resume('p1', 'other', false)).toMatchObject({ ok: false, code: 'CONFLICT' });
    // Only the first job's requests reached the service, once per key.
    while (jobs.get('p1', first.data.id)?.finishedAt === null) {
      for (const answer of held.splice(0)) answer();
      await new Promise((r) => setTimeout(r, 5));
    }
    expect([...fake.received].sort()).toEqual(values(4));
    expect(db.jobs('p1').filter((j) => j.id !== 'other')).toHaveLength(1);
    // Once it has ended, the next job starts.
    const next = await jobs.start('p1', { action: 'delete', target: { keyValues: ['K0009'] } });
    expect(next.ok).toBe(true);
    while (next.ok && jobs.get('p1', next.data.id)?.finishedAt === null) {
      for (const answer of held.splice(0)) answer();
      await new Promise((r) => setTimeout(r, 5));
    }
  });

  it('keeps a cancelled job running until its requests on the wire answer', async () => {
    const held: ServerResponse[] = [];
    const fake = await fakeService((_key, _n, _req, res) => {
      held.push(res);
      return 'handled';
    });
    const db = new LocalDb(join(tempDir('keydesk-jobs-'), 'keydesk.db'));
    const jobs = service(fake.url, db);
    try {
      const started = await jobs.start('p1', { action: 'delete', target: { keyValues: values(40) } });
      if (!started.ok) throw new Error(started.message);
      const id = started.data.id;
      await until(() => held.length >= START_CONCURRENCY && held.length === jobs.get('p1', id)?.counts.sent);
      const onWire = jobs.get('p1', id)?.counts.sent ?? 0;
      expect(onWire).toBeGreaterThan(0);
      const cancelled = jobs.cancel('p1', id);
      expect(cancelled).toMatchObject({ ok: true, data: { state: 'cancelled', finishedAt: null } });
      // Not yet recorded as ended: its requests are still out.
      expect(db.job(id)?.finishedAt).toBeNull();
      // Keydesk dies here; the next start must not leave those items "sent" forever.
      const next = service(fake.url, db);
      expect(db.jobItems(id, 'sent', 0, 100).total).toBe(0);
      expect(db.jobItems(id, 'unknown', 0, 100).total).toBe(onWire);
      expect(next.get('p1', id)).toMatchObject({ state: 'interrupted', counts: { sent: 0, unknown: onWire } });
    } finally {
      // Let the first process's requests end (unanswered) before the database closes.
      const ender = setInterval(() => {
        for (const res of held.splice(0)) res.destroy();
      }, 5);
      for (const job of jobs.list('p1')) await jobs.settled(job.id);
      clearInterval(ender);
      db.close();
      await fake.close();
    }
  });

  it('records a cancelled job as cancelled, its requests on the wire cut off', async () => {
    const held: ServerResponse[] = [];
    const fake = await fakeService((_key, _n, _req, res) => {
      held.push(res);
      return 'handled';
    });
    const events: JobSummary[] = [];
    const { db, jobs } = rig(fake, { events });
    const started = await jobs.start('p1', { action: 'delete', target: { keyValues: values(40) } });
    if (!started.ok) throw new Error(started.message);
    const id = started.data.id;
    await until(() => held.length >= START_CONCURRENCY && held.length === jobs.get('p1', id)?.counts.sent);
    jobs.cancel('p1', id);
    // No answer comes: the cancel alone ends the requests held, and they may have been applied.
    await jobs.settled(id);
    await until(() => held.every((res) => res.destroyed));
    const final = jobs.get('p1', id);
    expect(final).toMatchObject({ state: 'cancelled', counts: { sent: 0, done: 0, unknown: held.length, pending: 40 - held.length } });
    expect(final?.reason).toBe(cutOffWords(held.length));
    expect(final?.finishedAt).not.toBeNull();
    expect(db.job(id)).toMatchObject({ state: 'cancelled' });
    expect(events.at(-1)).toMatchObject({ state: 'cancelled', counts: { sent: 0 } });
    expect(events.at(-1)?.finishedAt).not.toBeNull();
  });
});

describe('cancel while answers stream in', () => {
  it('sends nothing after the cancel, records every item honestly, and ends cancelled', async () => {
    // A service that answers at once: items keep settling and new ones keep going out until the cancel.
    const fake = await fakeService(() => 'ok');
    const events: JobSummary[] = [];
    const { db, jobs } = rig(fake, { events });
    const keys = values(3_000);
    const started = await jobs.start('p1', { action: 'delete', target: { keyValues: keys } });
    if (!started.ok) throw new Error(started.message);
    const id = started.data.id;
    await until(() => fake.received.length >= 100);
    const cancelled = jobs.cancel('p1', id);
    if (!cancelled.ok) throw new Error(cancelled.message);
    // Everything the job will ever send was already claimed (marked sent, or answered) when cancel returned.
    const { pending, sent, done, failed, unknown } = cancelled.data.counts;
    const claimedAtCancel = sent + done + failed + unknown;
    expect(cancelled.data.state).toBe('cancelled');
    expect(pending).toBeGreaterThan(0);
    await jobs.settled(id);
    expect(fake.received.length).toBeLessThanOrEqual(claimedAtCancel);

    // What was on the wire at the cancel was cut off: unknown, and the end says how many.
    const final = jobs.get('p1', id);
    expect(final).toMatchObject({ state: 'cancelled', counts: { sent: 0, failed: 0, pending: keys.length - claimedAtCancel } });
    expect((final?.counts.done ?? 0) + (final?.counts.unknown ?? 0)).toBe(claimedAtCancel);
    expect(final?.reason).toBe(final?.counts.unknown ? cutOffWords(final.counts.unknown) : null);
    expect(final?.finishedAt).not.toBeNull();
    expect(events.at(-1)).toMatchObject({ id, state: 'cancelled', counts: { sent: 0 } });
    // Item by item: done only for keys the service received, pending for the ones it never saw.
    const received = new Set(fake.received);
    const items = db.jobItems(id, undefined, 0, keys.length).items;
    expect(items.filter((i) => i.state === 'done').every((i) => received.has(i.target))).toBe(true);
    expect(items.filter((i) => i.state === 'pending').every((i) => !received.has(i.target))).toBe(true);
    expect(items.every((i) => i.state === 'done' || i.state === 'pending' || i.state === 'unknown')).toBe(true);
  });
});

describe("another profile's running job", () => {
  it('is listed as running elsewhere for other profiles until it ends', async () => {
    const held: ServerResponse[] = [];
    const fake = await fakeService((_key, _n, _req, res) => {
      held.push(res);
      return 'handled';
    });
    const { jobs } = rig(fake);
    const started = await jobs.start('p1', { action: 'delete', target: { keyValues: values(10) } });
    if (!started.ok) throw new Error(started.message);
    await until(() => held.length >= START_CONCURRENCY && held.length === jobs.get('p1', started.data.id)?.counts.sent);
    expect(jobs.runningElsewhere('p2')).toEqual([
      expect.objectContaining({ id: started.data.id, profileId: 'p1', state: 'running', total: 10 }),
    ]);
    expect(jobs.runningElsewhere('p1')).toEqual([]);
    // Its own profile still cannot be reached from p2: following or cancelling needs p1.
    expect(jobs.get('p2', started.data.id)).toBeNull();
    jobs.cancel('p1', started.data.id);
    for (const res of held)
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, deletedKey: 'x' }));
    await jobs.settled(started.data.id);
    expect(jobs.runningElsewhere('p2')).toEqual([]);
  });
});

describe('a 429 with Retry-After', () => {
  it('pauses the whole job, then sends the refused item once more', async () => {
    let refused = false;
    const fake = await fakeService((_key, n, _req, res) => {
      if (n !== 5) return 'ok';
      refused = true;
      res
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': '30' })
        .end(JSON.stringify({ success: false, code: 'RATE_LIMITED', message: 'Too many requests.' }));
      return 'handled';
    });
    const clock = fakeClock();
    const events: JobSummary[] = [];
    const { jobs } = rig(fake, { clock, events });
    const keys = values(40);
    const started = await jobs.start('p1', { action: 'delete', target: { keyValues: keys } });
    if (!started.ok) throw new Error(started.message);
    // The engine asks the clock for the 30 s pause; while it waits, every answer already on the wire arrives.
    await until(() => clock.pending() > 0 && jobs.get('p1', started.data.id)?.counts.sent === 0);
    expect(refused).toBe(true);
    expect(clock.sleeps[0]).toBe(30_000);
    const duringPause = fake.received.length;
    const paused = jobs.get('p1', started.data.id);
    expect(paused?.pausedUntil).not.toBeNull();
    expect(paused?.state).toBe('running');
    // Let other work run; the job is held at the pause and sends nothing.
    await new Promise((r) => setTimeout(r, 50));
    expect(fake.received.length).toBe(duringPause);
    // The 429 halved the limit. Before it, slow start grew the limit from START_CONCURRENCY by one per answer
    // handled first; how many came first depends on answer order under load, so bound it by the other requests
    // the service received before the pause. Answers to requests sent before the halving never grow it again.
    const mostBefore = START_CONCURRENCY + (duringPause - 1);
    expect(paused?.concurrency).toBeGreaterThanOrEqual(Math.floor(START_CONCURRENCY / 2));
    expect(paused?.concurrency).toBeLessThanOrEqual(Math.floor(mostBefore / 2));

    clock.release();
    // Paced from here on: each further sleep is a pacing gap, released as it comes.
    const releaser = setInterval(() => {
      clock.release();
    }, 1);
    await jobs.settled(started.data.id);
    clearInterval(releaser);
    const done = jobs.get('p1', started.data.id);
    expect(done).toMatchObject({ state: 'finished', counts: { done: 40, pending: 0, unknown: 0, failed: 0 } });
    // Every key was deleted exactly once; the one refused with 429 was sent twice (first refused, then accepted).
    const refusedKey = fake.received[4];
    expect(new Set(fake.received)).toEqual(new Set(keys));
    expect(fake.received.filter((k) => k === refusedKey)).toHaveLength(2);
    expect(fake.received).toHaveLength(41);
    expect(events.some((e) => e.pausedUntil !== null)).toBe(true);
  });
});

describe.each([
  { where: "on main's connection", thread: false },
  // Claims there go ahead of answers still queued: the job looks again once the refused item's answer is in.
  { where: 'on the writer thread', thread: true },
])('a 429 without Retry-After on the last item, answers written $where', ({ thread }) => {
  it('sends the refused item again before the job ends', async () => {
    // A proxy's or a remote service's 429 may carry no Retry-After: the item goes back to pending with no pause,
    // while its answer still waits to be written with the others. The job must not end on the stale "sent".
    let refusals = 0;
    const fake = await fakeService((key, _n, _req, res) => {
      if (key !== 'K2' || refusals > 0) return 'ok';
      refusals++;
      res
        .writeHead(429, { 'content-type': 'application/json' })
        .end(JSON.stringify({ success: false, code: 'RATE_LIMITED', message: 'Too many requests.' }));
      return 'handled';
    });
    const file = join(tempDir('keydesk-jobs-'), 'keydesk.db');
    const db = new LocalDb(file);
    const jobs = service(fake.url, db, undefined, [], thread ? jobWritesOn(new Writer({ file })) : undefined);
    try {
      const started = await jobs.start('p1', { action: 'delete', target: { keyValues: ['K1', 'K2'] } });
      if (!started.ok) throw new Error(started.message);
      await jobs.settled(started.data.id);
      expect(jobs.get('p1', started.data.id)).toMatchObject({
        state: 'finished',
        counts: { done: 2, pending: 0, sent: 0, unknown: 0, failed: 0 },
      });
      expect([...fake.received].sort()).toEqual(['K1', 'K2', 'K2']);
      expect(db.jobCounts(started.data.id)).toMatchObject({ done: 2, pending: 0, sent: 0 });
    } finally {
      await jobs.close();
      db.close();
      await fake.close();
    }
  });
});

describe('items claimed ahead of their requests', () => {
  it('are shown pending, not sent, while the job runs', async () => {
    const held: ServerResponse[] = [];
    const fake = await fakeService((_key, _n, _req, res) => {
      held.push(res);
      return 'handled';
    });
    const dir = tempDir('keydesk-jobs-');
    const db = new LocalDb(join(dir, 'keydesk.db'));
    const jobs = service(fake.url, db);
    try {
      await jobs.setCeiling('p1', 4);
      const started = await jobs.start('p1', { action: 'delete', target: { keyValues: values(200) } });
      if (!started.ok) throw new Error(started.message);
      const id = started.data.id;
      await until(() => held.length === START_CONCURRENCY);
      // The file holds more claimed than went out (a batch ahead); the run knows which did.
      expect(db.jobItems(id, 'sent', 0, 1).total).toBeGreaterThan(START_CONCURRENCY);
      const unsent = jobs.claimedUnsent(id);
      expect(unsent.length).toBe(db.jobItems(id, 'sent', 0, 1).total - START_CONCURRENCY);
      expect(db.jobItems(id, 'sent', 0, 10, false, unsent).items.map((i) => i.target)).toEqual(fake.received.slice().sort());
      expect(db.jobItems(id, 'pending', 0, 1, false, unsent).total).toBe(200 - START_CONCURRENCY);
      expect(jobs.get('p1', id)?.counts).toMatchObject({ pending: 200 - START_CONCURRENCY, sent: START_CONCURRENCY });
      // Nothing but what was sent is in the send log.
      expect(readSendLogs(join(dir, 'job-sends')).get(id)?.sent).toEqual(
        new Set(db.jobItems(id, 'sent', 0, 10, false, unsent).items.map((i) => i.seq)),
      );

      // The cancel cuts the requests held off: unknown; the items claimed and not sent go back to pending.
      jobs.cancel('p1', id);
      await jobs.settled(id);
      expect(jobs.get('p1', id)).toMatchObject({
        state: 'cancelled',
        counts: { done: 0, pending: 200 - START_CONCURRENCY, sent: 0, unknown: START_CONCURRENCY },
      });
      expect(db.jobCounts(id)).toMatchObject({ done: 0, pending: 200 - START_CONCURRENCY, sent: 0, unknown: START_CONCURRENCY });
      expect(fake.received).toHaveLength(START_CONCURRENCY);
      // Its end recorded, the run's log has nothing more to say: gone.
      expect(readSendLogs(join(dir, 'job-sends')).has(id)).toBe(false);
    } finally {
      await jobs.close();
      db.close();
      await fake.close();
    }
  });
});

describe('answers during a Retry-After pause', () => {
  it('records answers that arrive while paused, and keeps pausing', async () => {
    const held: ServerResponse[] = [];
    const fake = await fakeService((_key, n, _req, res) => {
      if (n === START_CONCURRENCY) {
        res
          .writeHead(429, { 'content-type': 'application/json', 'retry-after': '30' })
          .end(JSON.stringify({ success: false, code: 'RATE_LIMITED', message: 'Too many requests.' }));
      } else if (n < START_CONCURRENCY) held.push(res);
      else return 'ok';
      return 'handled';
    });
    const clock = fakeClock();
    const { db, jobs } = rig(fake, { clock });
    const started = await jobs.start('p1', { action: 'delete', target: { keyValues: values(12) } });
    if (!started.ok) throw new Error(started.message);
    const id = started.data.id;
    await until(() => clock.pending() > 0 && held.length === START_CONCURRENCY - 1);
    const sentBefore = fake.received.length;
    for (const res of held)
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, deletedKey: 'x' }));
    // Saved while the pause still holds: the clock has not moved.
    await expect.poll(() => db.jobItems(id, 'done', 0, 1).total, { timeout: 30_000 }).toBe(START_CONCURRENCY - 1);
    // Nothing on the wire (items claimed ahead of the requests are not sent: the screen's view of the file).
    expect(db.jobItems(id, 'sent', 0, 1, false, jobs.claimedUnsent(id)).total).toBe(0);
    await until(() => clock.pending() > 0);
    expect(jobs.get('p1', id)?.pausedUntil).not.toBeNull();
    expect(fake.received.length).toBe(sentBefore);
    expect(clock.sleeps.every((ms) => ms === 30_000)).toBe(true);

    const releaser = setInterval(() => {
      clock.release();
    }, 1);
    await jobs.settled(id);
    clearInterval(releaser);
    expect(jobs.get('p1', id)).toMatchObject({ state: 'finished', counts: { done: 12, pending: 0, sent: 0, unknown: 0 } });
  });
});

describe('extend and HWID reset on a real-dialect service', () => {
  it('updates ledger rows from the returned fields, leaving their status alone', async () => {
    const newExpiry = '2031-01-01T00:00:00.000Z';
    // The real service: extend answers the key without a status (its HWID was reset: none implied); reset
    // answers {message} alone.
    const fake = await fakeService((_key, _n, req, res) => {
      const body = req.url?.includes('reset')
        ? { message: 'HWID reset.' }
        : {
            message: 'Extended.',
            key: {
              id: 'id-E1',
              value: 'E1',
              note: 'n',
              hwid: null,
              expiresAt: newExpiry,
              isPremium: false,
              lastResetAt: null,
              serviceId: 'svc_1',
            },
          };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      return 'handled';
    });
    const { db, jobs } = rig(fake);
    const row = (value: string): { status: string; expiresAt: string | null; hwid: string | null } | undefined =>
      db.queryLedger('p1', { text: value }, { field: 'value', dir: 'asc' }, 0, 1).rows[0];
    const base = { ...LEDGER_KEY, note: 'n' };
    db.recordKeys('p1', [
      { ...base, value: 'E1', status: 'active', hwid: null, expiresAt: '2030-01-01T00:00:00.000Z' },
      { ...base, value: 'R1', status: 'active', hwid: 'HW-1', expiresAt: '2030-01-01T00:00:00.000Z' },
      { ...base, value: 'R2', note: 'ÉLAN Ötzi', status: 'active', hwid: 'HW-2', expiresAt: '2030-01-01T00:00:00.000Z' },
    ]);
    const extended = await jobs.start('p1', { action: 'extend', target: { keyValues: ['E1'] }, days: 365 });
    if (!extended.ok) throw new Error(extended.message);
    await jobs.settled(extended.data.id);
    expect(row('E1')).toMatchObject({ status: 'active', expiresAt: newExpiry, hwid: null });

    const reset = await jobs.start('p1', { action: 'resetHwid', target: { keyValues: ['R1', 'R2'] } });
    if (!reset.ok) throw new Error(reset.message);
    await jobs.settled(reset.data.id);
    expect(row('R1')).toMatchObject({ status: 'active', hwid: null, expiresAt: '2030-01-01T00:00:00.000Z' });
    // The search text follows: the old HWID no longer finds the key.
    expect(db.queryLedger('p1', { text: 'hw-1' }, { field: 'value', dir: 'asc' }, 0, 1).total).toBe(0);
    // ... and is lower-cased as every other writer does it (JavaScript's rules, not SQLite's ASCII-only lower()):
    // a note with capitals beyond ASCII is still found by its lower-case words after the reset.
    expect(db.queryLedger('p1', { text: 'élan ötzi' }, { field: 'value', dir: 'asc' }, 0, 5).rows.map((r) => [r.value, r.hwid])).toEqual([
      ['R2', null],
    ]);
  });
});

describe('a job over every key a filter matches', () => {
  it('leaves out known-deleted keys unless the filter asks for deleted keys', async () => {
    const fake = await fakeService(() => 'ok');
    const { db, jobs } = rig(fake, { settle: true });
    db.recordKeys('p1', [
      { ...LEDGER_KEY, value: 'A1', status: 'active' },
      { ...LEDGER_KEY, value: 'G1', status: 'generated' },
      { ...LEDGER_KEY, value: 'D1', status: 'generated' },
    ]);
    db.markDeleted('p1', 'D1');
    const all = await jobs.start('p1', { action: 'delete', target: { filter: {} } });
    if (!all.ok) throw new Error(all.message);
    expect(all.data.total).toBe(2);
    await jobs.settled(all.data.id);
    expect([...fake.received].sort()).toEqual(['A1', 'G1']);
    // Asked for by name, deleted keys are what the user chose.
    const deleted = await jobs.start('p1', { action: 'delete', target: { filter: { status: 'deleted' } } });
    if (!deleted.ok) throw new Error(deleted.message);
    expect(deleted.data.total).toBe(3);
  });
});

describe('a bulk HWID reset', () => {
  it('sends only to keys not known as generated or deleted', async () => {
    const fake = await fakeService(() => 'ok');
    const { db, jobs } = rig(fake, { settle: true });
    db.recordKeys('p1', [
      { ...LEDGER_KEY, value: 'A1', status: 'active' },
      { ...LEDGER_KEY, value: 'A2', status: 'active' },
      { ...LEDGER_KEY, value: 'G1', status: 'generated' },
      { ...LEDGER_KEY, value: 'D1', status: 'active' },
    ]);
    db.markDeleted('p1', 'D1');
    // Picked keys: the ledger's generated and deleted ones stay out; one it does not hold is the service's to judge.
    const picked = await jobs.start('p1', { action: 'resetHwid', target: { keyValues: ['G1', 'A1', 'D1', 'UNSEEN'] } });
    if (!picked.ok) throw new Error(picked.message);
    expect(picked.data.total).toBe(2);
    await jobs.settled(picked.data.id);
    expect([...fake.received].sort()).toEqual(['A1', 'UNSEEN']);
    // All matching: the active ones only.
    const all = await jobs.start('p1', { action: 'resetHwid', target: { filter: {} } });
    if (!all.ok) throw new Error(all.message);
    expect(all.data.total).toBe(2);
    await jobs.settled(all.data.id);
    expect([...fake.received].sort()).toEqual(['A1', 'A1', 'A2', 'UNSEEN']);
    // None active: refused before anything is sent, saying why and what to do about a key activated since.
    for (const target of [{ keyValues: ['G1', 'D1'] }, { filter: { status: 'generated' as const } }]) {
      const none = await jobs.start('p1', { action: 'resetHwid', target });
      expect(none).toMatchObject({ ok: false, code: 'NOT_FOUND' });
      expect(none.ok ? '' : none.message).toMatch(/^None of these keys is active .*nothing was sent\. A key a customer activated since/);
    }
    expect(fake.received).toHaveLength(4);
  });
});

describe('an exception while sending', () => {
  it('words the item and audit, keeping the raw text for the log', async () => {
    const fake = await fakeService(() => 'ok');
    const db = new LocalDb(join(tempDir('keydesk-jobs-'), 'keydesk.db'));
    const client = new ServiceClient(
      { baseUrl: fake.url, validationUrl: `${fake.url}/v2_validation`, apiKey: 'test-key' },
      { retryDelaysMs: [] },
    );
    // The boundary under test: the client throwing instead of answering a Result.
    client.deleteKey = () => Promise.reject(new Error('SQLITE_CORRUPT raw /home/vendor/secret detail'));
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const jobs = new JobService({
      db,
      profile: (id) => ({ id, name: 'Fake', kind: 'remote' }),
      clientFor: () => Promise.resolve(client),
      emit: () => undefined,
    });
    try {
      const started = await jobs.start('p1', { action: 'delete', target: { keyValues: ['K1'] } });
      if (!started.ok) throw new Error(started.message);
      await jobs.settled(started.data.id);
      const [item] = db.jobItems(started.data.id, 'unknown', 0, 1).items;
      expect(item?.code).toBe('INTERNAL');
      expect(item?.message).toMatch(/internal error/);
      expect(item?.message).not.toMatch(/SQLITE|secret/);
      const audit = db.listAudit({}, 0, 10).entries;
      expect(audit).toHaveLength(1);
      expect(audit[0]?.message).not.toMatch(/SQLITE|secret/);
      expect(logged.mock.calls.flat().map(String).join(' ')).toMatch(/SQLITE_CORRUPT/);
    } finally {
      logged.mockRestore();
      db.close();
      await fake.close();
    }
  });
});

describe('a job Keydesk stopped under before any answer came', () => {
  it('is said to have stopped after its latest start or resume', async () => {
    // The service takes every request and never answers: no answer is ever recorded.
    const fake = await fakeService(() => 'handled');
    const db = new LocalDb(join(tempDir('keydesk-jobs-'), 'keydesk.db'));
    const stopped: JobService[] = [];
    // Keydesk stopping under a run, as the next start sees it: a new JobService on the same file.
    const restart = (): JobService => {
      const next = service(fake.url, db);
      stopped.push(next);
      return next;
    };
    try {
      const first = restart();
      // More keys than go out at once: some are still pending to resume.
      const started = await first.start('p1', { action: 'delete', target: { keyValues: values(START_CONCURRENCY * 4) } });
      if (!started.ok) throw new Error(started.message);
      const id = started.data.id;
      await until(() => fake.received.length >= 1);
      const afterFirst = restart().get('p1', id);
      expect(afterFirst).toMatchObject({
        state: 'interrupted',
        finishedAt: afterFirst?.createdAt,
        endUnseen: { lastAnswerAt: null, runStartedAt: afterFirst?.createdAt, resumed: false },
      });

      const before = fake.received.length;
      const resumed = await (stopped.at(-1) as JobService).resume('p1', id, false);
      if (!resumed.ok) throw new Error(resumed.message);
      await until(() => fake.received.length > before);
      const afterResume = restart().get('p1', id);
      const runStartedAt = afterResume?.endUnseen?.runStartedAt ?? '';
      expect(afterResume).toMatchObject({
        state: 'interrupted',
        finishedAt: runStartedAt,
        endUnseen: { lastAnswerAt: null, resumed: true },
      });
      expect(Date.parse(runStartedAt)).toBeGreaterThanOrEqual(Date.parse(afterResume?.createdAt ?? ''));
      expect(runStartedAt).not.toBe(afterResume?.createdAt);
    } finally {
      await fake.close();
      for (const s of stopped) await s.close();
      db.close();
    }
  });
});

describe('a crash mid-job', () => {
  it('leaves the job interrupted with items matching what the sandbox did', async () => {
    const dir = tempDir('keydesk-crash-');
    // The child prints progress lines; kill it once some items are done and many are still pending.
    const out = await killJobChildAfter('test/support/job-child.ts', dir, 20);
    const jobId = /^job (\S+)$/m.exec(out)?.[1] ?? '';

    const db = new LocalDb(join(dir, 'keydesk.db'));
    const sandbox = new SandboxStore(join(dir, SANDBOX_DB_FILE));
    const inSandbox = (): Set<string> => new Set(sandbox.inspect('SELECT value FROM keys').map((r) => String(r.value)));
    let pending: string[];
    let unknown: string[];
    try {
      // The job's last recorded activity, from the file's own record of it: the audit entries of its answers are
      // written in the same transaction as the answers (none yet: the run's start).
      const reader = new DatabaseSync(join(dir, 'keydesk.db'), { readOnly: true });
      const lastAnswer = (reader.prepare("SELECT max(at) AS at FROM audit WHERE action = 'keys.delete'").get() as { at: string | null }).at;
      reader.close();
      const runAt = db.job(jobId)?.runAt ?? null;
      // Its first run: it began when the job was started, and is no resume.
      expect(runAt).toBe(db.job(jobId)?.createdAt);
      expect(db.job(jobId)).toMatchObject({ state: 'running', answeredAt: lastAnswer });
      // The next start comes three days later (the clock says so; nothing waits for it).
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.parse(lastAnswer ?? runAt ?? '') + 3 * 24 * 3_600_000);
      let jobs: JobService;
      try {
        // What a restart does first: the job was running, so it is interrupted; items on the wire become unknown.
        jobs = new JobService({ db, profile: () => null, clientFor: () => Promise.resolve(null), emit: () => undefined });
      } finally {
        vi.useRealTimers();
      }
      // Its end is the last moment it was known at work, said as such: not the next start's time.
      expect(db.job(jobId)).toMatchObject({ state: 'interrupted', finishedAt: lastAnswer ?? runAt, endUnseen: true });
      expect(jobs.get('sandbox', jobId)).toMatchObject({
        state: 'interrupted',
        finishedAt: lastAnswer ?? runAt,
        endUnseen: { lastAnswerAt: lastAnswer, runStartedAt: runAt, resumed: false },
      });
      const items = db.jobItems(jobId, undefined, 0, 5_000).items;
      expect(items).toHaveLength(2_000);
      expect(items.filter((i) => i.state === 'sent')).toEqual([]);
      const present = inSandbox();
      // done: the sandbox deleted it; pending: the sandbox never saw it; unknown: either.
      for (const item of items.filter((i) => i.state === 'done')) expect(present.has(item.target), item.target).toBe(false);
      pending = items.filter((i) => i.state === 'pending').map((i) => i.target);
      unknown = items.filter((i) => i.state === 'unknown').map((i) => i.target);
      for (const v of pending) expect(present.has(v), v).toBe(true);
      // unknown: sent with no answer recorded. One request at a time was in flight, so at most one unknown key can
      // still be in the sandbox; the items claimed ahead of their requests and never sent are pending (the send log).
      expect(unknown.filter((v) => present.has(v)).length).toBeLessThanOrEqual(1);
      // The child printed 20 answered: each is recorded done, or was still waiting to be written (its group not yet
      // committed) and so is sent in the file, which the restart made unknown.
      expect(items.filter((i) => i.state === 'done' || i.state === 'unknown').length).toBeGreaterThanOrEqual(20);
      expect(pending.length).toBeGreaterThan(0);
      expect(jobs.list('sandbox').find((j) => j.id === jobId)?.counts.pending).toBe(pending.length);
    } finally {
      sandbox.close();
      db.close();
    }

    // A restart of the whole core, then the user resumes: the pending keys go, the unknown ones are not sent.
    const core = await Core.start({
      userDataDir: dir,
      secrets: new MemorySecretStore(),
      version: 'test',
      askSavePath: () => Promise.resolve(null),
    });
    try {
      const unknownBefore = new Set(unknown.filter((v) => core.db.jobItems(jobId, 'unknown', 0, 5_000).items.some((i) => i.target === v)));
      const resumed = await core.jobs.resume('sandbox', jobId, false);
      if (!resumed.ok) throw new Error(resumed.message);
      await core.jobs.settled(jobId);
      expect(core.jobs.get('sandbox', jobId)).toMatchObject({
        state: 'finished',
        counts: { pending: 0, sent: 0, unknown: unknown.length, done: 2_000 - unknown.length },
      });
      expect(
        core.db
          .jobItems(jobId, 'unknown', 0, 5_000)
          .items.map((i) => i.target)
          .sort(),
      ).toEqual([...unknownBefore].sort());
    } finally {
      await core.close();
    }
    const after = new SandboxStore(join(dir, SANDBOX_DB_FILE));
    try {
      const present = new Set(after.inspect('SELECT value FROM keys').map((r) => String(r.value)));
      for (const v of pending) expect(present.has(v), v).toBe(false);
    } finally {
      after.close();
    }
  });
});
