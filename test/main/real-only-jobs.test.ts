// A bulk extend against a real-only sandbox whose extend answer is `{message}` alone (wire.md "Client
// tolerance": extend comes "with or without key"): a pass-through in front of the sandbox drops the key from that
// answer and nothing else. The keys really move on the service; the job must read them back so the ledger never
// shows the old expiry as current, and say so when it cannot.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/shared/wire.ts';
import { startTestCore, type TestCore } from '../support/core.ts';
import { startRemoteSandbox, type RemoteSandbox } from '../support/remote-sandbox.ts';
import { batchValues } from '../../src/shared/key-batch.ts';

let t: TestCore;
let remote: RemoteSandbox;
let proxy: Server;
/** Reads fail for these key values (the read-back cannot find them), as a service that lags behind might. */
const unreadable = new Set<string>();

beforeAll(async () => {
  remote = await startRemoteSandbox({ name: 'Terse Shop', identifier: 'terse-shop' }, { realOnly: true });
  proxy = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', remote.url);
      const fetchTerm = url.searchParams.get('fetch');
      if (fetchTerm !== null && unreadable.has(fetchTerm)) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Key not found' }));
        return;
      }
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length')) as Record<
        string,
        string
      >;
      void fetch(url, { method: req.method ?? 'GET', headers, body: req.method === 'GET' ? null : body }).then(async (up) => {
        let text = await up.text();
        if (url.pathname === ROUTES.expandExpiration.path && up.ok)
          text = JSON.stringify({ message: (JSON.parse(text) as { message: string }).message });
        res.writeHead(up.status, { 'content-type': 'application/json' }).end(text);
      });
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  t = await startTestCore();
  const profile = await t.must('profiles.add', {
    name: 'Terse Shop',
    baseUrl: base,
    apiKey: remote.apiKey,
    serviceIdentifier: 'terse-shop',
  });
  await t.must('profiles.select', { id: profile.id });
});
afterAll(async () => {
  await t.close();
  proxy.closeAllConnections();
  await new Promise((r) => proxy.close(r));
  await remote.close();
});

describe('a bulk extend answered with {message} alone (real-only sandbox)', () => {
  it('reads each key back so the ledger shows the new expiry', async () => {
    const keys = batchValues(
      (await t.must('keys.generate', { expire: '2099-01-31', count: 4, isPremium: false, note: 'terse batch' })).generated,
    );
    await t.must('validation.run', { mode: 'key', keyValue: keys[0] ?? '', hwid: { custom: 'HW-TERSE' }, confirmActivation: true });
    const lost = keys[3] ?? '';
    unreadable.add(lost);

    const job = await t.must('jobs.start', { action: 'extend', target: { keyValues: keys }, days: 5 });
    await t.core.jobs.settled(job.id);
    expect(await t.must('jobs.get', { jobId: job.id })).toMatchObject({ state: 'finished', counts: { done: 4, failed: 0, unknown: 0 } });

    // The service moved every key by five days (the pass-through only dropped the answer's key).
    for (const v of keys)
      expect(remote.store.inspect('SELECT expires_at FROM keys WHERE value = ?', v)[0]?.expires_at).toBe(
        Date.UTC(2099, 1, 5, 23, 59, 59, 999),
      );

    const rows = (
      await t.must('ledger.query', { filter: { text: 'terse batch' }, sort: { field: 'value', dir: 'asc' }, offset: 0, limit: 10 })
    ).rows;
    const byValue = new Map(rows.map((r) => [r.value, r]));
    for (const v of keys.filter((k) => k !== lost)) expect(byValue.get(v)?.expiresAt).toBe('2099-02-05T23:59:59.999Z');
    expect(byValue.get(keys[0] ?? '')?.status).toBe('active');

    const { items } = await t.must('jobs.items', { jobId: job.id, offset: 0, limit: 10 });
    expect(items.filter((i) => i.target !== lost).every((i) => i.state === 'done' && i.message === null)).toBe(true);
    // The panel's list of rows left with the earlier expiry: exactly that key.
    expect(await t.must('jobs.items', { jobId: job.id, state: 'done', noted: true, offset: 0, limit: 10 })).toMatchObject({
      total: 1,
      items: [{ target: lost }],
    });
    expect(items.find((i) => i.target === lost)).toMatchObject({
      state: 'done',
      message: expect.stringMatching(/could not be read back: All keys still shows the expiry seen before/) as unknown,
    });

    // The ledger marks that row, and only that one, as showing the expiry seen before.
    expect(byValue.get(lost)).toMatchObject({ expiresAt: '2099-01-31T23:59:59.999Z', expiryStale: true });
    expect(rows.filter((r) => r.expiryStale).map((r) => r.value)).toEqual([lost]);
    // A later full description of the key (a lookup, once the service can find it) clears the mark.
    unreadable.delete(lost);
    await t.must('keys.lookup', { term: lost });
    await t.core.writer.idle();
    const after = (await t.must('ledger.query', { filter: { text: lost }, sort: { field: 'value', dir: 'asc' }, offset: 0, limit: 1 }))
      .rows[0];
    expect(after).toMatchObject({ value: lost, expiresAt: '2099-02-05T23:59:59.999Z' });
    expect(after?.expiryStale).toBeUndefined();
  });

  it('marks a panel-extended key whose new expiry could not be read back', async () => {
    const [key = ''] = batchValues(
      (await t.must('keys.generate', { expire: '2099-03-31', count: 1, isPremium: false, note: 'terse single' })).generated,
    );
    await t.core.writer.idle();
    unreadable.add(key);
    expect(await t.must('keys.extend', { keyValue: key, days: 2 })).toEqual({ key: null });
    const row = (await t.must('ledger.query', { filter: { text: key }, sort: { field: 'value', dir: 'asc' }, offset: 0, limit: 1 }))
      .rows[0];
    expect(row).toMatchObject({ value: key, expiresAt: '2099-03-31T23:59:59.999Z', expiryStale: true });
  });

  it('exports All keys with the "expiry not read back" mark per row', async () => {
    const stale =
      (await t.must('ledger.query', { filter: { text: 'terse single' }, sort: { field: 'value', dir: 'asc' }, offset: 0, limit: 1 }))
        .rows[0]?.value ?? '';
    const filter = { text: 'terse' };
    const sort = { field: 'value', dir: 'asc' } as const;
    const shown = (await t.must('ledger.query', { filter, sort, offset: 0, limit: 10 })).rows;
    expect(shown).toHaveLength(5);

    const csv = await t.must('ledger.export', { filter, sort, format: 'csv' });
    const [header = '', ...lines] = readFileSync(csv.path ?? '', 'utf8')
      .trim()
      .split('\n');
    const columns = header.split(',');
    expect(columns).toContain('expiryNotReadBack');
    const cells = lines.map((l) => l.split(','));
    const at = (name: string) => columns.indexOf(name);
    expect(cells.map((c) => [c[at('value')], c[at('expiresAt')], c[at('expiryNotReadBack')]])).toEqual(
      shown.map((r) => [r.value, r.expiresAt, r.value === stale ? 'true' : 'false']),
    );

    const json = await t.must('ledger.export', { filter, sort, format: 'json' });
    const rows = JSON.parse(readFileSync(json.path ?? '', 'utf8')) as Record<string, unknown>[];
    expect(rows.map((r) => [r.value, r.expiryNotReadBack])).toEqual(shown.map((r) => [r.value, r.value === stale]));
    // The ledger's own name for the mark stays inside Keydesk.
    expect(rows.some((r) => 'expiryStale' in r)).toBe(false);
  });
});
