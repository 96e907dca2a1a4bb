// The undici client: every operation against the real sandbox, and every failure it can meet against a
// hostile server on loopback. A recognisable apiKey (the canary) must never come back out.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/main/client/service-client.ts';
import { buildUrl, redact } from '../../src/main/client/urls.ts';
import { startSandboxServer, type RunningSandbox } from '../../src/sandbox/server.ts';
import { SandboxStore } from '../../src/sandbox/store.ts';

const FAST = { connectMs: 1_000, headersMs: 400, bodyMs: 400 };

describe('against the real sandbox', () => {
  let sandbox: RunningSandbox;
  let store: SandboxStore;
  let client: ServiceClient;
  beforeAll(async () => {
    store = new SandboxStore(':memory:');
    const { apiKey } = store.createService('Client Test', 'client-test');
    sandbox = await startSandboxServer({ store });
    client = new ServiceClient({ baseUrl: sandbox.url, validationUrl: `${sandbox.url}/v2_validation`, apiKey });
  });
  afterAll(async () => {
    await sandbox.close();
    store.close();
  });

  it('reads and pushes the execution count', async () => {
    const before = await client.executionCount();
    expect(before).toEqual({ ok: true, data: 0 });
    expect(await client.pushExecution()).toEqual({ ok: true, data: 1 });
    expect(await client.executionCount()).toEqual({ ok: true, data: 1 });
  });

  it('generates, finds, validates, extends, resets and deletes a key', async () => {
    const gen = await client.generate({ expire: '2099-01-31', count: 2, isPremium: true, note: 'client journey' });
    expect(gen.ok && gen.data.length).toBe(2);
    const [a, b] = gen.ok ? gen.data : [];
    const found = await client.fetchGenerated('JOURNEY');
    expect(found.ok && found.data).toMatchObject({ total: 2 });
    const v = await client.validate({ key: a?.value ?? '', service: 'client-test', hwid: 'HW-1' });
    expect(v.ok && v.data.reading).toMatchObject({
      outcome: 'success',
      success: true,
      premium: true,
      hwid: 'HW-1',
      notes: 'client journey',
    });
    expect(((await client.fetchActive('HW-1')) as { ok: true; data: { keys: { value: string }[] } }).data.keys[0]?.value).toBe(a?.value);
    const ext = await client.extend(a?.value ?? '', 3);
    expect(ext.ok && ext.data?.expiresAt).toBe('2099-02-03T23:59:59.999Z');
    const reset = await client.resetHwid(a?.value ?? '');
    expect(reset.ok && reset.data).toMatchObject({ hwid: null, status: 'active' });
    expect(await client.deleteKey(b?.value ?? '', true)).toEqual({ ok: true, data: b?.value });
    expect(await client.deleteKey(a?.value ?? '', false)).toEqual({ ok: true, data: a?.value });
    const gone = await client.fetchActive(a?.value ?? '');
    expect(gone).toMatchObject({ ok: false, code: 'NOT_FOUND' });
  });

  it('reads a refused validation as an answer, not an error', async () => {
    const gen = await client.generate({ expire: '2099-01-31', count: 1, isPremium: false, note: 'bound' });
    const value = gen.ok ? (gen.data[0]?.value ?? '') : '';
    expect((await client.validate({ key: value, service: 'client-test', hwid: 'HW-A' })).ok).toBe(true);
    const refused = await client.validate({ key: value, service: 'client-test', hwid: 'HW-B', dryRun: true });
    expect(refused.ok && refused.data.reading).toMatchObject({ outcome: 'hwid_mismatch', success: false, hwid: 'HW-B' });
    expect(refused.ok && refused.data.reading.notes).not.toBe('');
    expect(refused.ok && JSON.parse(refused.data.raw)).toMatchObject({ V2_Authentication: 'hwid_mismatch' });
    const unknown = await client.validate({ key: 'NO-SUCH-KEY', service: 'client-test', hwid: 'HW-A', dryRun: true });
    expect(unknown.ok && unknown.data.reading).toMatchObject({ outcome: 'invalid_key', success: false });
    const noService = await client.validate({ key: value, service: 'no-such-service', hwid: 'HW-A', dryRun: true });
    expect(noService.ok && noService.data.reading).toMatchObject({ outcome: 'invalid_service', success: false });
  });

  it('checks identifiers and manages keyless entries', async () => {
    expect(await client.identifierCheck('CLIENT-TEST')).toEqual({ ok: true, data: { exists: true, service: 'Client Test' } });
    const added = await client.addKeyless('HW-KEYLESS', true, 5);
    expect(added.ok && added.data).toMatchObject({ hwid: 'HW-KEYLESS', isPremium: true });
    expect((await client.fetchKeyless('KEYLESS')).ok).toBe(true);
    expect(await client.deleteKeyless('HW-KEYLESS')).toEqual({ ok: true, data: null });
    expect(await client.deleteKeyless('HW-KEYLESS')).toMatchObject({ ok: false, code: 'NOT_FOUND' });
  });

  it('passes the sandbox error code and message through, with the status', async () => {
    const r = await client.generate({ expire: '2023-02-29', count: 1, isPremium: false });
    expect(r).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    expect(!r.ok && r.message).toMatch(/real calendar date.*\(HTTP 400\)/);
  });
});

// ---- failures -----------------------------------------------------------------------------------------------

const CANARY = 'kd_CANARY-7f3a9c21-DO-NOT-LEAK_zz';
const hits = new Map<string, number>();
let hostile: Server;
let hostileUrl: string;

/** Echoes the request (with the apiKey) back in every error, as a careless service might. */
function behave(req: IncomingMessage, res: ServerResponse): void {
  const path = (req.url ?? '').split('?')[0] ?? '';
  const mode = path.split('/').filter(Boolean)[0] ?? '';
  hits.set(mode, (hits.get(mode) ?? 0) + 1);
  const echo = `${req.method ?? ''} ${req.url ?? ''}`;
  const json = (status: number, body: object, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  switch (mode) {
    case '401': {
      json(401, { success: false, message: `apiKey ${CANARY} is invalid (${echo})`, code: 'API_KEY_INVALID' });
      return;
    }
    case '404': {
      json(404, { success: false, message: `nothing at ${echo}` });
      return;
    }
    case '500': {
      json(500, { success: false, message: `boom ${Buffer.from(CANARY).toString('base64')}` });
      return;
    }
    case '503': {
      json(503, { success: false, message: `busy ${encodeURIComponent(CANARY)}` }, { 'retry-after': '0' });
      return;
    }
    case '429': {
      json(429, { success: false, message: 'slow down' }, { 'retry-after': '0' });
      return;
    }
    case 'html':
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end(`<html><body>Bad gateway ${CANARY}</body></html>`);
      return;
    case 'redirect':
      res.writeHead(302, { location: `https://elsewhere.example/?apiKey=${CANARY}` });
      res.end();
      return;
    case 'reset':
      req.socket.destroy();
      return;
    case 'timeout':
      return; // never answers
    default:
      json(200, { success: true, message: 'ok', executionCount: 1 });
  }
}

beforeAll(async () => {
  hostile = createServer((req, res) => {
    req.resume();
    req.on('end', () => behave(req, res));
  });
  await new Promise<void>((r) => hostile.listen(0, '127.0.0.1', () => r()));
  hostileUrl = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
});
afterAll(async () => {
  hostile.closeAllConnections();
  await new Promise((r) => hostile.close(r));
});

const clientAt = (baseUrl: string, log: string[] = []) =>
  new ServiceClient(
    { baseUrl, validationUrl: `${baseUrl}/v2_validation`, apiKey: CANARY },
    { timeouts: FAST, retryDelaysMs: [10, 10], onAttempt: (a) => log.push(`${a.method} ${a.url}`) },
  );

const leaks = (text: string): boolean =>
  [CANARY, encodeURIComponent(CANARY), Buffer.from(CANARY).toString('base64'), Buffer.from(CANARY).toString('base64url')].some((f) =>
    text.includes(f),
  );

describe('every failure becomes a plain result that names what happened and never carries the apiKey', () => {
  it.each([
    ['401', 'API_KEY_INVALID', /is invalid .*\(HTTP 401\)/],
    ['404', 'NOT_FOUND', /HTTP 404/],
    ['500', 'HTTP_ERROR', /HTTP 500/],
    ['503', 'HTTP_ERROR', /HTTP 503/],
    ['html', 'BAD_RESPONSE', /HTTP 502 with an HTML page/],
    ['redirect', 'HTTP_ERROR', /HTTP 302 \(a redirect\), which Keydesk does not follow/],
    ['timeout', 'TIMEOUT', /did not answer in time/],
    ['reset', 'NETWORK', /connection was reset/],
  ])('%s → %s', async (mode, code, message) => {
    const log: string[] = [];
    const result = await clientAt(`${hostileUrl}/${mode}`, log).executionCount();
    expect(result).toMatchObject({ ok: false, code });
    expect(!result.ok && result.message).toMatch(message);
    // A reset is marked as a lost connection and a timeout as timed out (a bulk job counts those: job-service.ts),
    // nothing else is.
    expect(Object.keys(result).sort()).toEqual(
      [
        'code',
        'message',
        'ok',
        ...('retryAfterSeconds' in result ? ['retryAfterSeconds'] : []),
        ...(mode === 'reset' ? ['connectionLost'] : []),
        ...(mode === 'timeout' ? ['timedOut'] : []),
      ].sort(),
    );
    if (mode === 'timeout') expect(result).toMatchObject({ timedOut: true });
    expect(leaks(JSON.stringify(result)), JSON.stringify(result)).toBe(false);
    expect(leaks(log.join('\n'))).toBe(false);
    expect(log.every((l) => l.includes('apiKey=[redacted]'))).toBe(true);
  });

  it('refused connection and unknown host', async () => {
    const closed = await new Promise<number>((r) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const { port } = s.address() as AddressInfo;
        s.close(() => r(port));
      });
    });
    const refused = await clientAt(`http://127.0.0.1:${closed}`).executionCount();
    expect(refused).toMatchObject({ ok: false, code: 'NETWORK' });
    expect(!refused.ok && refused.message).toMatch(/refused the connection/);
    // Never sent, so not an unknown outcome even for a mutating call.
    const dns = await clientAt('http://keydesk-canary.invalid').pushExecution();
    expect(dns).toMatchObject({ ok: false, code: 'NETWORK' });
    const dnsRead = await clientAt('http://keydesk-canary.invalid').executionCount();
    expect(!dnsRead.ok && dnsRead.message).toMatch(/host keydesk-canary\.invalid was not found/);
    for (const r of [refused, dns, dnsRead]) expect(leaks(JSON.stringify(r))).toBe(false);
  });
});

describe('retries', () => {
  it.each(['503', '429', 'reset', 'timeout'])('a mutating call under %s reaches the server exactly once', async (mode) => {
    hits.clear();
    const result = await clientAt(`${hostileUrl}/${mode}`).pushExecution();
    expect(result.ok).toBe(false);
    expect(hits.get(mode)).toBe(1);
    if (mode === 'reset' || mode === 'timeout') {
      expect(result).toMatchObject({ code: 'OUTCOME_UNKNOWN' });
      expect(!result.ok && result.message).toMatch(/outcome unknown: check before retrying/);
    }
  });

  it.each(['503', '429', 'reset', 'timeout'])('a read under %s is tried three times in all', async (mode) => {
    hits.clear();
    const result = await clientAt(`${hostileUrl}/${mode}`).executionCount();
    expect(result.ok).toBe(false);
    expect(hits.get(mode)).toBe(3);
  });

  it('does not retry a read refused with 4xx', async () => {
    hits.clear();
    await clientAt(`${hostileUrl}/401`).executionCount();
    expect(hits.get('401')).toBe(1);
  });
});

describe('urls and redaction', () => {
  it('builds URLs under a base path and keeps a redacted twin', () => {
    const u = buildUrl('https://api.example.com/v1/', '/api/key/fetch', { apiKey: 'sekret+/=', fetch: 'a b' });
    expect(u.url).toBe('https://api.example.com/v1/api/key/fetch?apiKey=sekret%2B%2F%3D&fetch=a+b');
    expect(u.redacted).toBe('https://api.example.com/v1/api/key/fetch?apiKey=[redacted]&fetch=a+b');
  });
  it('redacts raw, URL-encoded and base64 forms', () => {
    const s = 'kd_a+b/c=';
    const text = `${s} ${encodeURIComponent(s)} ${new URLSearchParams({ x: s }).toString()} ${Buffer.from(s).toString('base64')}`;
    expect(redact(text, [s])).toBe('[redacted] [redacted] x=[redacted] [redacted]');
  });

  const KEY = 'kd_live-7Hq2+Zx/9Lm=Wp';
  const b64 = (text: string, how: 'base64' | 'base64url' = 'base64') => Buffer.from(text).toString(how);
  const echoes: [string, string][] = [
    ['hex', Buffer.from(KEY).toString('hex')],
    ['upper-case hex', Buffer.from(KEY).toString('hex').toUpperCase()],
    ['base64 three bytes into longer base64', b64(`abc${KEY}`)],
    ['base64 one byte into longer base64', b64(`x${KEY}!`)],
    ['base64 two bytes into longer base64', b64(`xy${KEY}`)],
    ['url-safe base64 inside longer base64', b64(`x${KEY}`, 'base64url')],
    ['URL encoding in lower case', encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())],
    ['its first 8 characters', KEY.slice(0, 8)],
    ['8 characters from its middle', KEY.slice(5, 13)],
    ['its last 10 characters', KEY.slice(-10)],
  ];
  it.each(echoes)('redacts the key echoed as %s', (_, echo) => {
    const said = redact(`bad request: ${echo} (HTTP 400)`, [KEY]);
    expect(said).toMatch(/^bad request: .*\[redacted\].* \(HTTP 400\)$/);
    // What is left of the echo is under 8 characters: the bytes around the key, and padding.
    expect(said.replace('bad request: ', '').replace(' (HTTP 400)', '').replace('[redacted]', '').length).toBeLessThan(8);
  });

  it('keeps text that shares fewer than 8 characters with the key', () => {
    expect(redact(`${KEY.slice(0, 7)} and ${KEY.slice(7, 14)}`, [KEY])).toBe(`${KEY.slice(0, 7)} and ${KEY.slice(7, 14)}`);
  });
});
