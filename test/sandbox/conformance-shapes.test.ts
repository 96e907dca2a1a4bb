// Strict shapes (issue 9 §4): for every endpoint, the set of fields in the default (real-dialect) success body,
// recursively, equals wire.md's "Real dialect" list exactly: a new field fails here, as it would fail the real
// service's Java client. The detail body (Keydesk-Detail: full) holds at least that set. Like the rest of this
// folder, it runs against any server through KEYDESK_TEST_*; sandbox-only endpoints are skipped elsewhere.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WireKey } from '../../src/shared/wire.ts';
import { DETAIL_FULL, DETAIL_HEADER, ROUTES, type RouteSpec } from '../../src/shared/wire.ts';
import { qs, send } from '../support/http.ts';
import { createService, startSandbox } from '../support/sandbox-process.ts';
import { tempDir } from '../support/temp-dir.ts';
import { futureDate, generate, uniqueNote, validate } from './api.ts';
import { call, openTarget, type Target } from './target.ts';

// ---- wire.md, "Real dialect", written out as field paths (`a.b` nested, `a[].b` in every element) ----------

const REAL_KEY = ['id', 'value', 'note', 'hwid', 'expiresAt', 'isPremium', 'lastResetAt', 'serviceId'];
const nested = (name: string, fields: string[]): string[] => [name, ...fields.map((f) => `${name}.${f}`)];
const listOf = (name: string, fields: string[]): string[] => [name, ...fields.map((f) => `${name}[].${f}`)];

const REAL = {
  push: ['success', 'message'],
  executionCount: ['executionCount'],
  generate: ['message', ...listOf('generatedKeys', ['value', 'note', 'expiresAt', 'isPremium'])],
  message: ['message'],
  expand: ['message', ...nested('key', REAL_KEY)],
  fetchKey: nested('key', REAL_KEY),
  fetchGenerated: nested('generatedKey', ['id', 'value', 'note', 'expiresAt', 'isPremium']),
  fetchKeyless: nested('keyless', ['id', 'hwid', 'expiresAt', 'isPremium']),
  identifierCheck: ['message', 'service'],
  addKeyless: ['message', ...nested('keyless', ['id', 'hwid', 'expiresAt', 'isPremium'])],
  editGenerated: ['message', ...nested('generatedKey', ['id', 'value', 'note', 'expiresAt', 'isPremium'])],
  validation: [
    'OwnerSecretID',
    'Registered_ServiceID',
    'Authentication',
    'V2_Authentication',
    ...nested('Key_Information', ['NoKey_Requirement', 'Hardware_ID', 'Premium_Mode', 'Notes', 'expiresAt']),
  ],
  error: ['success', 'message', 'code'],
};

/**
 * Every field path of a JSON value, sorted. Each element of an array must have the same paths as the others
 * (a field present on one key and missing on another is a shape error too).
 */
function paths(value: unknown, prefix = ''): string[] {
  const out = new Set<string>();
  if (Array.isArray(value)) {
    let first: string[] | null = null;
    for (const item of value) {
      const p = paths(item, `${prefix}[].`);
      if (first === null) first = p;
      else expect(p, `every element of ${prefix.slice(0, -1) || 'the list'} has the same fields`).toEqual(first);
    }
    for (const p of first ?? []) out.add(p);
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      out.add(`${prefix}${k}`);
      for (const p of paths(v, `${prefix}${k}${Array.isArray(v) ? '' : '.'}`)) out.add(p);
    }
  }
  return [...out].sort();
}

let t: Target;
beforeAll(async () => {
  t = await openTarget();
});
afterAll(async () => {
  await t.close();
});

type Req = {
  method?: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  json?: Record<string, unknown>;
};
type Check = {
  name: string;
  expected: string[];
  /** What the detail body holds at least, where wire.md gives it other fields than the real one. */
  detailAtLeast?: string[];
  status: number;
  local?: boolean;
  request: () => Promise<Req> | Req;
};

/** Sends a request in one dialect and returns its body's field paths. */
async function shapeIn(req: Req, dialect: 'real' | 'detail', status: number): Promise<string[]> {
  const raw = {
    method: req.method ?? 'GET',
    path: `${req.path}${req.query ? `?${qs(req.query)}` : ''}`,
    ...(req.json ? { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(req.json) } : {}),
  };
  const res = await call(t, raw, dialect);
  expect(res.status, `${raw.method} ${req.path} (${dialect}): ${res.text.slice(0, 200)}`).toBe(status);
  return paths(res.json);
}

const withKey = (q: Record<string, string | number | boolean | undefined> = {}) => ({ apiKey: t.apiKey, ...q });

/** An active key (validated once, so bound) and a generated one, made fresh for each request that consumes them. */
async function activeKey(): Promise<WireKey> {
  const [k] = await generate(t, { note: uniqueNote('shape active') });
  if (!k) throw new Error('no key');
  const v = await validate(t, k.value, `HW-${k.value}`);
  expect(v.V2_Authentication).toBe('success');
  return k;
}
async function generatedKey(): Promise<WireKey> {
  const [k] = await generate(t, { note: uniqueNote('shape generated') });
  if (!k) throw new Error('no key');
  return k;
}
const generateParams = () => ({ expire: futureDate(), count: 2, isPremium: false, note: uniqueNote('shape gen') });

const CHECKS: Check[] = [
  {
    name: 'POST /api/push-execution-count',
    expected: REAL.push,
    status: 200,
    request: () => ({ method: 'POST', path: '/api/push-execution-count', query: withKey() }),
  },
  {
    name: 'GET /api/execution-count',
    expected: REAL.executionCount,
    status: 200,
    request: () => ({ path: '/api/execution-count', query: withKey() }),
  },
  {
    name: 'GET /api/generate-key/get',
    expected: REAL.generate,
    status: 201,
    request: () => ({ path: '/api/generate-key/get', query: withKey(generateParams()) }),
  },
  {
    name: 'POST /api/generate-key/post',
    expected: REAL.generate,
    status: 201,
    request: () => ({ method: 'POST', path: '/api/generate-key/post', json: withKey(generateParams()) }),
  },
  {
    name: 'GET /api/generate-key/get (days key)',
    expected: REAL.generate,
    status: 201,
    request: () => ({ path: '/api/generate-key/get', query: withKey({ ...generateParams(), expiresByDaysKey: true, daysKey: 7 }) }),
  },
  // A delete consumes its key, so each dialect's request gets its own (see `fresh` below).
  {
    name: 'POST /api/key/delete',
    expected: REAL.message,
    status: 200,
    request: async () => ({ method: 'POST', path: '/api/key/delete', json: withKey({ keyValue: (await activeKey()).value }) }),
  },
  {
    name: 'POST /api/generated-key/delete',
    expected: REAL.message,
    status: 200,
    request: async () => ({ method: 'POST', path: '/api/generated-key/delete', json: withKey({ keyValue: (await generatedKey()).value }) }),
  },
  {
    name: 'POST /api/key/expand-expiration (active key)',
    expected: REAL.expand,
    status: 200,
    request: async () => ({
      method: 'POST',
      path: '/api/key/expand-expiration',
      query: withKey({ keyValue: (await activeKey()).value, days: 3 }),
    }),
  },
  {
    name: 'POST /api/key/expand-expiration (generated key)',
    expected: REAL.expand,
    status: 200,
    request: async () => ({
      method: 'POST',
      path: '/api/key/expand-expiration',
      query: withKey({ keyValue: (await generatedKey()).value, days: 3 }),
    }),
  },
  {
    name: 'GET /api/key/fetch',
    expected: REAL.fetchKey,
    status: 200,
    request: async () => ({ path: '/api/key/fetch', query: withKey({ fetch: (await activeKey()).value }) }),
  },
  {
    name: 'POST /api/reset-hwid',
    expected: REAL.message,
    status: 200,
    request: async () => ({ method: 'POST', path: '/api/reset-hwid', json: withKey({ keyValue: (await activeKey()).value }) }),
  },
  {
    name: 'GET /api/generated-key/fetch',
    expected: REAL.fetchGenerated,
    status: 200,
    request: async () => ({ path: '/api/generated-key/fetch', query: withKey({ fetch: (await generatedKey()).value }) }),
  },
  {
    name: 'GET /api/identifier-check (taken)',
    expected: REAL.identifierCheck,
    status: 200,
    request: () => ({ path: '/api/identifier-check', query: withKey({ identifier: t.service }) }),
  },
  {
    name: 'GET /api/identifier-check (free)',
    expected: REAL.identifierCheck,
    status: 200,
    request: () => ({ path: '/api/identifier-check', query: withKey({ identifier: 'free-shape-zz9' }) }),
  },
  {
    name: 'POST /api/keyless/add',
    expected: REAL.addKeyless,
    status: 201,
    local: true,
    request: () => ({
      method: 'POST',
      path: '/api/keyless/add',
      json: withKey({ hwid: `KL-${uniqueNote('add').replaceAll(' ', '')}`, isPremium: true, days: 5 }),
    }),
  },
  {
    name: 'GET /api/keyless/fetch',
    expected: REAL.fetchKeyless,
    status: 200,
    local: true,
    request: async () => ({ path: '/api/keyless/fetch', query: withKey({ fetch: await keyless() }) }),
  },
  {
    name: 'POST /api/keyless/delete',
    expected: REAL.message,
    status: 200,
    local: true,
    request: async () => ({ method: 'POST', path: '/api/keyless/delete', json: withKey({ hwid: await keyless() }) }),
  },
  // Optional endpoints (wire.md, "Seen in vendors' code"): a remote service may lack them.
  {
    name: 'POST /api/key/edit',
    expected: REAL.expand,
    status: 200,
    local: true,
    request: async () => ({
      method: 'POST',
      path: '/api/key/edit',
      json: withKey({ keyValue: (await activeKey()).value, note: 'edited' }),
    }),
  },
  {
    name: 'POST /api/generated-key/edit',
    expected: REAL.editGenerated,
    // wire.md: "Detail dialect: {success, message, key: Key} for both" edits.
    detailAtLeast: ['success', 'message', 'key', 'key.value', 'key.status', 'key.noHwidValidation'],
    status: 200,
    local: true,
    request: async () => ({
      method: 'POST',
      path: '/api/generated-key/edit',
      json: withKey({ keyValue: (await generatedKey()).value, isPremium: true, noHwidValidation: true }),
    }),
  },
  {
    name: 'GET /api/reset-hwid (no apiKey)',
    expected: REAL.message,
    status: 200,
    local: true,
    request: async () => ({ path: '/api/reset-hwid', query: { service: t.service, key: (await activeKey()).value } }),
  },
  {
    name: 'an error of an optional endpoint (409 CONFLICT)',
    expected: REAL.error,
    status: 409,
    local: true,
    request: async () => ({ path: '/api/reset-hwid', query: { service: t.service, key: (await generatedKey()).value } }),
  },
  {
    name: 'an error of an optional endpoint (404 NOT_FOUND)',
    expected: REAL.error,
    status: 404,
    local: true,
    request: async () => ({ method: 'POST', path: '/api/key/edit', json: withKey({ keyValue: (await generatedKey()).value, note: 'x' }) }),
  },
  {
    name: 'GET /api/generate-key/get (works on any machine)',
    expected: REAL.generate,
    status: 201,
    request: () => ({ path: '/api/generate-key/get', query: withKey({ ...generateParams(), noHwidValidation: true }) }),
  },
  ...(['GET', 'POST'] as const).flatMap((method): Check[] => [
    {
      name: `${method} /v2_validation (success)`,
      expected: REAL.validation,
      status: 200,
      request: async () => ({ method, path: '/v2_validation', query: { key: (await activeKey()).value, service: t.service, hwid: 'ANY' } }),
    },
    {
      name: `${method} /v2_validation (hwid_mismatch)`,
      expected: REAL.validation,
      status: 200,
      request: async () => ({
        method,
        path: '/v2_validation',
        query: { key: (await activeKey()).value, service: t.service, hwid: 'ANOTHER-MACHINE' },
      }),
    },
    {
      name: `${method} /v2_validation (invalid_key)`,
      expected: REAL.validation,
      status: 200,
      request: () => ({ method, path: '/v2_validation', query: { key: 'NOPE', service: t.service, hwid: 'H' } }),
    },
    {
      name: `${method} /v2_validation (invalid_service)`,
      expected: REAL.validation,
      status: 200,
      request: () => ({ method, path: '/v2_validation', query: { key: 'NOPE', service: 'no-such-service-zz9', hwid: 'H' } }),
    },
    {
      name: `${method} /v2_validation (not_whitelisted)`,
      expected: REAL.validation,
      status: 200,
      request: () => ({ method, path: '/v2_validation', query: { key: 'keyless', service: t.service, hwid: 'NOT-LISTED' } }),
    },
  ]),
  {
    name: 'POST /v2_validation (JSON body)',
    expected: REAL.validation,
    status: 200,
    request: async () => ({
      method: 'POST',
      path: '/v2_validation',
      json: { key: (await generatedKey()).value, service: t.service, hwid: 'JSON-BODY' },
    }),
  },
  // Error bodies are the same in both dialects.
  {
    name: 'an error (404 NOT_FOUND)',
    expected: REAL.error,
    status: 404,
    request: () => ({ path: '/api/key/fetch', query: withKey({ fetch: 'no-such-key-shape-zz9' }) }),
  },
  {
    name: 'an error (401 API_KEY_INVALID)',
    expected: REAL.error,
    status: 401,
    request: () => ({ path: '/api/execution-count', query: { apiKey: 'kd_wrong' } }),
  },
  {
    name: 'an error (400 INVALID_INPUT)',
    expected: REAL.error,
    status: 400,
    request: () => ({ path: '/v2_validation', query: { key: 'K' } }),
  },
];

/** A keyless entry of this service (sandbox only). */
async function keyless(): Promise<string> {
  const hwid = `KL-${uniqueNote('kl').replaceAll(' ', '')}`;
  const res = await call(t, {
    method: 'POST',
    path: '/api/keyless/add',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(withKey({ hwid })),
  });
  expect(res.status).toBe(201);
  return hwid;
}

describe('strict shapes: the real dialect has exactly wire.md’s fields; the detail dialect at least those', () => {
  for (const check of CHECKS) {
    it(check.name, async (ctx) => {
      if (check.local && !t.local) ctx.skip();
      // Requests that consume state (a delete, a reset) get a fresh target for each dialect.
      const real = await shapeIn(await check.request(), 'real', check.status);
      const detail = await shapeIn(await check.request(), 'detail', check.status);
      expect(real, 'real dialect').toEqual([...check.expected].sort());
      expect(detail, 'detail dialect').toEqual(expect.arrayContaining(check.detailAtLeast ?? check.expected));
      if (check.expected === REAL.error) expect(detail, 'errors: the same in both dialects').toEqual(real);
    });
  }

  it('covers every method of every route in the route table', () => {
    for (const route of Object.values(ROUTES) as RouteSpec[]) {
      for (const method of route.methods) {
        expect(
          CHECKS.some((c) => c.name.startsWith(`${method} ${route.path}`)),
          `${method} ${route.path}`,
        ).toBe(true);
      }
    }
  });
});

describe('--real-only (sandbox only)', () => {
  it('ignores Keydesk-Detail: full and answers every endpoint in the real dialect', async (ctx) => {
    if (!t.local) ctx.skip();
    const db = join(tempDir(), 'real-only.db');
    const { apiKey, identifier } = createService(db, 'Real Only');
    const sandbox = await startSandbox({ db, args: ['--real-only'] });
    try {
      const detail = { [DETAIL_HEADER]: DETAIL_FULL };
      const push = await send(sandbox.url, { method: 'POST', path: `/api/push-execution-count?${qs({ apiKey })}`, headers: detail });
      expect(paths(push.json)).toEqual([...REAL.push].sort());
      const gen = await send(sandbox.url, { path: `/api/generate-key/get?${qs({ apiKey, ...generateParams() })}`, headers: detail });
      expect(gen.status).toBe(201);
      expect(paths(gen.json)).toEqual([...REAL.generate].sort());
      const value = (gen.json.generatedKeys as { value: string }[])[0]?.value ?? '';
      const v = await send(sandbox.url, { path: `/v2_validation?${qs({ key: value, service: identifier, hwid: 'H' })}`, headers: detail });
      expect(paths(v.json)).toEqual([...REAL.validation].sort());
      const fetched = await send(sandbox.url, { path: `/api/key/fetch?${qs({ apiKey, fetch: value })}`, headers: detail });
      expect(paths(fetched.json)).toEqual([...REAL.fetchKey].sort());
    } finally {
      await sandbox.stop();
    }
  });
});
