// A bulk job's items sent with no answer: unknown, never sent again unless the user asks; a send that throws is
// worded for the item and the audit, its raw text kept for the log. A job is seen only from its own profile.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ServiceClient } from '../../src/main/client/service-client.ts';
import { JobService } from '../../src/main/jobs/job-service.ts';
import { LocalDb } from '../../src/main/store/local-db.ts';
import { fakeService, service, values, type FakeService } from '../support/job-engine.ts';
import { tempDir } from '../support/temp-dir.ts';

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
