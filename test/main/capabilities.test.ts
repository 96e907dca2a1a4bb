// The capability check against three real servers: the sandbox, the sandbox answering only in the real dialect, and a
// service without the optional endpoints (an HTML 404 for them); nothing changes on any of them, and what it finds is
// recorded per profile, offered or refused by keys.edit, and a refusal that shows an endpoint absent is recorded.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkCapabilities, judge } from '../../src/main/client/capabilities.ts';
import { startTestCore, type TestCore } from '../support/core.ts';
import { startRemoteSandbox, type RemoteSandbox } from '../support/remote-sandbox.ts';

/** A service that knows the execution count and nothing else: Express's HTML 404 for any other path. */
interface FakeService {
  url: string;
  /** Requests seen, as "METHOD /path". */
  seen: string[];
  /** While set, every path but the execution count answers 503 (a service having a bad moment). */
  down: boolean;
  close(): Promise<void>;
}
async function startFakeService(): Promise<FakeService> {
  const fake: FakeService = { url: '', seen: [], down: false, close: () => Promise.resolve() };
  const server: Server = createServer((req: IncomingMessage, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    fake.seen.push(`${req.method ?? ''} ${path}`);
    req.resume();
    if (path === '/api/execution-count') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ executionCount: 7 }));
      return;
    }
    if (fake.down) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable');
      return;
    }
    const page = `<!DOCTYPE html><html><head><title>Error</title></head><body><pre>Cannot ${req.method ?? 'GET'} ${path}</pre></body></html>`;
    res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise((resolve) => server.close(() => resolve()));
  return fake;
}

let sandbox: RemoteSandbox;
let realOnly: RemoteSandbox;
let fake: FakeService;
beforeAll(async () => {
  sandbox = await startRemoteSandbox({ name: 'Full Shop', identifier: 'full-shop' });
  realOnly = await startRemoteSandbox({ name: 'Real Shop', identifier: 'real-shop' }, { realOnly: true });
  fake = await startFakeService();
});
afterAll(async () => {
  await Promise.all([sandbox.close(), realOnly.close(), fake.close()]);
});

const target = (s: { url: string; apiKey: string }) => ({ baseUrl: s.url, validationUrl: `${s.url}/v2_validation`, apiKey: s.apiKey });

describe('the capability check', () => {
  it('finds every optional endpoint on the sandbox, changing nothing', async () => {
    const state = () => JSON.stringify([sandbox.store.inspect('SELECT * FROM keys'), sandbox.store.inspect('SELECT * FROM services')]);
    const before = state();
    const found = await checkCapabilities(target(sandbox), { serviceIdentifier: 'full-shop' });
    expect(found.keyEdit).toMatchObject({ state: 'present', checkedAt: expect.any(String) as unknown });
    expect(found.generatedKeyEdit?.state).toBe('present');
    expect(found.publicReset?.state).toBe('present');
    expect(found.keyEdit?.evidence).toMatch(/not found/i);
    expect(state()).toBe(before);
  });

  it('finds them on the sandbox answering only in the real dialect', async () => {
    const found = await checkCapabilities(target(realOnly), { serviceIdentifier: 'real-shop' });
    expect([found.keyEdit?.state, found.generatedKeyEdit?.state, found.publicReset?.state]).toEqual(['present', 'present', 'present']);
  });

  it('finds them absent on a service answering them with an HTML 404', async () => {
    const found = await checkCapabilities(target({ url: fake.url, apiKey: 'fake-key-123456' }));
    expect([found.keyEdit?.state, found.generatedKeyEdit?.state, found.publicReset?.state]).toEqual(['absent', 'absent', 'absent']);
    expect(found.keyEdit?.evidence).toContain('HTML page');
    // It asked, and only asked: no path but the three probes and the two controls.
    expect(fake.seen.filter((s) => s.includes('/edit') || s.includes('reset-hwid'))).toEqual([
      'POST /api/key/edit',
      'POST /api/generated-key/edit',
      'GET /api/reset-hwid',
    ]);
  });

  it('says unknown when the service cannot answer, never absent', async () => {
    fake.down = true;
    try {
      const found = await checkCapabilities(target({ url: fake.url, apiKey: 'fake-key-123456' }));
      expect(found.keyEdit?.state).toBe('unknown');
      expect(found.keyEdit?.evidence).toContain('503');
    } finally {
      fake.down = false;
    }
  });
});

describe('judging one answer', () => {
  const at = '2026-11-29T00:00:00.000Z';
  const json = (status: number, body: Record<string, unknown>) => ({ status, json: body, head: JSON.stringify(body) });
  it('takes a JSON route error as absent, a key error as present', () => {
    expect(judge(json(404, { message: 'There is no endpoint at /api/key/edit.', code: 'NOT_FOUND' }), null, at).state).toBe('absent');
    expect(judge(json(404, { message: 'No key with that value.' }), null, at).state).toBe('present');
  });
  it('takes an answer shaped like a missing path as absent', () => {
    const control = json(404, { error: 'Not Found: /api/nowhere' });
    expect(judge(json(404, { error: 'Not Found: /api/key/edit' }), control, at).state).toBe('absent');
  });
  it('takes 405 as absent, and 401 beside a 404 control as present', () => {
    expect(judge(json(405, { message: 'Use POST.' }), null, at).state).toBe('absent');
    expect(judge(json(401, { message: 'Invalid API key' }), json(404, { message: 'x' }), at).state).toBe('present');
  });
  it('takes the same refusal for the control as unknown', () => {
    const refused = json(401, { message: 'Invalid API key' });
    expect(judge(refused, refused, at).state).toBe('unknown');
  });
});

describe('through the core: recorded per profile, offered or refused', () => {
  let t: TestCore;
  afterEach(async () => {
    await t.close();
  });

  it('records a new profile’s capabilities and refuses an edit without sending it', async () => {
    t = await startTestCore();
    const profile = await t.must('profiles.add', { name: 'Plain Co', baseUrl: fake.url, apiKey: 'fake-key-123456' });
    const { capabilities } = await t.must('service.capabilities', { profileId: profile.id });
    expect(capabilities.keyEdit?.state).toBe('absent');
    await t.must('profiles.select', { id: profile.id });
    const sent = fake.seen.length;
    const r = await t.call('keys.edit', { keyValue: 'SOME-KEY', state: 'active', note: 'x' });
    expect(r).toMatchObject({ ok: false, code: 'UNSUPPORTED' });
    expect(fake.seen.length).toBe(sent);
  });

  it('refuses an edit without sending it where the check could not tell', async () => {
    t = await startTestCore();
    fake.down = true;
    const profile = await t.must('profiles.add', { name: 'Moody Co', baseUrl: fake.url, apiKey: 'fake-key-123456' });
    const first = await t.must('service.capabilities', { profileId: profile.id });
    expect(first.capabilities.keyEdit?.state).toBe('unknown');
    fake.down = false;
    await t.must('profiles.select', { id: profile.id });
    const sent = fake.seen.length;
    const r = await t.call('keys.edit', { keyValue: 'SOME-KEY', state: 'active', note: 'x' });
    expect(r).toMatchObject({
      ok: false,
      code: 'UNSUPPORTED',
      message: 'Keydesk has not found an endpoint to edit active keys on this service. Check it in Profiles.',
    });
    expect(fake.seen.length).toBe(sent);
  });

  it('records an endpoint absent when an edit finds no such route', async () => {
    t = await startTestCore();
    const profile = await t.must('profiles.add', { name: 'Changed Co', baseUrl: fake.url, apiKey: 'fake-key-123456' });
    await t.must('service.capabilities', { profileId: profile.id });
    // The service had the endpoint when checked, and has lost it since.
    const checkedAt = new Date().toISOString();
    await t.core.writer.run('capabilities', {
      profileId: profile.id,
      found: { keyEdit: { state: 'present', evidence: 'An edit was done.', checkedAt } },
    });
    await t.must('profiles.select', { id: profile.id });
    const r = await t.call('keys.edit', { keyValue: 'SOME-KEY', state: 'active', note: 'x' });
    expect(r).toMatchObject({ ok: false, code: 'UNSUPPORTED' });
    expect(fake.seen.at(-1)).toBe('POST /api/key/edit');
    const after = await t.must('service.capabilities', { profileId: profile.id });
    expect(after.capabilities.keyEdit?.state).toBe('absent');
    expect(after.capabilities.keyEdit?.evidence).toMatch(/^An edit was refused as no such endpoint/);
  });

  it('checks the sandbox profile on demand and finds its endpoints', async () => {
    t = await startTestCore();
    const { capabilities } = await t.must('service.checkCapabilities', { profileId: 'sandbox' });
    expect(capabilities.keyEdit?.state).toBe('present');
    expect(capabilities.publicReset?.state).toBe('present');
  });
});
