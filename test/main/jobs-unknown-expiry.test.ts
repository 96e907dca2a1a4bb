// A bulk extend into a service that stops answering (SIGSTOP-like: it takes the requests and answers none until it
// is let go, then applies what it took): the items sent with no answer are unknown, and some of them did take effect.
// All keys must not state their old expiry as fact: their ledger rows are marked "not read back", the All keys
// exports say expiryNotReadBack=true for exactly those, and a later read of the key from the service clears it.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchValues } from '../../src/shared/key-batch.ts';
import { ROUTES } from '../../src/shared/wire.ts';
import { startTestCore, type TestCore } from '../support/core.ts';
import { startRelay, type Relay } from '../support/relay.ts';
import { startRemoteSandbox, type RemoteSandbox } from '../support/remote-sandbox.ts';

let t: TestCore;
let remote: RemoteSandbox;
let relay: Relay;
/** Extends passed on before the service freezes; held: requests taken while frozen, passed on when let go. */
let freezeAfterExtends = Number.POSITIVE_INFINITY;
let extendsSeen = 0;
let frozen = false;
const held: (() => void)[] = [];

beforeAll(async () => {
  remote = await startRemoteSandbox({ name: 'Frozen Shop', identifier: 'frozen-shop' });
  relay = await startRelay(remote.url, ({ url }, pass) => {
    if (url.pathname === ROUTES.expandExpiration.path && ++extendsSeen > freezeAfterExtends) frozen = true;
    if (frozen)
      held.push(() => {
        pass();
      });
    else pass();
  });
  const base = relay.url;
  // A short wait for an answer, so "no answer" comes within the test's time; nothing else differs from the app.
  t = await startTestCore({ clientOptions: { timeouts: { connectMs: 5_000, headersMs: 1_000, bodyMs: 1_000 }, retryDelaysMs: [] } });
  const profile = await t.must('profiles.add', {
    name: 'Frozen Shop',
    baseUrl: base,
    apiKey: remote.apiKey,
    serviceIdentifier: 'frozen-shop',
  });
  await t.must('profiles.select', { id: profile.id });
  await t.core.jobs.setCeiling(profile.id, 2);
});
afterAll(async () => {
  await t.close();
  await relay.close();
  await remote.close();
});

const expiryOnService = (value: string): number | undefined =>
  remote.store.inspect('SELECT expires_at FROM keys WHERE value = ?', value)[0]?.expires_at as number | undefined;

describe('a bulk extend whose service stops answering mid-job', () => {
  it("marks unknown items' expiry not read back until the key is read", async () => {
    const keys = batchValues(
      (await t.must('keys.generate', { expire: '2099-01-31', count: 12, isPremium: false, note: 'frozen batch' })).generated,
    );
    await t.core.writer.idle();
    const before = Date.UTC(2099, 0, 31, 23, 59, 59, 999);
    const after = Date.UTC(2099, 1, 5, 23, 59, 59, 999);

    freezeAfterExtends = 4;
    const job = await t.must('jobs.start', { action: 'extend', target: { keyValues: keys }, days: 5 });
    // The service is let go once two requests have gone unanswered: it then applies what it took.
    for (;;) {
      const seen = await t.must('jobs.get', { jobId: job.id });
      if (seen.counts.unknown >= 2) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    freezeAfterExtends = Number.POSITIVE_INFINITY;
    frozen = false;
    for (const pass of held.splice(0)) pass();
    await t.core.jobs.settled(job.id);
    await t.core.writer.idle();

    const { items } = await t.must('jobs.items', { jobId: job.id, offset: 0, limit: 20 });
    const unknown = items.filter((i) => i.state === 'unknown').map((i) => i.target);
    const done = items.filter((i) => i.state === 'done').map((i) => i.target);
    expect(unknown.length).toBeGreaterThanOrEqual(2);
    expect(unknown.length + done.length).toBe(12);
    // Some unknown extends did take effect on the service (it applied what it held): the old date would be false.
    await expect.poll(() => unknown.filter((v) => expiryOnService(v) === after).length, { timeout: 10_000 }).toBeGreaterThan(0);

    const filter = { text: 'frozen batch' };
    const sort = { field: 'value', dir: 'asc' } as const;
    const rows = (await t.must('ledger.query', { filter, sort, offset: 0, limit: 20 })).rows;
    expect(rows).toHaveLength(12);
    for (const r of rows) {
      if (unknown.includes(r.value)) expect(r).toMatchObject({ expiresAt: new Date(before).toISOString(), expiryStale: true });
      else {
        expect(r.expiresAt).toBe(new Date(after).toISOString());
        expect(r.expiryStale).toBeUndefined();
      }
    }

    const csv = await t.must('ledger.export', { filter, sort, format: 'csv' });
    const [header = '', ...lines] = readFileSync(csv.path ?? '', 'utf8')
      .trim()
      .split('\n');
    const columns = header.split(',');
    const cells = lines.map((l) => l.split(','));
    expect(cells.map((c) => [c[columns.indexOf('value')], c[columns.indexOf('expiryNotReadBack')]])).toEqual(
      rows.map((r) => [r.value, unknown.includes(r.value) ? 'true' : 'false']),
    );
    const json = await t.must('ledger.export', { filter, sort, format: 'json' });
    const exported = JSON.parse(readFileSync(json.path ?? '', 'utf8')) as { value: string; expiryNotReadBack: boolean }[];
    expect(exported.map((r) => [r.value, r.expiryNotReadBack])).toEqual(rows.map((r) => [r.value, unknown.includes(r.value)]));

    // Reading the key from the service again clears the mark, with the expiry the service holds.
    const [first = ''] = unknown;
    await t.must('keys.lookup', { term: first });
    await t.core.writer.idle();
    const reread = (await t.must('ledger.query', { filter: { text: first }, sort, offset: 0, limit: 1 })).rows[0];
    expect(reread?.expiresAt).toBe(new Date(expiryOnService(first) ?? 0).toISOString());
    expect(reread?.expiryStale).toBeUndefined();
  });
});
