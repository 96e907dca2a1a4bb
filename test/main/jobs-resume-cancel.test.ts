// Resuming and cancelling a bulk job: one run at a time per profile, a cancel that sends nothing more and ends
// once the requests on the wire answer, items claimed ahead shown pending, and a job seen running elsewhere.
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { START_CONCURRENCY } from '../../src/main/jobs/concurrency.ts';
import { readSendLogs } from '../../src/main/jobs/send-log.ts';
import { LocalDb } from '../../src/main/store/local-db.ts';
import type { JobSummary } from '../../src/shared/domain.ts';
import { cutOffWords } from '../../src/shared/job-words.ts';
import { fakeService, rig, service, until, values } from '../support/job-engine.ts';
import { tempDir } from '../support/temp-dir.ts';

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

  it('records a cancelled job as cancelled, cutting off requests on the wire', async () => {
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
