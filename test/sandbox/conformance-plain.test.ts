// Conformance as a client nobody here wrote sees it (wire9 audit): every request goes through the platform's own
// fetch (undici), with no Keydesk-Detail header unless a test asks for one and nothing from src/main/client, and
// every assertion is on the VALUES wire.md fixes, not only on the field names conformance-shapes checks. Like the
// rest of this folder it runs against any server through KEYDESK_TEST_*; sandbox-only parts skip elsewhere.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createService, startSandbox } from '../support/sandbox-process.ts';
import { tempDir } from '../support/temp-dir.ts';
import { DAY, futureDate, uniqueNote } from './api.ts';
import { openApiMismatch } from './openapi-answers.ts';
import { openTarget, type Target } from './target.ts';

let t: Target;
beforeAll(async () => {
  t = await openTarget();
});
afterAll(async () => {
  await t.close();
});

/** wire.md: "ISO 8601 UTC with milliseconds (2027-01-31T23:59:59.999Z)". */
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const JSON_TYPE = 'application/json; charset=utf-8';

interface Plain {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** One request the way a third-party client makes it: fetch, a URL, maybe a JSON body; nothing else. */
async function plain(
  base: string,
  path: string,
  init: { method?: string; json?: unknown; headers?: Record<string, string>; body?: string } = {},
): Promise<Plain> {
  const headers: Record<string, string> = { ...init.headers };
  let body = init.body;
  if (init.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(init.json);
  }
  const res = await fetch(`${base}${path}`, { method: init.method ?? 'GET', headers, body });
  expect(res.headers.get('content-type'), `${init.method ?? 'GET'} ${path}`).toBe(JSON_TYPE);
  const text = await res.text();
  const answer = { status: res.status, headers: res.headers, body: JSON.parse(text) as Record<string, unknown> };
  // A local sandbox's real-dialect answers and errors match its /openapi.json.
  const detail = Object.entries(headers).some(([k, v]) => k.toLowerCase() === 'keydesk-detail' && v.trim().toLowerCase() === 'full');
  if (t.local && (!detail || answer.status >= 400)) {
    expect(openApiMismatch(init.method ?? 'GET', path, answer.status, answer.body)).toBeNull();
  }
  return answer;
}

const q = (params: Record<string, string | number | boolean>): string =>
  new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();
const api = (path: string, init?: Parameters<typeof plain>[2]) => plain(t.url, path, init);
const withKey = (params: Record<string, string | number | boolean> = {}) => q({ apiKey: t.apiKey, ...params });

async function generateReal(
  params: Record<string, unknown>,
): Promise<{ value: string; note: string; expiresAt: string | null; isPremium: boolean }[]> {
  const res = await api('/api/generate-key/post', {
    method: 'POST',
    json: { apiKey: t.apiKey, expire: futureDate(), count: 1, isPremium: false, ...params },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.generatedKeys as { value: string; note: string; expiresAt: string | null; isPremium: boolean }[];
}

async function activate(value: string, hwid: string): Promise<Record<string, unknown>> {
  const res = await api(`/v2_validation?${q({ key: value, service: t.service, hwid })}`);
  expect(res.status).toBe(200);
  expect(res.body.V2_Authentication).toBe('success');
  return res.body;
}

describe('the real dialect (the default): the values wire.md fixes, not only the field names', () => {
  it('push answers exactly the plain success, and the count rises by one', async () => {
    const before = (await api(`/api/execution-count?${withKey()}`)).body;
    expect(Object.keys(before)).toEqual(['executionCount']);
    expect(Number.isSafeInteger(before.executionCount)).toBe(true);
    const push = await api(`/api/push-execution-count?${withKey()}`, { method: 'POST' });
    expect(push.status).toBe(200);
    expect(push.body).toEqual({ success: true, message: 'Execution count incremented successfully' });
    expect((await api(`/api/execution-count?${withKey()}`)).body).toEqual({ executionCount: (before.executionCount as number) + 1 });
  });

  it('generate answers 201 with each key in the plain shape', async () => {
    const note = `  ${uniqueNote('kept as given')}  `;
    const expire = futureDate(20);
    const res = await api(`/api/generate-key/get?${withKey({ expire, count: 2, isPremium: true, note })}`);
    expect(res.status).toBe(201);
    expect(typeof res.body.message).toBe('string');
    const keys = res.body.generatedKeys as Record<string, unknown>[];
    expect(keys).toHaveLength(2);
    for (const k of keys)
      expect(k).toEqual({ value: expect.any(String) as unknown, note, expiresAt: `${expire}T23:59:59.999Z`, isPremium: true });
    const [days] = await generateReal({ expiresByDaysKey: true, daysKey: 9, note });
    expect(days).toEqual({ value: expect.any(String) as unknown, note, expiresAt: null, isPremium: false });
  });

  it("generated-key/fetch {generatedKey: {id, value, note, expiresAt, isPremium}} with the key's values", async () => {
    const note = uniqueNote('real generated');
    const [k] = await generateReal({ note, isPremium: true });
    const res = await api(`/api/generated-key/fetch?${withKey({ fetch: k?.value ?? '' })}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      generatedKey: { id: expect.any(String) as unknown, value: k?.value, note, expiresAt: k?.expiresAt, isPremium: true },
    });
  });

  it('key/fetch answers the plain key, and reset clears its hwid', async () => {
    const note = uniqueNote('real active');
    const [k] = await generateReal({ note });
    const hwid = `HW-${note.replaceAll(' ', '')}`;
    await activate(k?.value ?? '', hwid);
    const found = await api(`/api/key/fetch?${withKey({ fetch: hwid })}`);
    expect(found.status).toBe(200);
    const key = found.body.key as Record<string, unknown>;
    expect(key).toEqual({
      id: expect.any(String) as unknown,
      value: k?.value,
      note,
      hwid,
      expiresAt: k?.expiresAt,
      isPremium: false,
      lastResetAt: null,
      serviceId: expect.any(String) as unknown,
    });
    expect(key.expiresAt).toMatch(ISO_MS);

    const reset = await api('/api/reset-hwid', { method: 'POST', json: { apiKey: t.apiKey, keyValue: k?.value } });
    expect(reset.status).toBe(200);
    expect(Object.keys(reset.body)).toEqual(['message']);
    const after = (await api(`/api/key/fetch?${withKey({ fetch: k?.value ?? '' })}`)).body.key as Record<string, unknown>;
    expect(after).toMatchObject({ id: key.id, hwid: null });
    expect(after.lastResetAt).toMatch(ISO_MS);
  });

  it('expand-expiration moves expiresAt by the days in the query', async () => {
    const [k] = await generateReal({});
    const res = await api(`/api/key/expand-expiration?${withKey({ keyValue: k?.value ?? '', days: 3 })}`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(typeof res.body.message).toBe('string');
    const key = res.body.key as Record<string, unknown>;
    expect(key.expiresAt).toBe(new Date(Date.parse(k?.expiresAt ?? '') + 3 * DAY).toISOString());
    expect(key.hwid).toBeNull();
  });

  it('delete and generated-key/delete answer {message} alone', async () => {
    const [a] = await generateReal({});
    const [b] = await generateReal({});
    for (const [path, value] of [
      ['/api/key/delete', a?.value],
      ['/api/generated-key/delete', b?.value],
    ] as const) {
      const res = await api(path, { method: 'POST', json: { apiKey: t.apiKey, keyValue: value } });
      expect(res.status, path).toBe(200);
      expect(Object.keys(res.body), path).toEqual(['message']);
      expect(typeof res.body.message).toBe('string');
    }
  });

  it('validation: hwid_mismatch grants nothing but gives expiresAt', async () => {
    const [k] = await generateReal({ isPremium: true });
    await activate(k?.value ?? '', 'HW-MINE');
    const other = await api(`/v2_validation?${q({ key: k?.value ?? '', service: t.service, hwid: 'HW-THEIRS' })}`);
    expect(other.body).toEqual({
      OwnerSecretID: expect.any(String) as unknown,
      Registered_ServiceID: t.service,
      Authentication: 'hwid_mismatch',
      V2_Authentication: 'hwid_mismatch',
      Key_Information: {
        NoKey_Requirement: false,
        Hardware_ID: 'HW-THEIRS',
        Premium_Mode: false,
        Notes: expect.stringMatching(/\w/) as unknown,
        expiresAt: k?.expiresAt,
      },
    });
    const unknown = await api(`/v2_validation?${q({ key: 'NO-SUCH-KEY-PLAIN', service: t.service, hwid: 'H' })}`);
    expect((unknown.body.Key_Information as Record<string, unknown>).expiresAt).toBeNull();
  });

  it('identifier-check {message, service}: null when the identifier is free', async () => {
    const res = await api(`/api/identifier-check?${withKey({ identifier: 'free-plain-zz9' })}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String) as unknown, service: null });
  });
});

describe('the detail dialect is given only for Keydesk-Detail: full', () => {
  it('any other value of the header, or none, gets the real body', async () => {
    for (const value of ['yes', 'true', 'partial', '']) {
      const res = await api(`/api/execution-count?${withKey()}`, { headers: { 'Keydesk-Detail': value } });
      expect(Object.keys(res.body), JSON.stringify(value)).toEqual(['executionCount']);
    }
    const detail = await api(`/api/execution-count?${withKey()}`, { headers: { 'Keydesk-Detail': 'full' } });
    expect(detail.body).toMatchObject({
      success: true,
      message: expect.any(String) as unknown,
      executionCount: expect.any(Number) as unknown,
    });
  });
});

describe('apiKey (wire.md "General" and "Parameters")', () => {
  it('an unknown apiKey of any form is 401, never 400', async () => {
    for (const apiKey of ['kd_short', `kd_${'x'.repeat(2_000)}`, 'kd_a\u0000b']) {
      const res = await api(`/api/execution-count?${q({ apiKey })}`);
      expect(res.status, `${apiKey.length} characters`).toBe(401);
      expect(res.body).toMatchObject({ success: false, code: 'API_KEY_INVALID' });
      expect(JSON.stringify(res.body)).not.toContain('xxxxxxxx');
    }
    const inBody = await api('/api/key/delete', { method: 'POST', json: { apiKey: `kd_${'y'.repeat(3_000)}`, keyValue: 'K' } });
    expect(inBody.status).toBe(401);
    expect(inBody.body.code).toBe('API_KEY_INVALID');
  });

  it('given in both places with the same value is accepted', async () => {
    const res = await api(`/api/key/delete?${withKey()}`, { method: 'POST', json: { apiKey: t.apiKey, keyValue: 'NO-SUCH-KEY-BOTH' } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
  });

  /** A GET with a body, sent by node:http (fetch refuses a GET with a body, as most clients do; any HTTP client may). */
  async function getWithBody(pathAndQuery: string, body: string): Promise<{ status: number; text: string }> {
    const { request } = await import('node:http');
    const u = new URL(`${t.url}${pathAndQuery}`);
    return new Promise((resolve, reject) => {
      const r = request(
        {
          host: u.hostname,
          port: u.port,
          path: `${u.pathname}${u.search}`,
          method: 'GET',
          agent: false,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = '';
          res
            .setEncoding('utf8')
            .on('data', (d: string) => (text += d))
            .on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      r.on('error', reject);
      r.end(body);
    });
  }

  it('is accepted in a JSON body for a GET too', async (ctx) => {
    if (!t.local) ctx.skip();
    const answer = await getWithBody('/api/execution-count', JSON.stringify({ apiKey: t.apiKey }));
    expect(answer.status, answer.text).toBe(200);
    expect(Object.keys(JSON.parse(answer.text) as object)).toEqual(['executionCount']);
  });

  it("is the only thing read from a GET's JSON body", async (ctx) => {
    if (!t.local) ctx.skip();
    // A term in the body is not the search: the query has none, so the apiKey is taken from the body and the term is
    // still missing.
    const searched = await getWithBody('/api/generated-key/fetch', JSON.stringify({ apiKey: t.apiKey, fetch: 'ANY-TERM' }));
    expect(searched.status, searched.text).toBe(400);
    expect(JSON.parse(searched.text)).toMatchObject({ code: 'INVALID_INPUT', message: 'fetch is required.' });
    // Not JSON at all: ignored, as any other GET body; the apiKey in the query still counts.
    const broken = await getWithBody(`/api/execution-count?${withKey()}`, '{"apiKey": ');
    expect(broken.status, broken.text).toBe(200);
    // Validation needs no apiKey and always answers 200 with an outcome: a body never turns it into a 400.
    const [k] = await generateReal({});
    const validated = await getWithBody(
      `/v2_validation?${q({ key: k?.value ?? '', service: t.service, hwid: 'HW-GET-BODY' })}`,
      '{"key": 1, ',
    );
    expect(validated.status, validated.text).toBe(200);
    expect((JSON.parse(validated.text) as { V2_Authentication?: string }).V2_Authentication).toBe('success');
  });
});

describe('parameters', () => {
  it('trims no string: a padded key value finds nothing', async () => {
    const [k] = await generateReal({});
    expect((await api(`/api/generated-key/fetch?${withKey({ fetch: k?.value ?? '' })}`)).status).toBe(200);
    for (const term of [` ${k?.value}`, `${k?.value} `]) {
      const res = await api(`/api/generated-key/fetch?${withKey({ fetch: term })}`);
      expect(res.status, JSON.stringify(term)).toBe(404);
    }
  });

  it('expire is required for a days key too', async () => {
    const res = await api('/api/generate-key/post', {
      method: 'POST',
      json: { apiKey: t.apiKey, count: 1, isPremium: false, expiresByDaysKey: true, daysKey: 5 },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'INVALID_INPUT', message: expect.stringMatching(/expire/) as unknown });
  });

  it('validation refuses a service over 256 characters with 400 INVALID_INPUT', async () => {
    const res = await api(`/v2_validation?${q({ key: 'K', service: 's'.repeat(257), hwid: 'H' })}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'INVALID_INPUT' });
  });

  it('validation by POST with an empty body is never a media-type error', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await api(`/v2_validation?${q({ key: 'NO-SUCH', service: t.service, hwid: 'H' })}`, {
        method: 'POST',
        headers: { 'content-type': type },
      });
      expect(res.status, type).toBe(200);
      expect(res.body.V2_Authentication).toBe('invalid_key');
    }
  });
});

describe('paging (detail dialect)', () => {
  const detail = { 'Keydesk-Detail': 'full' };

  it('pages with limit 100 by default, past the end answering empty', async () => {
    const note = uniqueNote('page default');
    const res = await api('/api/generate-key/post', {
      method: 'POST',
      json: { apiKey: t.apiKey, expire: futureDate(), count: 101, isPremium: false, note },
    });
    expect(res.status).toBe(201);
    const first = await api(`/api/generated-key/fetch?${withKey({ fetch: note })}`, { headers: detail });
    expect(first.body.total).toBe(101);
    expect(first.body.generatedKeys).toHaveLength(100);
    const max = await api(`/api/generated-key/fetch?${withKey({ fetch: note, limit: 1_000 })}`, { headers: detail });
    expect(max.body.generatedKeys).toHaveLength(101);
    const past = await api(`/api/generated-key/fetch?${withKey({ fetch: note, offset: 1_000_000 })}`, { headers: detail });
    expect(past.status).toBe(200);
    expect(past.body).toMatchObject({ generatedKeys: [], total: 101 });
    // The single best match ignores offset.
    expect((past.body.generatedKey as { value: string }).value).toBe((first.body.generatedKey as { value: string }).value);
  });

  it('keyless/fetch past the end answers an empty list and the total', async (ctx) => {
    if (!t.local) ctx.skip();
    const hwid = `KL-PAST-${uniqueNote('').trim().replaceAll(' ', '')}`;
    expect((await api('/api/keyless/add', { method: 'POST', json: { apiKey: t.apiKey, hwid } })).status).toBe(201);
    const res = await api(`/api/keyless/fetch?${withKey({ fetch: hwid, offset: 5 })}`, { headers: detail });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ keylessEntries: [], total: 1, keyless: { hwid } });
  });
});

describe('a sandbox of two services, started with no options (sandbox only)', () => {
  let db: string;
  let mine: ReturnType<typeof createService>;
  let sandbox: Awaited<ReturnType<typeof startSandbox>> | undefined;
  beforeAll(async () => {
    if (!t.local) return;
    db = join(tempDir(), 'two-services.db');
    mine = createService(db, 'Mine Co', 'mine-co');
    createService(db, 'Theirs Co', 'theirs-co');
    sandbox = await startSandbox({ db });
  });
  afterAll(async () => {
    await sandbox?.stop();
  });
  const url = (): string => sandbox?.url ?? '';

  it("identifier-check finds another service's identifier, whatever its case", async (ctx) => {
    if (!t.local) ctx.skip();
    const real = await plain(url(), `/api/identifier-check?${q({ apiKey: mine.apiKey, identifier: 'THEIRS-co' })}`);
    expect(real.body).toEqual({ message: expect.any(String) as unknown, service: 'Theirs Co' });
    const detail = await plain(url(), `/api/identifier-check?${q({ apiKey: mine.apiKey, identifier: 'theirs-co' })}`, {
      headers: { 'Keydesk-Detail': 'full' },
    });
    expect(detail.body).toMatchObject({ success: true, exists: true, service: 'Theirs Co' });
  });

  it('has no cooldown or rate limit unless asked', async (ctx) => {
    if (!t.local) ctx.skip();
    const gen = await plain(url(), '/api/generate-key/post', {
      method: 'POST',
      json: { apiKey: mine.apiKey, expire: futureDate(), count: 1, isPremium: false },
    });
    const value = (gen.body.generatedKeys as { value: string }[])[0]?.value ?? '';
    for (const hwid of ['H1', 'H2', 'H3']) {
      expect((await plain(url(), `/v2_validation?${q({ key: value, service: 'mine-co', hwid })}`)).body.V2_Authentication).toBe('success');
      expect((await plain(url(), '/api/reset-hwid', { method: 'POST', json: { apiKey: mine.apiKey, keyValue: value } })).status).toBe(200);
    }
    const statuses = await Promise.all(
      Array.from({ length: 60 }, () => plain(url(), `/api/execution-count?${q({ apiKey: mine.apiKey })}`).then((r) => r.status)),
    );
    expect(new Set(statuses)).toEqual(new Set([200]));
  });

  it('accepts an 8 KiB URL and answers one byte more with 414', async (ctx) => {
    if (!t.local) ctx.skip();
    const base = `/api/key/fetch?${q({ apiKey: mine.apiKey })}&pad=`;
    const tail = '&fetch=';
    const fill = 8 * 1024 - base.length - tail.length;
    expect(Buffer.byteLength(`${base}${'x'.repeat(fill)}${tail}`)).toBe(8 * 1024);
    const at = await plain(url(), `${base}${'x'.repeat(fill)}${tail}`);
    expect(at.status).toBe(400); // past the size check: the empty fetch term is what is wrong
    const over = await plain(url(), `${base}${'x'.repeat(fill + 1)}${tail}`);
    expect(over.status).toBe(414);
  });

  it('keeps its database in WAL mode', async (ctx) => {
    if (!t.local) ctx.skip();
    const { DatabaseSync } = await import('node:sqlite');
    const conn = new DatabaseSync(db, { readOnly: true });
    try {
      expect(conn.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    } finally {
      conn.close();
    }
  });
});
