// A bulk job refused with 429: with Retry-After the whole job pauses (a fake clock, so 30 s cost nothing) and
// still records the answers that arrive meanwhile; without it, the refused item is sent again before the end.
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { START_CONCURRENCY } from '../../src/main/jobs/concurrency.ts';
import { jobWritesOn } from '../../src/main/jobs/job-writes.ts';
import { Writer } from '../../src/main/store/writer.ts';
import { LocalDb } from '../../src/main/store/local-db.ts';
import type { JobSummary } from '../../src/shared/domain.ts';
import { fakeClock, fakeService, rig, service, until, values } from '../support/job-engine.ts';
import { tempDir } from '../support/temp-dir.ts';

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
