// Conformance: what holds for every endpoint (wire.md "General" and "Parameters").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/shared/rules.ts';
import { ROUTES, type RouteSpec } from '../../src/shared/wire.ts';
import { qs } from '../support/http.ts';
import { failure, futureDate, get, postJson, postQuery } from './api.ts';
import { call, openTarget, type Target } from './target.ts';

let t: Target;
beforeAll(async () => {
  t = await openTarget();
});
afterAll(async () => {
  await t.close();
});

describe('every response is JSON with the standard shapes', () => {
  it('answers an unknown route with 404 NOT_FOUND as JSON', async () => {
    const res = await call(t, { path: '/api/no-such-thing' });
    expect(res.status).toBe(404);
    expect(failure(res).code).toBe('NOT_FOUND');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('answers a wrong method with 405 and an Allow header', async () => {
    const res = await call(t, { method: 'POST', path: `/api/execution-count?${qs({ apiKey: t.apiKey })}` });
    expect(res.status).toBe(405);
    expect(failure(res).code).toBe('METHOD_NOT_ALLOWED');
    expect(res.headers.allow).toBe('GET');
    const del = await call(t, { method: 'DELETE', path: '/api/key/delete' });
    expect(del.status).toBe(405);
    expect(del.headers.allow).toBe('POST');
  });

  it('serves every route of the wire contract', async () => {
    for (const route of Object.values(ROUTES) as RouteSpec[]) {
      for (const method of route.methods) {
        const res = await call(t, { method, path: route.path });
        expect([404, 405], `${method} ${route.path}`).not.toContain(res.status);
      }
    }
  });
});

describe('apiKey', () => {
  it('is API_KEY_MISSING (401) when absent or empty', async () => {
    for (const path of ['/api/execution-count', `/api/execution-count?${qs({ apiKey: '' })}`]) {
      const res = await call(t, { path });
      expect(res.status).toBe(401);
      expect(failure(res).code).toBe('API_KEY_MISSING');
    }
  });

  it('is API_KEY_INVALID (401) when unknown, not echoing the key', async () => {
    const res = await get(t, '/api/execution-count', { apiKey: 'kd_not-a-real-key-123456' }, false);
    expect(res.status).toBe(401);
    const { code, message } = failure(res);
    expect(code).toBe('API_KEY_INVALID');
    expect(message).not.toContain('not-a-real-key');
  });

  it('is accepted in the other place than its parameters', async () => {
    const viaBody = await call(t, {
      method: 'POST',
      path: '/api/push-execution-count',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiKey: t.apiKey }),
    });
    expect(viaBody.status).toBe(200);
    const viaQuery = await call(t, {
      method: 'POST',
      path: `/api/keyless/delete?${qs({ apiKey: t.apiKey })}`,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ hwid: 'HWID-THAT-IS-NOT-LISTED' }),
    });
    expect(viaQuery.status).toBe(404);
  });

  it('given in both places with different values is INVALID_INPUT', async () => {
    const res = await call(t, {
      method: 'POST',
      path: `/api/key/delete?${qs({ apiKey: t.apiKey })}`,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiKey: `${t.apiKey}x`, keyValue: 'X' }),
    });
    expect(res.status).toBe(400);
    expect(failure(res).code).toBe('INVALID_INPUT');
  });
});

describe('size and media type', () => {
  it('answers a URL over 8 KiB with 414 URI_TOO_LONG', async () => {
    const res = await get(t, '/api/key/fetch', { fetch: 'x'.repeat(LIMITS.urlMaxBytes) });
    expect(res.status).toBe(414);
    expect(failure(res).code).toBe('URI_TOO_LONG');
  });

  it('answers request lines too long to parse with 414 as JSON too', async () => {
    const res = await get(t, '/api/key/fetch', { fetch: 'x'.repeat(40 * 1024) });
    expect(res.status).toBe(414);
    expect(failure(res).code).toBe('URI_TOO_LONG');
  });

  it('answers a body over 64 KiB with 413 PAYLOAD_TOO_LARGE, declared or chunked', async () => {
    const big = JSON.stringify({ apiKey: t.apiKey, hwid: 'h', pad: 'x'.repeat(LIMITS.bodyMaxBytes) });
    const declared = await call(t, {
      method: 'POST',
      path: '/api/keyless/delete',
      headers: { 'Content-Type': 'application/json' },
      body: big,
    });
    expect(declared.status).toBe(413);
    expect(failure(declared).code).toBe('PAYLOAD_TOO_LARGE');
    const chunked = await call(t, {
      method: 'POST',
      path: '/api/keyless/delete',
      headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      body: big,
    });
    expect(chunked.status).toBe(413);
  });

  it('accepts a body of exactly 64 KiB', async () => {
    const base = JSON.stringify({ apiKey: t.apiKey, hwid: 'NOT-LISTED', pad: '' });
    const body = JSON.stringify({ apiKey: t.apiKey, hwid: 'NOT-LISTED', pad: 'x'.repeat(LIMITS.bodyMaxBytes - base.length) });
    expect(Buffer.byteLength(body)).toBe(LIMITS.bodyMaxBytes);
    const res = await call(t, { method: 'POST', path: '/api/keyless/delete', headers: { 'Content-Type': 'application/json' }, body });
    expect(res.status).toBe(404);
  });

  it('answers a POST body that is not JSON-typed with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const res = await call(t, {
      method: 'POST',
      path: '/api/key/delete',
      headers: { 'Content-Type': 'text/plain' },
      body: JSON.stringify({ apiKey: t.apiKey, keyValue: 'X' }),
    });
    expect(res.status).toBe(415);
    expect(failure(res).code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('accepts application/json with a charset parameter', async () => {
    const res = await call(t, {
      method: 'POST',
      path: '/api/key/delete',
      headers: { 'Content-Type': 'Application/JSON; charset=utf-8' },
      body: JSON.stringify({ apiKey: t.apiKey, keyValue: 'NO-SUCH-KEY' }),
    });
    expect(res.status).toBe(404);
  });

  it('answers malformed JSON and non-object JSON with 400 INVALID_INPUT', async () => {
    for (const body of ['{"apiKey": ', '[1,2]', '"text"', 'null']) {
      const res = await call(t, { method: 'POST', path: '/api/key/delete', headers: { 'Content-Type': 'application/json' }, body });
      expect(res.status, body).toBe(400);
      expect(failure(res).code).toBe('INVALID_INPUT');
    }
  });
});

describe('the first problem in wire order decides the answer', () => {
  it('route before method, method before apiKey', async () => {
    expect((await call(t, { method: 'PUT', path: '/api/nothing' })).status).toBe(404);
    expect((await call(t, { method: 'PUT', path: '/api/key/delete' })).status).toBe(405);
  });

  it('checks size, media type, JSON syntax, then apiKey', async () => {
    const tooBig = await call(t, {
      method: 'POST',
      path: '/api/key/delete',
      headers: { 'Content-Type': 'text/plain' },
      body: 'x'.repeat(70_000),
    });
    expect(tooBig.status).toBe(413);
    const media = await call(t, { method: 'POST', path: '/api/key/delete', headers: { 'Content-Type': 'text/plain' }, body: '{' });
    expect(media.status).toBe(415);
    const syntax = await call(t, { method: 'POST', path: '/api/key/delete', headers: { 'Content-Type': 'application/json' }, body: '{' });
    expect(syntax.status).toBe(400);
  });

  it('apiKey before parameters', async () => {
    const res = await call(t, { path: `/api/generate-key/get?${qs({ count: 'lots' })}` });
    expect(res.status).toBe(401);
    const bad = await get(t, '/api/generate-key/get', { count: 'lots', apiKey: 'wrong' }, false);
    expect(failure(bad).code).toBe('API_KEY_INVALID');
  });

  it('parameters before state', async () => {
    const res = await postQuery(t, '/api/key/expand-expiration', { keyValue: 'NO-SUCH-KEY', days: 0 });
    expect(res.status).toBe(400);
    const state = await postQuery(t, '/api/key/expand-expiration', { keyValue: 'NO-SUCH-KEY', days: 1 });
    expect(state.status).toBe(404);
  });
});

describe('parameter rules', () => {
  it('rejects a query parameter repeated with different values', async () => {
    const diff = await call(t, { path: `/api/key/fetch?${qs({ apiKey: t.apiKey })}&fetch=a&fetch=b` });
    expect(diff.status).toBe(400);
    expect(failure(diff).message).toMatch(/fetch/);
    const same = await call(t, { path: `/api/key/fetch?${qs({ apiKey: t.apiKey })}&fetch=zzz-none&fetch=zzz-none` });
    expect(same.status).toBe(404);
  });

  it('rejects a parameter given in query and body with different values', async () => {
    const res = await call(t, {
      method: 'POST',
      path: `/api/key/expand-expiration?${qs({ apiKey: t.apiKey, keyValue: 'A', days: 1 })}`,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ days: 2 }),
    });
    expect(res.status).toBe(400);
  });

  it('treats null and empty strings as missing for required fields', async () => {
    const nul = await postJson(t, '/api/key/delete', { keyValue: null });
    expect(nul.status).toBe(400);
    expect(failure(nul).message).toMatch(/keyValue is required/);
    const empty = await postJson(t, '/api/key/delete', { keyValue: '' });
    expect(failure(empty).message).toMatch(/keyValue is required/);
  });

  it('accepts whole JSON numbers in any notation, never numeric strings', async () => {
    for (const raw of ['3', '3.0', '3e0']) {
      const res = await call(t, {
        method: 'POST',
        path: '/api/generate-key/post',
        headers: { 'Content-Type': 'application/json' },
        body: `{"apiKey":${JSON.stringify(t.apiKey)},"expire":"${futureDate()}","isPremium":false,"count":${raw}}`,
      });
      expect(res.status, raw).toBe(201);
      expect((res.json.generatedKeys as unknown[]).length).toBe(3);
    }
    const str = await postJson(t, '/api/generate-key/post', { expire: futureDate(), isPremium: false, count: '3' });
    expect(str.status).toBe(400);
    const frac = await postJson(t, '/api/generate-key/post', { expire: futureDate(), isPremium: false, count: 2.5 });
    expect(frac.status).toBe(400);
  });

  it('accepts only ^[0-9]+$ for integers in a query string', async () => {
    for (const count of ['-1', '+1', '1e1', '0x10', '1.0', ' 1', '1 ', '']) {
      const res = await get(t, '/api/generate-key/get', { expire: futureDate(), isPremium: false, count });
      expect(res.status, JSON.stringify(count)).toBe(400);
      expect(failure(res).code).toBe('INVALID_INPUT');
    }
  });

  it('accepts JSON booleans and the strings "true"/"false", nothing else', async () => {
    for (const isPremium of [true, 'true', false, 'false']) {
      const res = await postJson(t, '/api/generate-key/post', { expire: futureDate(), count: 1, isPremium });
      expect(res.status, String(isPremium)).toBe(201);
    }
    for (const isPremium of ['yes', 1, 0, 'TRUE', []]) {
      const res = await postJson(t, '/api/generate-key/post', { expire: futureDate(), count: 1, isPremium });
      expect(res.status, JSON.stringify(isPremium)).toBe(400);
    }
  });

  it('limits text parameters to 256 characters, not bytes', async () => {
    const long = await get(t, '/api/key/fetch', { fetch: 'x'.repeat(257) });
    expect(long.status).toBe(400);
    const emoji = await get(t, '/api/key/fetch', { fetch: '🔑'.repeat(256) });
    expect(emoji.status).toBe(404);
  });
});

describe('Host guard (sandbox only)', () => {
  it('answers a foreign Host with 403 HOST_NOT_ALLOWED and accepts the loopback names', async (ctx) => {
    if (!t.local) ctx.skip();
    const port = new URL(t.url).port;
    const path = `/api/execution-count?${qs({ apiKey: t.apiKey })}`;
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1:${Number(port) + 1}`, '127.0.0.1']) {
      const res = await call(t, { path, host });
      expect(res.status, host).toBe(403);
      expect(failure(res).code).toBe('HOST_NOT_ALLOWED');
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
      expect((await call(t, { path, host })).status, host).toBe(200);
    }
  });

  it('checks Host before anything else, even the route', async (ctx) => {
    if (!t.local) ctx.skip();
    const res = await call(t, { path: '/nowhere', host: 'attacker.test' });
    expect(res.status).toBe(403);
  });
});
