// A recognisable apiKey goes through every failure the client can meet, via the core (profiles.add checks
// the key, and every attempt is audited). It must then appear nowhere: in no result, log line, thrown message
// or file under userData (keydesk.db's backups and logs/main.log among them), raw, URL-encoded, base64, hex or in part.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { Core } from '../../src/main/core.ts';
import { createHandlers, type Handlers } from '../../src/main/handlers/index.ts';
import { dispatch } from '../../src/main/ipc/dispatch.ts';
import { closeLog, openLog } from '../../src/main/log.ts';
import { MemorySecretStore } from '../../src/main/secrets/secret-store.ts';
import { listFiles } from '../support/files.ts';
import { tempDir } from '../support/temp-dir.ts';

const CANARY = 'kd_CANARY-b8e1d4-NEVER-SEEN_qq';
const FORMS = [
  CANARY,
  encodeURIComponent(CANARY),
  Buffer.from(CANARY).toString('base64'),
  Buffer.from(CANARY).toString('base64url'),
  Buffer.from(CANARY).toString('hex'),
  Buffer.from(`k=${CANARY}`).toString('base64').slice(4, -4),
  CANARY.slice(8, 16),
];
const leaks = (text: string) => FORMS.filter((f) => text.includes(f));

let server: Server;
let base: string;
let core: Core;
let handlers: Handlers;
let userData: string;
const logged: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    const mode = (req.url ?? '').split('/')[1] ?? '';
    const echo = `${req.method ?? ''} ${req.url ?? ''}`;
    const json = (status: number, body: object, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (mode === '401') json(401, { success: false, message: `bad key ${CANARY} in ${echo}`, code: 'API_KEY_INVALID' });
    else if (mode === '404') json(404, { success: false, message: `nothing at ${echo}` });
    else if (mode === '500') json(500, { message: Buffer.from(CANARY).toString('base64') });
    else if (mode === '503') json(503, { message: encodeURIComponent(CANARY) }, { 'retry-after': '0' });
    else if (mode === '400') json(400, { message: `hex ${Buffer.from(CANARY).toString('hex')}` });
    else if (mode === '403') json(403, { message: `token ${Buffer.from(`k=${CANARY}`).toString('base64')}` });
    else if (mode === '409') json(409, { message: `key starts ${CANARY.slice(0, 20)}, ends ${CANARY.slice(-10)}` });
    else if (mode === 'html') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html>${CANARY}</html>`);
    } else if (mode === 'redirect') {
      res.writeHead(301, { location: `https://x.example/?k=${CANARY}` });
      res.end();
    } else if (mode === 'reset') req.socket.destroy();
    // 'timeout': never answers
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  userData = tempDir('keydesk-canary-');
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      logged.push(args.map((a) => (a instanceof Error ? `${a.message} ${a.stack ?? ''}` : String(a))).join(' '));
    });
  }
  // Opened as main opens it: console warnings and errors are copied into logs/main.log from here on.
  openLog(userData, 'start: canary');
  core = await Core.start({
    userDataDir: userData,
    secrets: new MemorySecretStore(),
    version: 'canary',
    sandboxPort: 0,
    askSavePath: () => Promise.resolve(null),
    clientOptions: {
      timeouts: { connectMs: 1_000, headersMs: 300, bodyMs: 300 },
      retryDelaysMs: [5, 5],
      onAttempt: (a) => logged.push(a.url),
    },
  });
  handlers = createHandlers(core);
});
afterAll(async () => {
  closeLog();
  vi.restoreAllMocks();
  await core.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

it('leaves no trace of the apiKey after any failure the client meets', async () => {
  const closedPort = await new Promise<number>((r) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => r(port));
    });
  });
  const targets = ['400', '401', '403', '404', '409', '500', '503', 'html', 'redirect', 'reset', 'timeout'].map((m) => `${base}/${m}`);
  targets.push(`http://127.0.0.1:${closedPort}`, 'http://keydesk-canary.invalid');
  const results: unknown[] = [];
  for (const baseUrl of targets) {
    const r = await dispatch(handlers, 'profiles.add', { name: 'Canary', baseUrl, apiKey: CANARY });
    expect(r.ok, baseUrl).toBe(false);
    results.push(r);
  }
  expect(leaks(JSON.stringify(results))).toEqual([]);
  expect(logged.length).toBeGreaterThan(10);
  expect(leaks(logged.join('\n'))).toEqual([]);
  const audit = await dispatch(handlers, 'audit.list', { filter: { action: 'profiles.add' }, offset: 0, limit: 100 });
  expect(audit.ok && (audit.data as { total: number }).total).toBe(targets.length);
  expect(leaks(JSON.stringify(audit))).toEqual([]);
  // A backup holding every audit entry above, scanned with the rest.
  expect(await core.backups.backUpNow()).not.toBeNull();
  await core.close();
  const files = listFiles(userData);
  expect(files.length).toBeGreaterThan(2);
  expect(files.filter((f) => basename(dirname(f)) === 'backups')).toHaveLength(1);
  // The log holds the failures' technical detail, and still no trace of the key.
  const mainLog = readFileSync(join(userData, 'logs', 'main.log'), 'utf8');
  expect(mainLog.split('\n').filter((l) => / warn {2}service: executionCount failed: /.test(l)).length).toBeGreaterThan(8);
  for (const f of files) expect(leaks(readFileSync(f).toString('latin1')), f).toEqual([]);
});
