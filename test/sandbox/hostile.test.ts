// Property-based: malformed and hostile requests never get a 5xx or a non-JSON answer, and the sandbox
// still answers correctly afterwards.
import { readdirSync, readlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DETAIL_FULL, DETAIL_HEADER, ROUTES } from '../../src/shared/wire.ts';
import { send } from '../support/http.ts';
import { createService, startSandbox, type SandboxProcess } from '../support/sandbox-process.ts';
import { tempDir } from '../support/temp-dir.ts';

let sandbox: SandboxProcess;
let apiKey: string;
beforeAll(async () => {
  const db = join(tempDir(), 'hostile.db');
  apiKey = createService(db, 'Hostile', 'hostile').apiKey;
  sandbox = await startSandbox({ db });
});
afterAll(async () => {
  await sandbox.stop();
});

/** Sends raw bytes and returns everything the server writes before it closes (or 3 s pass). */
function rawExchange(bytes: string): Promise<string> {
  return new Promise((resolve) => {
    const s = connect(sandbox.port, '127.0.0.1', () => s.write(bytes));
    let data = '';
    s.on('data', (d) => (data += d.toString()));
    s.on('close', () => {
      resolve(data);
    });
    s.on('error', () => {
      resolve(data);
    });
    setTimeout(() => s.destroy(), 3_000);
  });
}

/** Sockets the sandbox process holds open now (Linux: its descriptors that are sockets). */
function openSockets(): number {
  const dir = `/proc/${sandbox.child.pid ?? 0}/fd`;
  let n = 0;
  for (const fd of readdirSync(dir)) {
    try {
      if (readlinkSync(`${dir}/${fd}`).startsWith('socket:')) n++;
    } catch {
      // Closed between the listing and the read.
    }
  }
  return n;
}

const PARAM_NAMES = [
  'apiKey',
  'expire',
  'count',
  'isPremium',
  'note',
  'expiresByDaysKey',
  'daysKey',
  'daysKeys',
  'keyValue',
  'days',
  'fetch',
  'identifier',
  'hwid',
  'limit',
  'offset',
  'key',
  'service',
  'dryRun',
  '__proto__',
  'constructor',
];
const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    '1e309',
    '0x10',
    'NaN',
    'Infinity',
    '9'.repeat(400),
    'true',
    'null',
    '2023-02-29',
    '9999-12-31',
    "'; DROP TABLE keys; --",
    '%',
    '_',
    '"',
    '\u0000',
    '\uD800',
    '../../etc/passwd',
    '<script>',
    '{"a":1}',
    'x'.repeat(300),
  ),
);
const jsonValue = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
  fc.constantFrom(1e308, -0, 2 ** 53 + 1, 100_000, 100_001, 999_999, 1_000_000),
);
const withKey = fc.constantFrom('none', 'valid', 'wrong');
const routePath = fc.oneof(
  fc.constantFrom(...Object.values(ROUTES).map((r) => r.path)),
  fc.constantFrom('/', '/api', '/api/', '/api/key/fetch/', '/API/key/fetch', '/v2_validation/x', '/%2e%2e/etc'),
);
const request = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'),
  path: routePath,
  key: withKey,
  query: fc.array(fc.tuple(fc.constantFrom(...PARAM_NAMES), hostileString), { maxLength: 6 }),
  body: fc.oneof(
    fc.constant(undefined),
    fc.dictionary(fc.constantFrom(...PARAM_NAMES), jsonValue, { maxKeys: 6 }).map((o) => JSON.stringify(o)),
    fc.string({ maxLength: 60 }),
    fc.constantFrom('{', '[]', 'null', '{"apiKey":', '\u0000\u0001', '{"count":1e999}', '{"a":' + '['.repeat(5_000)),
  ),
  contentType: fc.constantFrom(undefined, 'application/json', 'text/plain', 'application/json; charset=latin1', 'multipart/form-data'),
});

describe('hostile input', () => {
  it('answers 1,200 generated malformed requests with JSON and never a 5xx', async () => {
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const query = new URLSearchParams(r.query);
        if (r.key === 'valid') query.append('apiKey', apiKey);
        if (r.key === 'wrong') query.append('apiKey', 'kd_wrong');
        // The detail dialect: every answer, success or failure, then has `success` and `message`.
        const headers: Record<string, string> = { [DETAIL_HEADER]: DETAIL_FULL };
        if (r.contentType) headers['Content-Type'] = r.contentType;
        const res = await send(sandbox.url, { method: r.method, path: `${r.path}?${query.toString()}`, headers, body: r.body });
        sent++;
        expect(res.status).toBeLessThan(500);
        if (r.method !== 'HEAD') {
          expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
          expect(typeof res.json.success).toBe('boolean');
          expect(typeof res.json.message).toBe('string');
          expect(res.text).not.toContain(apiKey);
          expect(res.text).not.toMatch(/SQLITE|at .*\.ts:|node:internal/);
        }
      }),
      { numRuns: 1_200 },
    );
    expect(sent).toBe(1_200);
  });

  it('answers raw bytes that are not HTTP and keeps serving', async () => {
    const garbage = [
      'GARBAGE\r\n\r\n',
      'GET / HTTP/9.9\r\n\r\n',
      'GET /api/execution-count HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n',
      '\u0000\u0001\u0002\r\n\r\n',
    ];
    for (const bytes of garbage) {
      const answer = await new Promise<string>((resolve) => {
        const s = connect(sandbox.port, '127.0.0.1', () => s.write(bytes));
        let data = '';
        s.on('data', (d) => (data += d.toString()));
        s.on('close', () => resolve(data));
        s.on('error', () => resolve(data));
        setTimeout(() => s.destroy(), 2_000);
      });
      if (answer !== '') {
        expect(answer).toMatch(/^HTTP\/1\.1 4\d\d /);
        expect(answer).toContain('application/json');
      }
    }
  });

  it('answers unparsable methods with a JSON 405 and Allow header', async () => {
    const host = `Host: 127.0.0.1:${sandbox.port}\r\n`;
    for (const line of [
      'CONNECT 127.0.0.1:80 HTTP/1.1',
      'CONNECT /api/key/fetch HTTP/1.1',
      'FOO /api/key/fetch HTTP/1.1',
      'BREW /v2_validation HTTP/1.1',
    ]) {
      const answer = await rawExchange(`${line}\r\n${host}\r\n`);
      expect(answer, line).toMatch(/^HTTP\/1\.1 405 /);
      expect(answer, line).toContain('Content-Type: application/json; charset=utf-8');
      expect(answer, line).toMatch(/\r\nAllow: [A-Z, ]+\r\n/);
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { code: string; message: string };
      expect(body.code).toBe('METHOD_NOT_ALLOWED');
      expect(body.message.length).toBeGreaterThan(10);
    }
    // The Host guard comes first, for CONNECT too.
    expect(await rawExchange('CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: attacker.test\r\n\r\n')).toMatch(/^HTTP\/1\.1 403 /);
  });

  it('answers an Expect header other than 100-continue like any request, in JSON', async () => {
    const res = await send(sandbox.url, {
      path: `/api/execution-count?apiKey=${encodeURIComponent(apiKey)}`,
      headers: { Expect: 'something-else' },
    });
    expect(res.status).toBe(200);
    expect(typeof res.json.executionCount).toBe('number');
  });

  it('logs at most one short line for 1,000 clients leaving mid-request', async () => {
    const before = sandbox.stderr().length;
    const socketsBefore = openSockets();
    const host = `Host: 127.0.0.1:${sandbox.port}\r\n`;
    let left = 0;
    await Promise.all(
      Array.from(
        { length: 1_000 },
        (_, i) =>
          new Promise<void>((resolve) => {
            const s = connect(sandbox.port, '127.0.0.1', () => {
              // A body promised and never finished, then the connection dropped.
              s.write(`POST /api/key/delete HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"apiKey":"`);
              setTimeout(
                () => {
                  s.destroy();
                  left++;
                  resolve();
                },
                10 + (i % 40),
              );
            });
            s.on('error', () => {
              resolve();
            });
          }),
      ),
    );
    expect(left).toBeGreaterThan(900);
    // Wait until the server has seen every close (its open sockets are back to what they were), however long that
    // takes, then for one more answer: any line it wrote while handling those closes is on the stderr pipe by then.
    await expect.poll(() => openSockets(), { timeout: 60_000, interval: 50 }).toBeLessThanOrEqual(socketsBefore);
    expect((await send(sandbox.url, { path: `/api/execution-count?apiKey=${encodeURIComponent(apiKey)}` })).status).toBe(200);
    const written = sandbox.stderr().slice(before);
    expect(written).not.toMatch(/Internal error|bug|\n\s+at /);
    expect(written.split('\n').filter(Boolean).length).toBeLessThanOrEqual(1);
    expect(written.length).toBeLessThan(200);
  });

  it('still counts, generates and validates correctly afterwards', async () => {
    const q = `apiKey=${encodeURIComponent(apiKey)}`;
    const before = (await send(sandbox.url, { path: `/api/execution-count?${q}` })).json.executionCount as number;
    const push = await send(sandbox.url, {
      method: 'POST',
      path: `/api/push-execution-count?${q}`,
      headers: { [DETAIL_HEADER]: DETAIL_FULL },
    });
    expect(push.json.executionCount).toBe(before + 1);
    const gen = await send(sandbox.url, { path: `/api/generate-key/get?${q}&expire=2099-01-01&count=1&isPremium=false&note=after` });
    expect(gen.status).toBe(201);
    const value = (gen.json.generatedKeys as { value: string }[])[0]?.value ?? '';
    const v = await send(sandbox.url, { path: `/v2_validation?key=${value}&service=hostile&hwid=H` });
    expect(v.json.V2_Authentication).toBe('success');
  });
});
