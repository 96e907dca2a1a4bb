// What Keydesk's client puts on the wire, as the real service receives it (wire9 audit): for every operation, the
// method, path, query string, JSON body (with JSON types: a number is a number, a boolean unquoted) and
// Content-Type, against service-api.md §4-5 and wire.md "Parameters". The boundary itself is the point, so the
// service is a fake on 127.0.0.1 that records each request and answers in the real dialect.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/main/client/service-client.ts';
import { FakeService, real } from '../support/fake-service.ts';

const API_KEY = 'kd_wire9-requests-key';
const VALUE = 'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE';
const fake = new FakeService();
let client: ServiceClient;

beforeAll(async () => {
  await fake.start();
  client = new ServiceClient(
    { baseUrl: fake.url, validationUrl: `${fake.url}/v2_validation`, apiKey: API_KEY },
    { retryDelaysMs: [10, 10] },
  );
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.reset();
});

/** The one request the fake received, as the service sees it. */
function only(): { method: string; path: string; query: Record<string, string>; body: unknown; type: string | undefined } {
  expect(fake.requests).toHaveLength(1);
  const r = fake.requests[0];
  if (!r) throw new Error('no request');
  return { method: r.method, path: r.path, query: r.query, body: r.body, type: r.headers['content-type'] };
}

describe('every operation is sent where service-api.md puts it', () => {
  it('push: POST /api/push-execution-count, apiKey in the query, no body and no Content-Type', async () => {
    fake.on('POST', '/api/push-execution-count', {
      status: 200,
      body: { success: true, message: 'Execution count incremented successfully' },
    });
    expect(await client.pushExecution()).toEqual({ ok: true, data: null });
    expect(only()).toEqual({
      method: 'POST',
      path: '/api/push-execution-count',
      query: { apiKey: API_KEY },
      body: undefined,
      type: undefined,
    });
  });

  it('execution count: GET /api/execution-count?apiKey', async () => {
    fake.on('GET', '/api/execution-count', { status: 200, body: { executionCount: 4 } });
    expect(await client.executionCount()).toEqual({ ok: true, data: 4 });
    expect(only()).toEqual({ method: 'GET', path: '/api/execution-count', query: { apiKey: API_KEY }, body: undefined, type: undefined });
  });

  it('generate: a JSON POST body, count a number, booleans unquoted', async () => {
    fake.on('POST', '/api/generate-key/post', {
      status: 201,
      body: { message: 'ok', generatedKeys: [{ value: VALUE, note: 'n', expiresAt: null, isPremium: true }] },
    });
    const r = await client.generate({ expire: '2099-01-31', count: 2, isPremium: true, note: 'n', expiresByDaysKey: true, daysKey: 30 });
    expect(r.ok).toBe(true);
    const sent = only();
    expect(sent).toMatchObject({ method: 'POST', path: '/api/generate-key/post', query: {} });
    expect(sent.type).toMatch(/^application\/json/);
    // toStrictEqual on the parsed body: 2 and true, never "2" or "true"; daysKey is the HTTP spelling.
    expect(sent.body).toStrictEqual({
      apiKey: API_KEY,
      expire: '2099-01-31',
      count: 2,
      isPremium: true,
      note: 'n',
      expiresByDaysKey: true,
      daysKey: 30,
    });
  });

  it('deletes and reset-hwid: a JSON body, nothing in the query', async () => {
    for (const path of ['/api/key/delete', '/api/generated-key/delete', '/api/reset-hwid', '/api/keyless/delete'])
      fake.on('POST', path, { status: 200, body: { message: 'Done' } });
    expect((await client.deleteKey(VALUE, false)).ok).toBe(true);
    expect((await client.deleteKey(VALUE, true)).ok).toBe(true);
    expect((await client.resetHwid(VALUE)).ok).toBe(true);
    expect((await client.deleteKeyless('HW-1')).ok).toBe(true);
    expect(fake.requests.map((r) => [r.method, r.path, r.query, r.body, r.headers['content-type']?.split(';')[0]])).toEqual([
      ['POST', '/api/key/delete', {}, { apiKey: API_KEY, keyValue: VALUE }, 'application/json'],
      ['POST', '/api/generated-key/delete', {}, { apiKey: API_KEY, keyValue: VALUE }, 'application/json'],
      ['POST', '/api/reset-hwid', {}, { apiKey: API_KEY, keyValue: VALUE }, 'application/json'],
      ['POST', '/api/keyless/delete', {}, { apiKey: API_KEY, hwid: 'HW-1' }, 'application/json'],
    ]);
  });

  it('expand-expiration: POST with apiKey, keyValue and days in the query', async () => {
    fake.on('POST', '/api/key/expand-expiration', { status: 200, body: { message: 'Extended', key: real.key() } });
    expect((await client.extend(VALUE, 7)).ok).toBe(true);
    expect(only()).toEqual({
      method: 'POST',
      path: '/api/key/expand-expiration',
      query: { apiKey: API_KEY, keyValue: VALUE, days: '7' },
      body: undefined,
      type: undefined,
    });
  });

  it('key fetches: GET, apiKey and fetch in the query, paging if asked', async () => {
    fake
      .on('GET', '/api/key/fetch', { status: 200, body: { key: real.key() } })
      .on('GET', '/api/generated-key/fetch', { status: 200, body: { generatedKey: real.generatedKey(VALUE) } });
    await client.fetchActive('term one');
    await client.fetchGenerated('term two', 5, 10);
    expect(fake.requests.map((r) => [r.method, r.path, r.query, r.body])).toEqual([
      ['GET', '/api/key/fetch', { apiKey: API_KEY, fetch: 'term one' }, undefined],
      ['GET', '/api/generated-key/fetch', { apiKey: API_KEY, fetch: 'term two', limit: '5', offset: '10' }, undefined],
    ]);
  });

  it('identifier-check: GET with apiKey and identifier in the query', async () => {
    fake.on('GET', '/api/identifier-check', { status: 200, body: { message: 'free', service: null } });
    await client.identifierCheck('my-app');
    expect(only()).toEqual({
      method: 'GET',
      path: '/api/identifier-check',
      query: { apiKey: API_KEY, identifier: 'my-app' },
      body: undefined,
      type: undefined,
    });
  });

  it('validation: GET with key, service and hwid, never the apiKey', async () => {
    fake.on('GET', '/v2_validation', {
      status: 200,
      body: { V2_Authentication: 'invalid_key', Key_Information: { Notes: 'No such key' } },
    });
    await client.validate({ key: VALUE, service: 'my-app', hwid: 'HW-9' });
    expect(only()).toEqual({
      method: 'GET',
      path: '/v2_validation',
      query: { key: VALUE, service: 'my-app', hwid: 'HW-9' },
      body: undefined,
      type: undefined,
    });
  });
});

describe('identifier-check answers (wire.md: {message, service}, service null when free; the rest unknown)', () => {
  it.each<[string, Record<string, unknown>, { exists: boolean; service: string | null }]>([
    ['the real dialect, taken', { message: 'The identifier exists', service: 'Other Co' }, { exists: true, service: 'Other Co' }],
    ['the real dialect, free', { message: 'The identifier does not exist', service: null }, { exists: false, service: null }],
    ['the detail dialect', { success: true, message: 'x', exists: true, service: 'Other Co' }, { exists: true, service: 'Other Co' }],
    [
      'service as an object with a name',
      { message: 'exists', service: { name: 'Other Co', identifier: 'other' } },
      { exists: true, service: 'Other Co' },
    ],
    ['service as an object with no name', { message: 'exists', service: { id: 7 } }, { exists: true, service: null }],
    // Only null (or false) says free: anything else names a service, whatever it holds.
    ['service as an empty name', { message: 'exists', service: '' }, { exists: true, service: null }],
    ['service as true', { message: 'exists', service: true }, { exists: true, service: null }],
    ['service as a number', { message: 'exists', service: 7 }, { exists: true, service: null }],
    ['service as false', { message: 'does not exist', service: false }, { exists: false, service: null }],
  ])('%s', async (_, body, data) => {
    fake.on('GET', '/api/identifier-check', { status: 200, body });
    expect(await client.identifierCheck('other')).toEqual({ ok: true, data });
  });

  it('an answer with neither service nor exists is BAD_RESPONSE, never "free"', async () => {
    fake.on('GET', '/api/identifier-check', { status: 200, body: { message: 'Identifier already exists' } });
    expect(await client.identifierCheck('other')).toMatchObject({ ok: false, code: 'BAD_RESPONSE' });
  });
});

describe('validation answers wrapped in `result` (service-api.md 4.6: "the result is carried in the response property result")', () => {
  const info = {
    NoKey_Requirement: false,
    Hardware_ID: 'HW-9',
    Premium_Mode: true,
    Notes: 'Bound to HW-1',
    expiresAt: '2027-01-31T23:59:59.999Z',
  };

  it('an inner refusal under an outer success:true stays a refusal, no premium', async () => {
    fake.on('GET', '/v2_validation', {
      status: 200,
      body: {
        success: true,
        message: 'Validation done',
        result: { V2_Authentication: 'hwid_mismatch', Authentication: 'hwid_mismatch', Key_Information: info },
      },
    });
    const r = await client.validate({ key: VALUE, service: 'my-app', hwid: 'HW-9' });
    expect(r).toMatchObject({
      ok: true,
      data: { reading: { outcome: 'hwid_mismatch', success: false, premium: false, notes: 'Bound to HW-1' } },
    });
  });

  it('a success inside `result` is read with its Key_Information', async () => {
    fake.on('GET', '/v2_validation', {
      status: 200,
      body: {
        success: true,
        message: 'ok',
        result: { V2_Authentication: 'success', Registered_ServiceID: 'my-app', Key_Information: { ...info, Notes: 'VIP' } },
      },
    });
    const r = await client.validate({ key: VALUE, service: 'my-app', hwid: 'HW-9' });
    expect(r).toMatchObject({
      ok: true,
      data: {
        reading: {
          outcome: 'success',
          success: true,
          premium: true,
          notes: 'VIP',
          registeredServiceId: 'my-app',
          expiresAt: info.expiresAt,
        },
      },
    });
  });
});
