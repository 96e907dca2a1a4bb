// A web page may validate from any origin: /v2_validation answers CORS, with a preflight; apiKey endpoints never do.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qs, send } from '../support/http.ts';
import { createService, startSandbox, type SandboxProcess } from '../support/sandbox-process.ts';
import { tempDir } from '../support/temp-dir.ts';

const ORIGIN = 'http://shop.example';
let sandbox: SandboxProcess;
let apiKey = '';

beforeAll(async () => {
  const db = join(tempDir(), 'cors.db');
  apiKey = createService(db, 'Cors', 'cors').apiKey;
  sandbox = await startSandbox({ db });
});
afterAll(async () => {
  await sandbox.stop();
});

describe('CORS on validation', () => {
  it('answers a preflight for validation with the methods and headers allowed', async () => {
    const res = await send(sandbox.url, {
      method: 'OPTIONS',
      path: '/v2_validation',
      headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
    });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toBe('GET, POST');
    expect(res.headers['access-control-allow-headers']).toBe('Content-Type, Keydesk-Detail');
    expect(res.json).toEqual({ success: true, message: 'Validation may be called from any origin.' });
  });

  it('lets any origin read a validation answer, a refusal included', async () => {
    const path = `/v2_validation?${qs({ key: 'NOPE', service: 'cors', hwid: 'pc-1' })}`;
    const res = await send(sandbox.url, { path, headers: { Origin: ORIGIN } });
    expect(res.status).toBe(200);
    expect(res.json.V2_Authentication).toBe('invalid_key');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const bad = await send(sandbox.url, { path: '/v2_validation?service=cors', headers: { Origin: ORIGIN } });
    expect(bad.status).toBe(400);
    expect(bad.headers['access-control-allow-origin']).toBe('*');
  });

  it('sends no CORS header from an apiKey endpoint, preflight or not', async () => {
    const path = `/api/execution-count?${qs({ apiKey })}`;
    const res = await send(sandbox.url, { path, headers: { Origin: ORIGIN } });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await send(sandbox.url, {
      method: 'OPTIONS',
      path: '/api/key/fetch',
      headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'GET' },
    });
    expect(preflight.status).toBe(405);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('still refuses a Host it does not listen on, without CORS', async () => {
    const res = await send(sandbox.url, { method: 'OPTIONS', path: '/v2_validation', host: 'attacker.test', headers: { Origin: ORIGIN } });
    expect(res.status).toBe(403);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});
