// An act on one key (Keys view → key panel) that the service answers as done without describing the key, which then
// cannot be read back (both lookups answer 500): the ledger must not go on stating what was seen before as fact.
// A reset leaves the key with no HWID (the reset took), a delete leaves it deleted, and an extend keeps the expiry
// seen before marked "not read back", a mark that a description of the key queued before it (a lookup behind a
// large batch still being recorded) must not land over. Against a real-dialect sandbox (answers {message} alone to a reset and a delete),
// behind a server that can fail the lookups and reshape an extend's answer to {message} alone (the service applied it).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerRow } from '../../src/shared/domain.ts';
import { batchValues } from '../../src/shared/key-batch.ts';
import { ROUTES } from '../../src/shared/wire.ts';
import { startTestCore, type TestCore } from '../support/core.ts';
import { startRemoteSandbox, type RemoteSandbox } from '../support/remote-sandbox.ts';

const IDENTIFIER = 'unread-acts';
let t: TestCore;
let profileId = '';
let remote: RemoteSandbox;
let proxy: Server;
/** Both lookups answer 500 (the read-back fails). */
let lookupsFail = false;
/** An extend, applied by the sandbox, is answered with {message} alone. */
let extendSaysMessageOnly = false;
const lookups = new Set<string>([ROUTES.fetchKey.path, ROUTES.fetchGeneratedKey.path]);

beforeAll(async () => {
  remote = await startRemoteSandbox({ name: 'Unread Acts', identifier: IDENTIFIER }, { realOnly: true });
  proxy = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', remote.url);
      if (lookupsFail && lookups.has(url.pathname)) {
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'down' }));
        return;
      }
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length')) as Record<
        string,
        string
      >;
      void fetch(url, { method: req.method ?? 'GET', headers, body: req.method === 'GET' ? null : body }).then(async (up) => {
        let text = await up.text();
        if (extendSaysMessageOnly && url.pathname === ROUTES.expandExpiration.path && up.ok)
          text = JSON.stringify({ message: 'Expiration expanded.' });
        res.writeHead(up.status, { 'content-type': 'application/json' }).end(text);
      });
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  t = await startTestCore({ clientOptions: { timeouts: { connectMs: 5_000, headersMs: 5_000, bodyMs: 5_000 }, retryDelaysMs: [] } });
  const profile = await t.must('profiles.add', {
    name: 'Unread Acts',
    baseUrl: base,
    apiKey: remote.apiKey,
    serviceIdentifier: IDENTIFIER,
  });
  await t.must('profiles.select', { id: profile.id });
  profileId = profile.id;
});
afterAll(async () => {
  await t.close();
  proxy.closeAllConnections();
  await new Promise((r) => proxy.close(r));
  await remote.close();
});

const onService = (value: string): { hwid: string | null; expires_at: string | null } | undefined =>
  remote.store.inspect('SELECT hwid, expires_at FROM keys WHERE value = ?', value)[0] as
    { hwid: string | null; expires_at: string | null } | undefined;

async function row(value: string): Promise<LedgerRow | undefined> {
  await t.core.writer.idle();
  return (await t.must('ledger.query', { filter: { text: value }, sort: { field: 'value', dir: 'asc' }, offset: 0, limit: 2 })).rows.find(
    (r) => r.value === value,
  );
}

/** A key made, activated by a customer on an HWID of its own, and looked up so the ledger shows it so. */
async function activeKey(note: string): Promise<{ value: string; hwid: string }> {
  lookupsFail = false;
  const [value = ''] = batchValues((await t.must('keys.generate', { expire: '2099-01-31', count: 1, isPremium: false, note })).generated);
  const hwid = `HW-${note.replaceAll(' ', '-')}`;
  expect(remote.store.validate(IDENTIFIER, value, hwid, false, 'not-the-keyless-key').V2_Authentication).toBe('success');
  await t.must('keys.lookup', { term: value });
  expect(await row(value)).toMatchObject({ status: 'active', hwid });
  return { value, hwid };
}

describe('an act on one key answered as done, whose key cannot be read back', () => {
  it("an HWID reset clears the row's HWID rather than keep the old", async () => {
    const { value } = await activeKey('unread reset');
    lookupsFail = true;
    try {
      expect(await t.call('keys.resetHwid', { keyValue: value })).toEqual({ ok: true, data: { key: null } });
    } finally {
      lookupsFail = false;
    }
    expect(onService(value)?.hwid).toBeNull();
    const after = await row(value);
    expect(after).toMatchObject({ value, status: 'active', hwid: null });
    expect(after?.hwidStale).toBeUndefined();
    // And so All keys finds it among keys with no HWID, not by the HWID it had.
    expect(
      (await t.must('ledger.query', { filter: { text: 'HW-unread-reset' }, sort: { field: 'value', dir: 'asc' }, offset: 0, limit: 2 }))
        .rows,
    ).toEqual([]);
  });

  it('a delete leaves the row deleted', async () => {
    const { value } = await activeKey('unread delete');
    lookupsFail = true;
    try {
      expect(await t.call('keys.delete', { keyValue: value, state: 'active' })).toEqual({ ok: true, data: { deletedKey: value } });
    } finally {
      lookupsFail = false;
    }
    expect(onService(value)).toBeUndefined();
    const after = await row(value);
    expect(after).toMatchObject({ value, status: 'deleted' });
    expect(after?.statusStale).toBeUndefined();
  });

  it('an extend keeps the expiry seen before, marked as not read back', async () => {
    const { value } = await activeKey('unread extend');
    const before = (await row(value))?.expiresAt;
    lookupsFail = true;
    extendSaysMessageOnly = true;
    try {
      expect(await t.call('keys.extend', { keyValue: value, days: 3 })).toEqual({ ok: true, data: { key: null } });
    } finally {
      lookupsFail = false;
      extendSaysMessageOnly = false;
    }
    expect(onService(value)?.expires_at).not.toBe(before);
    expect(await row(value)).toMatchObject({ value, expiresAt: before, expiryStale: true });
  });

  it('an extend keeps its mark over a lookup queued behind a batch', async () => {
    const { value } = await activeKey('unread extend queued');
    const before = (await row(value))?.expiresAt;
    // A large batch still being recorded (a generate of thousands a moment ago), and a lookup of the key after it:
    // its row, the key as it was before the extend, is written after the batch.
    const filler = Array.from({ length: 10_000 }, (_, i) => ({
      id: '',
      value: `FILL${String(i).padStart(5, '0')}-FILLR-FILLR-FILLR-FILLR`,
      note: 'filler',
      status: 'generated' as const,
      isPremium: false,
      expire: '2099-01-01',
      expiresByDaysKey: false,
      daysKey: null,
      expiresAt: null,
      hwid: null,
      createdAt: new Date().toISOString(),
      activatedAt: null,
      lastResetAt: null,
      serviceId: '',
    }));
    const written = t.core.writer.recordKeys(profileId, filler);
    await t.must('keys.lookup', { term: value });
    lookupsFail = true;
    extendSaysMessageOnly = true;
    try {
      expect(await t.call('keys.extend', { keyValue: value, days: 3 })).toEqual({ ok: true, data: { key: null } });
    } finally {
      lookupsFail = false;
      extendSaysMessageOnly = false;
    }
    expect(await written).toMatchObject({ written: 10_000, failed: 0 });
    // The lookup's row went in before the mark, not over it: the old expiry is still marked as not read back.
    expect(await row(value)).toMatchObject({ value, expiresAt: before, expiryStale: true });
  });
});
