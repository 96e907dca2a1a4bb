// "Send the N unknown again" is a yes for that one run. A run that stops before it has re-sent them all (no apiKey,
// a cancel, the network gone, a crash) leaves the rest unknown, with their evidence, and a plain Resume (no yes)
// never sends them: extend is not idempotent.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/main/client/service-client.ts';
import { JobService } from '../../src/main/jobs/job-service.ts';
import { LocalDb } from '../../src/main/store/local-db.ts';
import { killJobChildAfter } from '../support/job-crash.ts';
import { tempDir } from '../support/temp-dir.ts';

/**
 * A service that answers every request with a page Keydesk cannot read (a 2xx, not JSON: the outcome unknown) until
 * told to answer; it logs every key sent. Not a dropped connection: a service that drops every one is gone, and a
 * job stops sending to it after a few (jobs-dead.test.ts); these jobs must send every key.
 */
let server: Server;
let url = '';
const received: string[] = [];
let fate: 'unreadable' | 'ok' | 'rate-limited-once' = 'unreadable';
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      const { keyValue } = JSON.parse(body || '{}') as { keyValue?: string };
      received.push(keyValue ?? '');
      if (fate === 'unreadable') {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html><title>Lost</title></html>');
        return;
      }
      if (fate === 'rate-limited-once') {
        fate = 'ok';
        res
          .writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' })
          .end(JSON.stringify({ success: false, message: 'Too many requests' }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, deletedKey: keyValue }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const clientAt = (at: string): ServiceClient =>
  new ServiceClient({ baseUrl: at, validationUrl: `${at}/v2_validation`, apiKey: 'k' }, { retryDelaysMs: [] });

/** A job service whose client the test swaps (null: no apiKey), and a job of `n` keys all ended unknown. */
async function unknownJob(n: number, action: 'delete' | 'extend') {
  fate = 'unreadable';
  received.length = 0;
  const db = new LocalDb(join(tempDir('keydesk-retry-'), 'keydesk.db'));
  const state: { client: ServiceClient | null } = { client: clientAt(url) };
  const jobs = new JobService({
    db,
    profile: (id) => ({ id, name: 'Fake', kind: 'remote' }),
    clientFor: () => Promise.resolve(state.client),
    emit: () => undefined,
  });
  await jobs.setCeiling('p1', 1);
  const keys = Array.from({ length: n }, (_, i) => `U${String(i).padStart(4, '0')}`);
  const started = await jobs.start(
    'p1',
    action === 'extend' ? { action, target: { keyValues: keys }, days: 1 } : { action, target: { keyValues: keys } },
  );
  if (!started.ok) throw new Error(started.message);
  const id = started.data.id;
  await jobs.settled(id);
  expect(jobs.get('p1', id)?.counts).toMatchObject({ unknown: n, pending: 0, sent: 0 });
  const evidence = db.jobItems(id, 'unknown', 0, n).items;
  expect(evidence.every((i) => i.code === 'OUTCOME_UNKNOWN' && i.message !== null)).toBe(true);
  received.length = 0;
  return { db, jobs, id, state, evidence, keys };
}

describe('sending the unknown items again', () => {
  it('leaves them unknown, with evidence, when the re-send lacks an apiKey', async () => {
    const { db, jobs, id, state, evidence } = await unknownJob(3, 'delete');
    try {
      state.client = null;
      const before = jobs.get('p1', id);
      const retried = await jobs.resume('p1', id, true);
      expect(retried).toMatchObject({ ok: false, code: 'KEYCHAIN_UNAVAILABLE' });
      // The job stays as it stopped (nothing ran): its state, reason and end unchanged.
      expect(jobs.get('p1', id)).toMatchObject({
        state: before?.state,
        reason: before?.reason,
        finishedAt: before?.finishedAt,
        counts: { unknown: 3, pending: 0, sent: 0 },
      });
      expect(db.jobItems(id, undefined, 0, 10).items).toEqual(evidence);

      state.client = clientAt(url);
      fate = 'ok';
      const resumed = await jobs.resume('p1', id, false);
      expect(resumed.ok).toBe(true);
      await jobs.settled(id);
      expect(received).toEqual([]);
      expect(jobs.get('p1', id)?.counts).toMatchObject({ unknown: 3, pending: 0 });
    } finally {
      db.close();
    }
  });

  it('leaves the ones not yet re-sent unknown when the re-send is cancelled', async () => {
    const { db, jobs, id } = await unknownJob(50, 'extend');
    try {
      const retried = await jobs.resume('p1', id, true);
      expect(retried.ok).toBe(true);
      jobs.cancel('p1', id);
      await jobs.settled(id);
      const resent = received.length;
      // Each one re-sent was lost again (unknown again); the rest were never sent in that run: unknown as before.
      expect(resent).toBeLessThan(50);
      expect(jobs.get('p1', id)).toMatchObject({ state: 'cancelled', counts: { unknown: 50, pending: 0, sent: 0, done: 0 } });

      fate = 'ok';
      await jobs.resume('p1', id, false);
      await jobs.settled(id);
      expect(received).toHaveLength(resent);
      expect(jobs.get('p1', id)?.counts).toMatchObject({ unknown: 50, pending: 0 });
    } finally {
      db.close();
    }
  });

  it('leaves them unknown when the network stops the re-send', async () => {
    const { db, jobs, id, state, evidence } = await unknownJob(3, 'delete');
    try {
      // Nothing listens there: the request never reaches a service (NETWORK), and the job stops interrupted.
      const dead = createServer();
      await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
      const deadUrl = `http://127.0.0.1:${(dead.address() as AddressInfo).port}`;
      await new Promise((r) => dead.close(r));
      state.client = clientAt(deadUrl);
      await jobs.resume('p1', id, true);
      await jobs.settled(id);
      expect(jobs.get('p1', id)).toMatchObject({ state: 'interrupted', counts: { unknown: 3, pending: 0, sent: 0 } });
      expect(db.jobItems(id, undefined, 0, 10).items).toEqual(evidence);
      // Nothing is left to resume (no Resume is offered): the words offer what is, sending the unknown again.
      const { reason } = jobs.get('p1', id) ?? {};
      expect(reason).not.toMatch(/Resume/);
      expect(reason).toMatch(/refused the connection/);
      expect(reason).toMatch(/When this is fixed, "Send the 3 unknown again…" sends them once more, if you choose to\.$/);

      state.client = clientAt(url);
      fate = 'ok';
      await jobs.resume('p1', id, false);
      await jobs.settled(id);
      expect(received).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('sends each once in that run, and the run ends', async () => {
    const { db, jobs, id } = await unknownJob(3, 'delete');
    try {
      fate = 'rate-limited-once';
      await jobs.resume('p1', id, true);
      await jobs.settled(id);
      expect(received).toHaveLength(4);
      expect(jobs.get('p1', id)).toMatchObject({ state: 'finished', counts: { done: 3, unknown: 0, pending: 0, sent: 0 } });

      const again = await unknownJob(2, 'delete');
      try {
        await again.jobs.resume('p1', again.id, true);
        await again.jobs.settled(again.id);
        expect(received).toHaveLength(2);
        expect(again.jobs.get('p1', again.id)).toMatchObject({ state: 'finished', counts: { unknown: 2, pending: 0, sent: 0 } });
      } finally {
        again.db.close();
      }
    } finally {
      db.close();
    }
  });

  it('leaves them unknown after a crash in the middle of the re-send', async () => {
    const dir = tempDir('keydesk-retry-crash-');
    const out = await killJobChildAfter('test/support/job-retry-child.ts', dir, 10);
    expect(out).toMatch(/^unknown 400$/m);
    const jobId = /^job (\S+)$/m.exec(out)?.[1] ?? '';
    const db = new LocalDb(join(dir, 'keydesk.db'));
    try {
      // The next start: every item either re-sent and answered (done), or still unknown; none "not sent".
      const jobs = new JobService({
        db,
        profile: (id) => ({ id, name: 'Fake', kind: 'remote' }),
        clientFor: () => Promise.resolve(clientAt(url)),
        emit: () => undefined,
      });
      const counts = jobs.get('p1', jobId)?.counts;
      expect(counts).toMatchObject({ pending: 0, sent: 0, failed: 0 });
      expect((counts?.done ?? 0) + (counts?.unknown ?? 0)).toBe(400);
      // The child printed 10 re-sent and answered (killJobChildAfter waits for it), but not all of those need be in
      // the file: an answer's group may not have been committed when the kill came, and its item is then unknown.
      expect(counts?.unknown).toBeGreaterThan(0);
      expect(db.jobItems(jobId, undefined, 0, 400).items.every((i) => i.state === 'done' || i.state === 'unknown')).toBe(true);

      fate = 'ok';
      received.length = 0;
      await jobs.resume('p1', jobId, false);
      await jobs.settled(jobId);
      expect(received).toEqual([]);
    } finally {
      db.close();
    }
  });
});
