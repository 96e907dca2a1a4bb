// A generate job of two requests against a real sandbox, in each dialect the client may meet (wire.md: the detail
// one, and the real one a service that ignores Keydesk-Detail answers in): each answer is read off main by the
// ledger writer, and the ledger and the job's key export hold exactly the keys the service made.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/main/client/service-client.ts';
import { GENERATE_BATCH, JobService } from '../../src/main/jobs/job-service.ts';
import { Writer } from '../../src/main/store/writer.ts';
import { LocalDb } from '../../src/main/store/local-db.ts';
import { ROUTES } from '../../src/shared/wire.ts';
import { startTestCore, type TestCore } from '../support/core.ts';
import { startRemoteSandbox, type RemoteSandbox } from '../support/remote-sandbox.ts';
import { tempDir } from '../support/temp-dir.ts';

const COUNT = GENERATE_BATCH + 7;

describe.each(['detail', 'real'] as const)('a generate job of two requests (%s dialect)', (dialect) => {
  let t: TestCore;
  let remote: RemoteSandbox;
  let profileId: string;
  beforeAll(async () => {
    remote = await startRemoteSandbox({ name: 'Job Shop', identifier: `job-shop-${dialect}` }, { realOnly: dialect === 'real' });
    t = await startTestCore();
    const profile = await t.must('profiles.add', {
      name: 'Job Shop',
      baseUrl: remote.url,
      apiKey: remote.apiKey,
      serviceIdentifier: `job-shop-${dialect}`,
    });
    await t.must('profiles.select', { id: profile.id });
    profileId = profile.id;
  });
  afterAll(async () => {
    await t.close();
    await remote.close();
  });

  it("records exactly the service's keys in the ledger and the job's export", async () => {
    const note = `two requests ${dialect}`;
    const started = await t.must('jobs.start', { action: 'generate', count: COUNT, expire: '2099-05-31', isPremium: true, note });
    await t.core.jobs.settled(started.id);
    expect((await t.must('jobs.items', { jobId: started.id, offset: 0, limit: 10 })).items).toEqual([
      { seq: 1, target: 'batch 1', size: GENERATE_BATCH, state: 'done', code: null, message: null },
      { seq: 2, target: 'batch 2', size: 7, state: 'done', code: null, message: null },
    ]);
    expect(await t.must('jobs.get', { jobId: started.id })).toMatchObject({
      state: 'finished',
      counts: { done: COUNT, unknown: 0, failed: 0 },
    });

    const made = remote.store
      .inspect('SELECT keys.value FROM keys JOIN notes ON notes.id = keys.note_id WHERE notes.text = ? ORDER BY keys.value', note)
      .map((r) => String(r.value));
    expect(made).toHaveLength(COUNT);

    await t.core.writer.idle();
    const ledger = t.core.db.queryLedger(profileId, { text: note }, { field: 'value', dir: 'asc' }, 0, COUNT + 10, { exact: true });
    expect(ledger.total).toBe(COUNT);
    expect(ledger.rows.map((r) => r.value)).toEqual(made);
    expect(ledger.rows[0]).toMatchObject({ note, status: 'generated', isPremium: true });

    const exported = await t.must('jobs.export', { jobId: started.id, format: 'json', what: 'keys' });
    const rows = JSON.parse(readFileSync(exported.path ?? '', 'utf8')) as { value: string; note: string; status: string }[];
    expect(rows.map((r) => r.value)).toEqual(made);
    expect(rows.every((r) => r.note === note && r.status === 'generated')).toBe(true);
  });
});

// Where the point is what the service sends back (a body Keydesk cannot read), a service that sends exactly that.
describe('a generate job whose answer cannot be read off main', () => {
  let server: Server;
  let url: string;
  const answers: { status: number; type: string; body: string }[] = [];
  let requests = 0;
  let dir: string;
  let db: LocalDb;
  let writer: Writer;
  let jobs: JobService;
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume().on('end', () => {
        requests++;
        const a = req.url?.startsWith(ROUTES.generateKeyPost.path) ? answers.shift() : undefined;
        if (!a) res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"not here"}');
        else res.writeHead(a.status, { 'content-type': a.type }).end(a.body);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
    dir = tempDir('keydesk-genjob-');
    db = new LocalDb(join(dir, 'keydesk.db'));
    writer = new Writer({ file: join(dir, 'keydesk.db') });
    const client = new ServiceClient({ baseUrl: url, validationUrl: `${url}/v2_validation`, apiKey: 'test-key' }, { retryDelaysMs: [] });
    jobs = new JobService({
      db,
      profile: (id) => ({ id, name: 'Odd', kind: 'remote' }),
      clientFor: () => Promise.resolve(client),
      emit: () => undefined,
      generateIntake: () => writer.intake(),
    });
  });
  afterAll(async () => {
    await writer.close();
    db.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  const ledgerValues = () => db.queryLedger('p1', {}, { field: 'value', dir: 'asc' }, 0, 100).rows.map((r) => r.value);

  it("leaves an unreadable 2xx body unknown and records the next answer's keys", async () => {
    answers.push(
      { status: 201, type: 'text/html', body: '<html><title>Created</title></html>' },
      {
        status: 201,
        type: 'application/json',
        body: '{"message":"ok","generatedKeys":[{"value":"ODD-1","note":"odd","isPremium":false,"expire":"2099-01-01"}]}',
      },
    );
    const started = await jobs.start('p1', {
      action: 'generate',
      count: GENERATE_BATCH + 1,
      expire: '2099-01-01',
      isPremium: false,
      note: 'odd',
    });
    if (!started.ok) throw new Error(started.message);
    await jobs.settled(started.data.id);
    expect(requests).toBe(2);
    const items = db.jobItems(started.data.id, undefined, 0, 10).items;
    expect(items.map((i) => [i.target, i.state, i.code])).toEqual([
      ['batch 1', 'unknown', 'OUTCOME_UNKNOWN'],
      ['batch 2', 'done', null],
    ]);
    expect(items[0]?.message).toMatch(/accepted the request but its answer could not be read/);
    await writer.idle();
    expect(ledgerValues()).toEqual(['ODD-1']);
    expect([...db.iterateJobKeys(started.data.id, 'p1')].map((r) => r.value)).toEqual(['ODD-1']);
  });

  it('leaves an answer unknown when the reader has stopped (Keydesk quitting)', async () => {
    await writer.close();
    answers.push({ status: 201, type: 'application/json', body: '{"generatedKeys":[{"value":"LATE-1"}]}' });
    const started = await jobs.start('p1', { action: 'generate', count: 1, expire: '2099-01-01', isPremium: false, note: 'late' });
    if (!started.ok) throw new Error(started.message);
    await jobs.settled(started.data.id);
    expect(db.jobItems(started.data.id, undefined, 0, 10).items.map((i) => [i.state, i.code])).toEqual([['unknown', 'OUTCOME_UNKNOWN']]);
    expect(ledgerValues()).toEqual(['ODD-1']);
  });
});
