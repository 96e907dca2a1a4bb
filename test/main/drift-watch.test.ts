// The drift watch against a fake remote service (node:http) whose answers change a field between two checks: the
// change is said once, in Activity and in the profile's status, with the fields gained and lost and both raw
// answers, never the apiKey; a later check with the same shapes says nothing new.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerKey } from '../../bench/lib/ledger-key.ts';
import { startTestCore, type TestCore } from '../support/core.ts';

const API_KEY = 'kd_drift-watch-secret-0123456789';
let renamed = false;
const asked: string[] = [];
let server: Server;
let t: TestCore;
let url = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    asked.push(`${req.method ?? ''} ${u.pathname} ${u.searchParams.get('fetch') ?? ''}`);
    const send = (status: number, body: object) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const key = { id: 'k1', value: u.searchParams.get('fetch'), note: '', hwid: 'H', expiresAt: null, isPremium: false, lastResetAt: null };
    if (u.pathname === '/api/execution-count') send(200, { executionCount: 7 });
    else if (u.pathname === '/api/identifier-check') send(200, { message: `asked by ${API_KEY}`, service: 'Shop' });
    // The service renames a field between two checks.
    else if (u.pathname === '/api/key/fetch') send(200, { key: renamed ? { ...key, hwId: key.hwid, hwid: undefined } : key });
    else send(404, { message: 'no such route' });
  });
  await new Promise<void>((resolve) => {
    server.listen(0, '127.0.0.1', resolve);
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await startTestCore();
});

afterAll(async () => {
  await t.close();
  await new Promise((resolve) => {
    server.close(resolve);
  });
});

describe('the drift watch', () => {
  it('says a renamed field once, with both answers, and never the apiKey', async () => {
    const profile = await t.must('profiles.add', { name: 'Drifting', baseUrl: url, apiKey: API_KEY, serviceIdentifier: 'shop' });
    t.writable().recordKeys(profile.id, [ledgerKey('KD-KNOWN-1', { status: 'active' })]);

    const first = await t.must('drift.check', { profileId: profile.id });
    expect(first).toMatchObject({ changes: [], changedAt: null, unreadable: [], unanswered: [] });
    expect(asked).toContain('GET /api/key/fetch KD-KNOWN-1');

    renamed = true;
    const second = await t.must('drift.check', { profileId: profile.id });
    expect(second.changes).toEqual([
      {
        read: 'a lookup of an active key',
        gained: ['key.hwId'],
        lost: ['key.hwid'],
        retyped: [],
        before: expect.stringContaining('"hwid":"H"') as string,
        after: expect.stringContaining('"hwId":"H"') as string,
      },
    ]);
    expect(second.changedAt).toBe(second.checkedAt);
    expect(second.unreadable).toEqual(["an active key's HWID (key.hwid)"]);

    const third = await t.must('drift.check', { profileId: profile.id });
    expect(third.changedAt).toBe(second.changedAt);
    expect(third.checkedAt).not.toBe(second.checkedAt);
    expect(await t.must('drift.status', { profileId: profile.id })).toEqual(third);

    const { entries } = await t.must('audit.list', { filter: { action: 'drift.check' }, offset: 0, limit: 10 });
    expect(entries).toHaveLength(1);
    const said = entries[0]?.message ?? '';
    expect(said).toMatch(/^The answer to a lookup of an active key changed\. Fields gained: key\.hwId\. Fields lost: key\.hwid\./);
    expect(said).toContain('Before: {"key":{"id":"k1","value":"KD-KNOWN-1","note":"","hwid":"H"');
    expect(said).toContain(
      'After: {"key":{"id":"k1","value":"KD-KNOWN-1","note":"","expiresAt":null,"isPremium":false,"lastResetAt":null,"hwId":"H"}}',
    );
    expect(said).toMatch(/can no longer read an active key's HWID \(key\.hwid\)\.$/);

    const everything = JSON.stringify([first, second, third, entries]);
    expect(everything).not.toContain(API_KEY);
    expect(JSON.stringify(second)).not.toContain('drift-watch-secret');
  });

  it('refuses the local sandbox, which does not change under Keydesk', async () => {
    const r = await t.call('drift.check', { profileId: 'sandbox' });
    expect(r).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
  });
});
