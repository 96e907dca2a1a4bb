// What a bulk job writes, read back by value from a second connection (as the ledger writer's thread or a restart
// sees it): answers are written in groups, yet no request leaves before its item is committed as sent; and after
// extend, HWID reset and delete the ledger's text index and per-status counts still agree with its rows.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/main/client/service-client.ts';
import { JobService } from '../../src/main/jobs/job-service.ts';
import { jobWritesOn, type JobWrites } from '../../src/main/jobs/job-writes.ts';
import { Writer } from '../../src/main/store/writer.ts';
import { LocalDb } from '../../src/main/store/local-db.ts';
import type { OperationInput } from '../../src/shared/contract.ts';
import { tempDir } from '../support/temp-dir.ts';
import { startTestCore, type TestCore } from '../support/core.ts';
import { startRemoteSandbox, type RemoteSandbox } from '../support/remote-sandbox.ts';
import { batchValues } from '../../src/shared/key-batch.ts';

describe.each([
  { where: "on main's connection", writes: (): JobWrites | undefined => undefined },
  // As the app writes them: claims served ahead of answers still queued there.
  { where: 'on the writer thread', writes: (file: string): JobWrites | undefined => jobWritesOn(new Writer({ file })) },
])('a bulk job whose answers are written in groups $where', ({ writes }) => {
  it('commits every item as sent before its request reaches the service', async () => {
    const file = join(tempDir('keydesk-jobs-'), 'keydesk.db');
    const jobWrites = writes(file);
    const db = new LocalDb(file);
    // Another connection sees only what was committed.
    const reader = new DatabaseSync(file, { readOnly: true });
    const stateOf = reader.prepare('SELECT state FROM job_items WHERE target = ?');
    const seen: { key: string; state: unknown }[] = [];
    const server: Server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (d: string) => (body += d));
      req.on('end', () => {
        const { keyValue = '' } = JSON.parse(body || '{}') as { keyValue?: string };
        seen.push({ key: keyValue, state: (stateOf.get(keyValue) as { state: string } | undefined)?.state });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, deletedKey: keyValue }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = new ServiceClient({ baseUrl: url, validationUrl: `${url}/v2_validation`, apiKey: 'test-key' }, { retryDelaysMs: [] });
    const jobs = new JobService({
      db,
      profile: (id) => ({ id, name: 'Fake', kind: 'sandbox' }),
      clientFor: () => Promise.resolve(client),
      emit: () => undefined,
      ...(jobWrites ? { writes: jobWrites } : {}),
    });
    try {
      const keys = Array.from({ length: 1_500 }, (_, i) => `G${String(i).padStart(5, '0')}`);
      const started = await jobs.start('p1', { action: 'delete', target: { keyValues: keys } });
      if (!started.ok) throw new Error(started.message);
      await jobs.settled(started.data.id);

      expect(seen.map((s) => s.key).sort()).toEqual(keys);
      // Committed as sent, never still pending (an answer may not be written yet, but the claim always is).
      expect(seen.filter((s) => s.state !== 'sent')).toEqual([]);
      const states = reader.prepare('SELECT state, count(*) AS n FROM job_items GROUP BY state').all();
      expect(states).toEqual([{ state: 'done', n: 1_500 }]);
      // One act, one entry in Activity: its counts, not 1,500 entries.
      expect(db.listAudit({ action: 'keys.delete' }, 0, 10).entries).toMatchObject([
        { outcome: 'ok', target: '1,500 keys', job: { id: started.data.id, counts: { done: 1_500, failed: 0, unknown: 0, pending: 0 } } },
      ]);
      expect(db.job(started.data.id)?.state).toBe('finished');
    } finally {
      await jobs.close();
      reader.close();
      db.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

describe('the ledger after bulk extend, HWID reset and delete (full-dialect sandbox)', () => {
  let t: TestCore;
  let remote: RemoteSandbox;
  let profileId: string;
  let keys: string[];
  beforeAll(async () => {
    remote = await startRemoteSandbox({ name: 'Index Shop', identifier: 'index-shop' });
    t = await startTestCore();
    const profile = await t.must('profiles.add', {
      name: 'Index Shop',
      baseUrl: remote.url,
      apiKey: remote.apiKey,
      serviceIdentifier: 'index-shop',
    });
    await t.must('profiles.select', { id: profile.id });
    profileId = profile.id;
    keys = batchValues(
      (await t.must('keys.generate', { expire: '2099-01-31', count: 8, isPremium: false, note: 'Index Batch' })).generated,
    ).sort();
    // Six of them bound to a HWID, and the ledger told so by a lookup.
    for (const [i, v] of keys.slice(0, 6).entries())
      await t.must('validation.run', { mode: 'key', keyValue: v, hwid: { custom: `HW-IDX-${i}` }, confirmActivation: true });
    await t.must('keys.lookup', { term: 'Index Batch' });
    await t.core.writer.idle();
  });
  afterAll(async () => {
    await t.close();
    await remote.close();
  });

  it('finds every key by note, HWID state and value, counting each status', async () => {
    const run = async (input: OperationInput<'jobs.start'>): Promise<void> => {
      const job = await t.must('jobs.start', input);
      await t.core.jobs.settled(job.id);
      expect(await t.must('jobs.get', { jobId: job.id })).toMatchObject({ state: 'finished', counts: { done: job.total } });
    };
    const [e0, e1, r2, r3, d4] = keys as [string, string, string, string, string, ...string[]];
    await run({ action: 'extend', target: { keyValues: [e0, e1] }, days: 5 });
    await run({ action: 'resetHwid', target: { keyValues: [r2, r3] } });
    await run({ action: 'delete', target: { keyValues: [d4] } });

    const second = new LocalDb(join(t.userData, 'keydesk.db'));
    const raw = new DatabaseSync(join(t.userData, 'keydesk.db'), { readOnly: true });
    try {
      const found = (text: string): string[] => second.ledgerValues(profileId, { text }, 100).values.sort();
      // The text index still holds every row: by note, and each by its value.
      expect(found('index batch')).toEqual(keys.filter((k) => k !== d4).sort());
      expect(found('Index Batch')).toHaveLength(7);
      for (const v of keys)
        expect(second.ledgerValues(profileId, { text: v, status: v === d4 ? 'deleted' : undefined }, 10).values).toEqual([v]);
      // Extended keys keep their HWID in the index; reset keys are no longer found by the HWID they had.
      expect(found('hw-idx-0')).toEqual([e0]);
      expect(found('hw-idx-1')).toEqual([e1]);
      expect(found('hw-idx-2')).toEqual([]);
      expect(found('hw-idx-3')).toEqual([]);
      expect(found('hw-idx-5')).toEqual([keys[5]]);

      // Each row as the service has it now.
      const rows = new Map([...second.iterateLedgerKeys(profileId, keys)].map((r) => [r.value, r]));
      for (const v of [e0, e1]) {
        const ms = Number(remote.store.inspect('SELECT expires_at FROM keys WHERE value = ?', v)[0]?.expires_at);
        expect(rows.get(v)).toMatchObject({ expiresAt: new Date(ms).toISOString(), status: 'active', note: 'Index Batch' });
      }
      expect(rows.get(r2)).toMatchObject({ hwid: null, status: 'active' });
      expect(rows.get(d4)).toMatchObject({ status: 'deleted' });

      // The per-status counts the triggers keep equal a count of the rows.
      const kept = raw.prepare('SELECT status, n FROM ledger_counts WHERE profile_id = ? AND n > 0 ORDER BY status').all(profileId);
      const counted = raw
        .prepare('SELECT status, count(*) AS n FROM ledger WHERE profile_id = ? GROUP BY status ORDER BY status')
        .all(profileId);
      expect(kept).toEqual(counted);
      expect(counted).toEqual([
        { status: 'active', n: 5 },
        { status: 'deleted', n: 1 },
        { status: 'generated', n: 2 },
      ]);
    } finally {
      raw.close();
      second.close();
    }
  });
});

describe("a ledger row's mark for an expiry not read back", () => {
  it('is set for the keys named, cleared by any later full description', () => {
    const db = new LocalDb(join(tempDir('keydesk-jobs-'), 'keydesk.db'));
    try {
      const base = {
        id: '',
        note: 'n',
        status: 'active' as const,
        isPremium: false,
        hwid: null,
        expire: null,
        expiresByDaysKey: false,
        daysKey: null,
        createdAt: null,
        activatedAt: null,
        lastResetAt: null,
        serviceId: '',
      };
      const key = (value: string, expiresAt: string) => ({ ...base, value, expiresAt });
      db.recordKeys(
        'p1',
        ['A', 'B', 'C', 'D'].map((v) => key(v, '2030-01-01T00:00:00.000Z')),
      );
      db.markStale('p1', 'expiry', ['A', 'B', 'C']);
      const marked = (): string[] => [...db.iterateLedgerKeys('p1', ['A', 'B', 'C', 'D'])].filter((r) => r.expiryStale).map((r) => r.value);
      expect(marked()).toEqual(['A', 'B', 'C']);
      // A job's answer describing the key (the narrow update), a list or lookup (the full upsert), and a key
      // described in part with its expiry (recordReportedFields) each clear it.
      db.createJob({ id: 'j', profileId: 'p1', action: 'extend', params: '{}', createdAt: new Date().toISOString() }, { keyValues: ['A'] });
      const [claimed] = db.jobStep(null, { jobId: 'j', max: 1 });
      db.settleJobItems({
        jobId: 'j',
        profileId: 'p1',
        items: [{ seq: claimed?.seq ?? 1, state: 'done', code: null, message: null }],
        seenKeys: [key('A', '2031-01-01T00:00:00.000Z')],
        deletedValues: [],
      });
      expect(marked()).toEqual(['B', 'C']);
      db.recordKeys('p1', [key('B', '2031-01-01T00:00:00.000Z')]);
      expect(marked()).toEqual(['C']);
      db.recordReportedFields('p1', { ...key('C', '2031-01-01T00:00:00.000Z'), unreported: ['status'] });
      expect(marked()).toEqual([]);
      expect([...db.iterateLedgerKeys('p1', ['A', 'B', 'C'])].map((r) => r.expiresAt)).toEqual(Array(3).fill('2031-01-01T00:00:00.000Z'));
    } finally {
      db.close();
    }
  });

  it("is set for an extend job's items still sent when Keydesk stopped", () => {
    const db = new LocalDb(join(tempDir('keydesk-jobs-'), 'keydesk.db'));
    try {
      const base = {
        id: '',
        note: 'n',
        status: 'active' as const,
        isPremium: false,
        hwid: null,
        expire: null,
        expiresByDaysKey: false,
        daysKey: null,
        createdAt: null,
        activatedAt: null,
        lastResetAt: null,
        serviceId: '',
      };
      db.recordKeys(
        'p1',
        ['A', 'B', 'C', 'D'].map((value) => ({ ...base, value, expiresAt: '2030-01-01T00:00:00.000Z' })),
      );
      const at = new Date().toISOString();
      db.createJob({ id: 'ext', profileId: 'p1', action: 'extend', params: '{"days":1}', createdAt: at }, { keyValues: ['A', 'B', 'C'] });
      db.createJob({ id: 'del', profileId: 'p1', action: 'delete', params: '{}', createdAt: at }, { keyValues: ['D'] });
      // A and B go on the wire; C is never claimed (pending: nothing was sent). D is a delete's item, sent.
      expect(db.jobStep(null, { jobId: 'ext', max: 2 }).map((i) => i.target)).toEqual(['A', 'B']);
      expect(db.jobStep(null, { jobId: 'del', max: 1 }).map((i) => i.target)).toEqual(['D']);
      db.interruptRunningJobs('Keydesk stopped while this job ran.');
      expect([...db.iterateLedgerKeys('p1', ['A', 'B', 'C', 'D'])].filter((r) => r.expiryStale).map((r) => r.value)).toEqual(['A', 'B']);
    } finally {
      db.close();
    }
  });
});

describe("a ledger row's marks for an HWID or a status not read back (an HWID reset or a delete sent with no answer)", () => {
  const base = {
    id: '',
    note: 'n',
    status: 'active' as const,
    isPremium: false,
    expiresAt: '2030-01-01T00:00:00.000Z',
    expire: null,
    expiresByDaysKey: false,
    daysKey: null,
    createdAt: null,
    activatedAt: null,
    lastResetAt: null,
    serviceId: '',
  };
  const key = (value: string, hwid: string | null) => ({ ...base, value, hwid });
  const marked = (db: LocalDb, what: 'hwidStale' | 'statusStale', values: string[]): string[] =>
    [...db.iterateLedgerKeys('p1', values)].filter((r) => r[what]).map((r) => r.value);

  it('are set for unknown items whose act would change what is shown', () => {
    const db = new LocalDb(join(tempDir('keydesk-jobs-'), 'keydesk.db'));
    try {
      db.recordKeys('p1', [key('A', 'HW-A'), key('B', 'HW-B'), key('C', 'HW-C'), key('N', null), key('G', null)]);
      db.markDeleted('p1', 'G');
      const all = ['A', 'B', 'C', 'N', 'G'];
      // A reset of a key with no HWID leaves what is shown either way; a delete of a deleted key too.
      db.settleJobItems({
        jobId: 'none',
        profileId: 'p1',
        items: [],
        seenKeys: [],
        hwidStale: ['A', 'B', 'C', 'N'],
        statusStale: ['A', 'B', 'G'],
        deletedValues: [],
      });
      expect(marked(db, 'hwidStale', all)).toEqual(['A', 'B', 'C']);
      expect(marked(db, 'statusStale', all)).toEqual(['A', 'B']);
      expect([...db.iterateLedgerKeys('p1', ['A'])][0]).toMatchObject({
        status: 'active',
        hwid: 'HW-A',
        hwidStale: true,
        statusStale: true,
      });

      // A job's answer describing the key (the narrow update) clears both; a list or lookup (the full upsert) too.
      db.createJob(
        { id: 'j', profileId: 'p1', action: 'resetHwid', params: '{}', createdAt: new Date().toISOString() },
        { keyValues: ['A'] },
      );
      const [claimed] = db.jobStep(null, { jobId: 'j', max: 1 });
      db.settleJobItems({
        jobId: 'j',
        profileId: 'p1',
        items: [{ seq: claimed?.seq ?? 1, state: 'done', code: null, message: null }],
        seenKeys: [key('A', null)],
        deletedValues: [],
      });
      expect(marked(db, 'hwidStale', all)).toEqual(['B', 'C']);
      expect(marked(db, 'statusStale', all)).toEqual(['B']);
      db.recordKeys('p1', [key('B', 'HW-B')]);
      expect(marked(db, 'hwidStale', all)).toEqual(['C']);
      expect(marked(db, 'statusStale', all)).toEqual([]);
      // A reset answered with its message alone (the HWID cleared), and a key described in part, clear the HWID's.
      db.markStale('p1', 'hwid', ['B']);
      db.settleJobItems({ jobId: 'none', profileId: 'p1', items: [], seenKeys: [], hwidCleared: ['C'], deletedValues: [] });
      db.recordReportedFields('p1', { ...key('B', 'HW-B'), unreported: ['status'] });
      expect(marked(db, 'hwidStale', all)).toEqual([]);
      // A delete answered clears the status's, as deleted is now a fact.
      db.markStale('p1', 'status', ['B', 'C']);
      db.settleJobItems({ jobId: 'none', profileId: 'p1', items: [], seenKeys: [], deletedValues: ['B'] });
      db.markDeleted('p1', 'C');
      expect(marked(db, 'statusStale', all)).toEqual([]);
      expect([...db.iterateLedgerKeys('p1', ['B', 'C'])].map((r) => r.status)).toEqual(['deleted', 'deleted']);
    } finally {
      db.close();
    }
  });

  it('are set for reset and delete items still sent when Keydesk stopped', () => {
    const db = new LocalDb(join(tempDir('keydesk-jobs-'), 'keydesk.db'));
    try {
      db.recordKeys('p1', [key('A', 'HW-A'), key('B', 'HW-B'), key('C', 'HW-C'), key('D', 'HW-D'), key('E', 'HW-E')]);
      const at = new Date().toISOString();
      db.createJob({ id: 'reset', profileId: 'p1', action: 'resetHwid', params: '{}', createdAt: at }, { keyValues: ['A', 'B'] });
      db.createJob({ id: 'del', profileId: 'p1', action: 'delete', params: '{}', createdAt: at }, { keyValues: ['C', 'D'] });
      // A and C go on the wire; B and D are never claimed (pending: nothing was sent).
      expect(db.jobStep(null, { jobId: 'reset', max: 1 }).map((i) => i.target)).toEqual(['A']);
      expect(db.jobStep(null, { jobId: 'del', max: 1 }).map((i) => i.target)).toEqual(['C']);
      db.interruptRunningJobs('Keydesk stopped while this job ran.');
      const all = ['A', 'B', 'C', 'D', 'E'];
      expect(marked(db, 'hwidStale', all)).toEqual(['A']);
      expect(marked(db, 'statusStale', all)).toEqual(['C']);
      expect([...db.iterateLedgerKeys('p1', all)].filter((r) => r.expiryStale).map((r) => r.value)).toEqual([]);
    } finally {
      db.close();
    }
  });
});
