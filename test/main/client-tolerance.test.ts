// wire.md "Client tolerance", one test per shape: Keydesk against a remote service that answers the way the
// real service and third-party clients have met it. Every operation runs through the handlers (the path IPC and
// the harness take) on a real core with a remote profile pointed at a fake service on 127.0.0.1, which answers
// in exactly the scripted status, headers and body. Success is judged by what the service did.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/main/client/service-client.ts';
import type { OperationInput } from '../../src/shared/contract.ts';
import type { JobItem } from '../../src/shared/domain.ts';
import type { Result } from '../../src/shared/result.ts';
import { startTestCore, type TestCore } from '../support/core.ts';
import { FakeService, real, type Reply } from '../support/fake-service.ts';
import { keyAt, keysOf } from '../../src/shared/key-batch.ts';

const API_KEY = 'kd_CANARY-5e1f-tolerance-DO-NOT-LEAK';
const VALUE = 'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE';
const GEN = 'GGGGG-HHHHH-IIIII-JJJJJ-KKKKK';
/** Short enough that a timeout test is quick, long enough for a loaded machine to answer a real request. */
const TIMEOUTS = { connectMs: 2_000, headersMs: 1_500, bodyMs: 1_500 };

const fake = new FakeService();
let t: TestCore;

const call: TestCore['call'] = (name, input) => t.call(name, input);
const must: TestCore['must'] = (name, input) => t.must(name, input);
/** What the vendor is told: the message, then the technical detail behind "Details" (the error policy). */
const said = (r: Result<unknown>): string => (r.ok ? '' : `${r.message} | ${r.detail ?? ''}`);
const leaks = (v: unknown): boolean => {
  const text = JSON.stringify(v);
  return [API_KEY, encodeURIComponent(API_KEY), Buffer.from(API_KEY).toString('base64')].some((f) => text.includes(f));
};

beforeAll(async () => {
  await fake.start();
  t = await startTestCore({ clientOptions: { timeouts: TIMEOUTS, retryDelaysMs: [20, 20] } });
  fake.on('GET', '/api/execution-count', { status: 200, body: { executionCount: 7 } });
  const profile = await must('profiles.add', {
    name: 'Real-shaped remote',
    baseUrl: fake.url,
    apiKey: API_KEY,
    serviceIdentifier: 'real-svc',
  });
  await must('profiles.select', { id: profile.id });
});
/** Runs a bulk job to its end and gives its items. */
async function jobItems(input: OperationInput<'jobs.start'>): Promise<JobItem[]> {
  const started = await must('jobs.start', input);
  await t.core.jobs.settled(started.id);
  return (await must('jobs.items', { jobId: started.id, offset: 0, limit: 100 })).items;
}

afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => {
  fake.reset();
});

describe('any non-2xx, non-JSON or HTML body, redirect, timeout or reset is a failure that names what happened, never the apiKey', () => {
  const echo = `apiKey=${API_KEY}`;
  it.each<[string, Reply, string, RegExp]>([
    [
      'a 500 with a JSON reason echoing the apiKey',
      { status: 500, body: { message: `database down for ${echo}` } },
      'HTTP_ERROR',
      /database down for apiKey=\[redacted\] \(HTTP 500\)/,
    ],
    [
      'a 401 without a code',
      { status: 401, body: { error: `Invalid API key ${API_KEY}` } },
      'HTTP_ERROR',
      /Invalid API key \[redacted\] \(HTTP 401\)/,
    ],
    [
      'a 502 HTML page',
      { status: 502, body: `<html><head><title>502 Bad Gateway</title></head><body>${echo}</body></html>` },
      'BAD_RESPONSE',
      /HTTP 502 with an HTML page \("502 Bad Gateway"\)/,
    ],
    ['a 200 that is not JSON', { status: 200, body: 'executionCount=7' }, 'BAD_RESPONSE', /HTTP 200 with a body that is not JSON/],
    [
      'a 200 HTML page (a captive portal)',
      { status: 200, body: '<!doctype html><title>Sign in to Wi-Fi</title>' },
      'BAD_RESPONSE',
      /HTTP 200 with an HTML page \("Sign in to Wi-Fi"\)/,
    ],
    [
      'a redirect',
      { status: 301, headers: { location: `https://elsewhere.example/?${echo}` } },
      'HTTP_ERROR',
      /HTTP 301 \(a redirect\), which Keydesk does not follow/,
    ],
    ['a reset connection', { reset: true }, 'NETWORK', /connection was reset/],
    ['no answer in time', { hang: true }, 'TIMEOUT', /did not answer in time/],
  ])('%s', async (_, reply, code, message) => {
    fake.on('GET', '/api/execution-count', reply);
    const r = await call('executions.get');
    expect(r).toMatchObject({ ok: false, code });
    expect(said(r)).toMatch(message);
    expect(leaks(r), JSON.stringify(r)).toBe(false);
  });
});

describe('push: success is what the service did', () => {
  it('{success, message} with no count is a success; the count is re-read', async () => {
    fake
      .on('POST', '/api/push-execution-count', {
        status: 200,
        body: { success: true, message: 'Execution count incremented successfully' },
      })
      .on('GET', '/api/execution-count', { status: 200, body: { executionCount: 43 } });
    expect(await call('executions.push')).toEqual({ ok: true, data: { executionCount: 43, sampledAt: expect.any(String) as unknown } });
    expect(fake.hits('POST', '/api/push-execution-count')).toBe(1);
  });

  it('a push stays a success when its count cannot be read back', async () => {
    fake
      .on('POST', '/api/push-execution-count', {
        status: 200,
        body: { success: true, message: 'Execution count incremented successfully' },
      })
      .on('GET', '/api/execution-count', { status: 503, body: { message: 'busy' } });
    expect(await call('executions.push')).toEqual({ ok: true, data: { executionCount: null, sampledAt: null } });
  });
});

describe('reset-hwid, delete and keyless delete answered with {message} alone are successes', () => {
  it('reset-hwid {message}: a success, and the key is read back', async () => {
    fake
      .on('POST', '/api/reset-hwid', { status: 200, body: { message: 'HWID reset successfully' } })
      .on('GET', '/api/key/fetch', { status: 200, body: { key: real.key({ hwid: null, lastResetAt: '2026-11-23T00:00:00.000Z' }) } });
    const r = await must('keys.resetHwid', { keyValue: VALUE });
    expect(r.key).toMatchObject({ value: VALUE, status: 'active', hwid: null, lastResetAt: '2026-11-23T00:00:00.000Z' });
    expect(fake.requests.find((q) => q.path === '/api/key/fetch')?.query.fetch).toBe(VALUE);
  });

  it('reset-hwid whose key cannot be read back: a success without a key', async () => {
    fake
      .on('POST', '/api/reset-hwid', { status: 200, body: { message: 'HWID reset successfully' } })
      .on('GET', '/api/key/fetch', { status: 404, body: { message: 'Key not found' } })
      .on('GET', '/api/generated-key/fetch', { status: 404, body: { message: 'Key not found' } });
    expect(await call('keys.resetHwid', { keyValue: VALUE })).toEqual({ ok: true, data: { key: null } });
  });

  it('a bulk HWID reset answered {message} reports every key done', async () => {
    fake.on('POST', '/api/reset-hwid', { status: 200, body: { message: 'HWID reset successfully' } });
    const items = await jobItems({ action: 'resetHwid', target: { keyValues: [VALUE, GEN] } });
    expect(items.map((i) => [i.target, i.state])).toEqual([
      [VALUE, 'done'],
      [GEN, 'done'],
    ]);
  });

  it('key/delete {message}: a success naming the deleted key', async () => {
    fake.on('POST', '/api/key/delete', { status: 200, body: { message: 'Key deleted successfully' } });
    expect(await call('keys.delete', { keyValue: VALUE, state: 'active' })).toEqual({ ok: true, data: { deletedKey: VALUE } });
  });

  it('generated-key/delete {message}: a success', async () => {
    fake.on('POST', '/api/generated-key/delete', { status: 200, body: { message: 'Generated key deleted successfully' } });
    expect(await call('keys.delete', { keyValue: GEN, state: 'generated' })).toEqual({ ok: true, data: { deletedKey: GEN } });
  });

  it('a bulk delete answered {message} reports every key done', async () => {
    fake.on('POST', '/api/key/delete', { status: 200, body: { message: 'Key deleted successfully' } });
    const items = await jobItems({ action: 'delete', target: { keyValues: [VALUE, GEN] } });
    expect(items.map((i) => i.state)).toEqual(['done', 'done']);
  });

  it('keyless/delete {message}: a success', async () => {
    fake.on('POST', '/api/keyless/delete', { status: 200, body: { message: 'Keyless entry deleted' } });
    expect(await call('keyless.delete', { hwid: 'HW-KL' })).toEqual({ ok: true, data: null });
  });
});

describe('extend: {message} with or without the key is a success', () => {
  it('{message, key} without a status: the key is read back', async () => {
    fake
      .on('POST', '/api/key/expand-expiration', {
        status: 200,
        body: { message: 'Expiration extended', key: real.key({ expiresAt: '2027-02-10T23:59:59.999Z' }) },
      })
      .on('GET', '/api/key/fetch', { status: 200, body: { key: real.key({ expiresAt: '2027-02-10T23:59:59.999Z' }) } });
    const r = await must('keys.extend', { keyValue: VALUE, days: 10 });
    expect(r.key).toMatchObject({ value: VALUE, status: 'active', expiresAt: '2027-02-10T23:59:59.999Z', expire: '2027-02-10' });
  });

  it('{message} alone: the key is re-fetched, from generated keys if inactive', async () => {
    fake
      .on('POST', '/api/key/expand-expiration', { status: 200, body: { message: 'Expiration extended' } })
      .on('GET', '/api/key/fetch', { status: 404, body: { error: 'No key found' } })
      .on('GET', '/api/generated-key/fetch', { status: 200, body: { generatedKey: real.generatedKey(GEN) } });
    const r = await must('keys.extend', { keyValue: GEN, days: 10 });
    expect(r.key).toMatchObject({ value: GEN, status: 'generated' });
    expect(fake.hits('POST', '/api/key/expand-expiration')).toBe(1);
  });

  it('{message} alone, no way to read back: a success without a key', async () => {
    fake
      .on('POST', '/api/key/expand-expiration', { status: 200, body: { message: 'Expiration extended' } })
      .on('GET', '/api/key/fetch', { status: 500, body: { message: 'down' } })
      .on('GET', '/api/generated-key/fetch', { status: 500, body: { message: 'down' } });
    expect(await call('keys.extend', { keyValue: VALUE, days: 1 })).toEqual({ ok: true, data: { key: null } });
  });
});

describe('extend answered with a key without its status, and no way to read it back: the ledger is not guessed at', () => {
  // A lookup's keys are queued for the ledger writer, not awaited: read the row once the queue has drained.
  const rowOf = async (value: string) => {
    await t.core.writer.idle();
    return (await must('ledger.query', { filter: { text: value }, sort: { field: 'value', dir: 'asc' }, offset: 0, limit: 10 })).rows.find(
      (r) => r.value === value,
    );
  };
  const down = () =>
    fake
      .on('GET', '/api/key/fetch', { status: 500, body: { message: 'down' } })
      .on('GET', '/api/generated-key/fetch', { status: 500, body: { message: 'down' } });

  it('an HWID-reset active key keeps its status; returned fields are updated', async () => {
    const value = 'RESET-BBBBB-CCCCC-DDDDD-EEEEE';
    fake.on('GET', '/api/key/fetch', { status: 200, body: { key: real.key({ value, hwid: 'HW-1' }) } });
    await must('keys.fetchActive', { term: value });
    expect(await rowOf(value)).toMatchObject({ status: 'active', hwid: 'HW-1' });
    fake.reset();
    fake.on('POST', '/api/key/expand-expiration', {
      status: 200,
      body: { message: 'Expiration extended', key: real.key({ value, hwid: null, expiresAt: '2027-03-02T23:59:59.999Z' }) },
    });
    down();
    await must('keys.extend', { keyValue: value, days: 30 });
    expect(await rowOf(value)).toMatchObject({ status: 'active', hwid: null, expiresAt: '2027-03-02T23:59:59.999Z' });
  });

  it('adds no key new to the ledger with a guessed status', async () => {
    const value = 'NEWKY-BBBBB-CCCCC-DDDDD-EEEEE';
    fake.on('POST', '/api/key/expand-expiration', {
      status: 200,
      body: { message: 'Expiration extended', key: real.key({ value, hwid: null }) },
    });
    down();
    await must('keys.extend', { keyValue: value, days: 30 });
    expect(await rowOf(value)).toBeUndefined();
  });
});

describe('key/fetch and friends: a single object, absent, or (detail dialect only) a list', () => {
  it('a single best match is found, marked as the best match only', async () => {
    fake
      .on('GET', '/api/key/fetch', { status: 200, body: { key: real.key() } })
      .on('GET', '/api/generated-key/fetch', { status: 200, body: { generatedKey: real.generatedKey(GEN, 'real note') } });
    const r = await must('keys.lookup', { term: 'real' });
    expect(r.active.map((k) => [k.value, k.status])).toEqual([[VALUE, 'active']]);
    expect(r.generated.map((k) => [k.value, k.status])).toEqual([[GEN, 'generated']]);
    expect(r.bestMatchOnly).toBe(true);
    expect((await must('keys.fetchActive', { term: 'real' })).total).toBeNull();
  });

  it('the object absent from a 200: nothing found, not a failure', async () => {
    fake
      .on('GET', '/api/key/fetch', { status: 200, body: { message: 'No keys' } })
      .on('GET', '/api/generated-key/fetch', { status: 200, body: { generatedKey: null } })
      .on('GET', '/api/keyless/fetch', { status: 200, body: { message: 'none' } });
    expect(await call('keys.lookup', { term: 'nothing' })).toEqual({ ok: true, data: { active: [], generated: [] } });
    expect(await call('keyless.lookup', { term: 'nothing' })).toEqual({ ok: true, data: { entries: [], total: 0 } });
  });

  it.each<[string, string, Record<string, unknown>]>([
    ['a key object without a value', '/api/key/fetch', { key: { note: 'real note', hwid: 'HW-1' } }],
    ['a key that is not an object', '/api/key/fetch', { key: 'AAAAA' }],
    ['an empty body: no list, no object, no message', '/api/key/fetch', {}],
    ['a list with an item that cannot be read', '/api/key/fetch', { keys: [real.key(), { note: 'no value' }], total: 2 }],
    ['a list field that is not a list', '/api/key/fetch', { keys: 'none', message: 'ok' }],
  ])('an unreadable 200 (%s) is BAD_RESPONSE, never "nothing found"', async (_, path, body) => {
    fake.on('GET', path, { status: 200, body });
    const r = await call('keys.fetchActive', { term: 'real' });
    expect(r).toMatchObject({ ok: false, code: 'BAD_RESPONSE' });
    expect(said(r)).toMatch(/HTTP 200, but the answer lacks the fields Keydesk needs/);
    fake.on('GET', path, { status: 200, body });
    expect(await call('keys.lookup', { term: 'real' })).toMatchObject({ ok: false, code: 'BAD_RESPONSE' });
  });

  it('keyless/fetch with an unreadable entry is BAD_RESPONSE, not an empty list', async () => {
    fake.on('GET', '/api/keyless/fetch', { status: 200, body: { message: 'found', keyless: { isPremium: true } } });
    expect(await call('keyless.lookup', { term: 'HW' })).toMatchObject({ ok: false, code: 'BAD_RESPONSE' });
  });

  it("the detail dialect's list and total are used when present", async () => {
    const two = [real.key(), real.key({ value: 'ZZZZZ-BBBBB-CCCCC-DDDDD-EEEEE', id: 'k_2' })];
    fake.on('GET', '/api/key/fetch', { status: 200, body: { success: true, message: 'ok', key: two[0], keys: two, total: 5 } });
    const r = await must('keys.fetchActive', { term: 'real', limit: 2 });
    expect(r.total).toBe(5);
    expect(r.keys).toHaveLength(2);
  });

  it('keyless/fetch {keyless}: one entry, total unknown, unreported fields named', async () => {
    fake.on('GET', '/api/keyless/fetch', { status: 200, body: { keyless: real.keyless('HW-KL-1') } });
    const r = await must('keyless.lookup', { term: 'HW-KL' });
    expect(r.total).toBeNull();
    expect(r.entries).toEqual([
      {
        id: 'kl_1',
        hwid: 'HW-KL-1',
        isPremium: true,
        expiresAt: null,
        createdAt: null,
        lastUsedAt: null,
        unreported: ['createdAt', 'lastUsedAt'],
      },
    ]);
  });
});

describe('not found: a 404 without a code is "nothing found", and the lookup goes on to generated keys', () => {
  it.each<[string, unknown]>([
    ['{message}', { message: 'Key not found' }],
    ['{error}', { error: 'Key not found' }],
    ['{success: false, message}', { success: false, message: 'Key not found' }],
  ])('key/fetch 404 %s', async (_, body) => {
    fake
      .on('GET', '/api/key/fetch', { status: 404, body })
      .on('GET', '/api/generated-key/fetch', { status: 200, body: { generatedKey: real.generatedKey(GEN) } });
    const r = await must('keys.lookup', { term: GEN });
    expect(r.active).toEqual([]);
    expect(r.generated.map((k) => k.value)).toEqual([GEN]);
    expect(fake.hits('GET', '/api/key/fetch')).toBe(1);
  });

  it('keyless/fetch 404 {error}: no entry matches', async () => {
    fake.on('GET', '/api/keyless/fetch', { status: 404, body: { error: 'Not found' } });
    expect(await call('keyless.lookup', { term: 'HW' })).toEqual({ ok: true, data: { entries: [], total: 0 } });
  });

  it('a 404 HTML page (a wrong address) is not "nothing found"', async () => {
    fake.on('GET', '/api/key/fetch', { status: 404, body: '<html><title>Not Found</title></html>' });
    expect(await call('keys.lookup', { term: 'x' })).toMatchObject({ ok: false, code: 'BAD_RESPONSE' });
  });
});

describe('cooldown: {error: "Cooldown active … N minutes"} with 429, 400 or even 200 is COOLDOWN with the time left', () => {
  it.each([429, 400, 200])('HTTP %i', async (status) => {
    fake.on('POST', '/api/reset-hwid', { status, body: { error: 'Cooldown active. Please wait 42 minutes before resetting again.' } });
    const r = await call('keys.resetHwid', { keyValue: VALUE });
    expect(r).toMatchObject({ ok: false, code: 'COOLDOWN', retryAfterSeconds: 42 * 60 });
    expect(!r.ok && r.message).toMatch(/cooldown\. Try again in 42 minutes\./);
    expect(!r.ok && r.detail).toMatch(`Cooldown active. Please wait 42 minutes before resetting again. (HTTP ${status})`);
    expect(fake.hits('POST', '/api/reset-hwid')).toBe(1);
  });

  it('a 2xx success that mentions a cooldown is a success, not COOLDOWN', async () => {
    fake
      .on('POST', '/api/reset-hwid', {
        status: 200,
        body: { success: true, message: 'HWID reset. A 60-minute cooldown now applies to this key.' },
      })
      .on('GET', '/api/key/fetch', { status: 200, body: { key: real.key({ hwid: null }) } });
    const r = await call('keys.resetHwid', { keyValue: VALUE });
    expect(r).toMatchObject({ ok: true, data: { key: { value: VALUE, status: 'active', hwid: null } } });
  });

  it('a 200 without success:true whose message reports a cooldown is COOLDOWN', async () => {
    fake.on('POST', '/api/reset-hwid', { status: 200, body: { message: 'Cooldown active: 7 minutes left' } });
    expect(await call('keys.resetHwid', { keyValue: VALUE })).toMatchObject({ ok: false, code: 'COOLDOWN', retryAfterSeconds: 7 * 60 });
  });

  it('a Retry-After header, when sent, gives the time left', async () => {
    fake.on('POST', '/api/reset-hwid', {
      status: 429,
      headers: { 'retry-after': '95' },
      body: { success: false, code: 'COOLDOWN', message: 'Cooldown active', error: 'Cooldown active' },
    });
    expect(await call('keys.resetHwid', { keyValue: VALUE })).toMatchObject({ ok: false, code: 'COOLDOWN', retryAfterSeconds: 95 });
  });

  it('a bulk reset fails only the key in cooldown and goes on', async () => {
    fake.on(
      'POST',
      '/api/reset-hwid',
      { status: 200, body: { error: 'Cooldown active: 5 minutes left' } },
      { status: 200, body: { message: 'HWID reset successfully' } },
    );
    // A key the ledger has not seen (the ledger knows GEN as generated by now, and a reset leaves such keys out).
    const items = await jobItems({ action: 'resetHwid', target: { keyValues: [VALUE, 'LLLLL-MMMMM-NNNNN-OOOOO-PPPPP'] } });
    expect(items.map((i) => i.state)).toEqual(['failed', 'done']);
    expect(items[0]).toMatchObject({ code: 'COOLDOWN' });
    expect(items[0]?.message).toMatch(/cooldown\. Try again in 5 minutes\./);
  });
});

describe('validation: Key_Information or flat shape; any outcome but success is a refusal shown with its words', () => {
  const run = () =>
    call('validation.run', { mode: 'key', keyValue: VALUE, service: 'real-svc', hwid: { custom: 'HW-9' }, confirmActivation: true });
  const realBody = (outcome: string, info: Record<string, unknown>) => ({
    OwnerSecretID: 'own_1',
    Registered_ServiceID: 'real-svc',
    Authentication: outcome,
    V2_Authentication: outcome,
    Key_Information: { NoKey_Requirement: false, Hardware_ID: 'HW-9', Premium_Mode: false, Notes: '', expiresAt: null, ...info },
  });
  beforeEach(() => {
    fake.on('GET', '/api/key/fetch', { status: 200, body: { key: real.key({ hwid: 'HW-9' }) } });
  });

  it("the real dialect's Key_Information shape, success", async () => {
    fake.on('GET', '/v2_validation', {
      status: 200,
      body: realBody('success', { Premium_Mode: true, Notes: 'VIP', expiresAt: '2027-01-31T23:59:59.999Z' }),
    });
    const r = await run();
    expect(r).toMatchObject({
      ok: true,
      data: {
        outcome: 'success',
        success: true,
        premium: true,
        notes: 'VIP',
        hwid: 'HW-9',
        expiresAt: '2027-01-31T23:59:59.999Z',
        registeredServiceId: 'real-svc',
      },
    });
    expect(fake.requests.find((q) => q.path === '/v2_validation')?.query).toEqual({ key: VALUE, service: 'real-svc', hwid: 'HW-9' });
  });

  it('the flat shape (key_value, is_premium, expires_on)', async () => {
    fake.on('GET', '/v2_validation', {
      status: 200,
      body: { V2_Authentication: 'success', key_value: VALUE, is_premium: true, expires_on: '2027-03-01T00:00:00.000Z', Notes: 'flat' },
    });
    expect(await run()).toMatchObject({
      ok: true,
      data: { outcome: 'success', success: true, premium: true, expiresAt: '2027-03-01T00:00:00.000Z', notes: 'flat' },
    });
  });

  it('hwid_mismatch with success:false is a refusal with its words and Notes', async () => {
    fake.on('GET', '/v2_validation', {
      status: 200,
      body: { success: false, message: 'Key is bound to another machine', ...realBody('hwid_mismatch', { Notes: 'Bound to HW-1' }) },
    });
    expect(await run()).toMatchObject({
      ok: true,
      data: { outcome: 'hwid_mismatch', reportedOutcome: 'hwid_mismatch', success: false, notes: 'Bound to HW-1' },
    });
  });

  it('a flat refusal with no outcome word keeps its words, guessing none', async () => {
    const body = { success: false, message: 'Invalid key for this service' };
    fake.on('GET', '/v2_validation', { status: 200, body });
    expect(await run()).toMatchObject({
      ok: true,
      data: {
        success: false,
        reportedOutcome: null,
        message: 'Invalid key for this service',
        premium: false,
        raw: JSON.stringify(body, null, 2),
      },
    });
  });

  it('a validation 200 {success: false} with no words is a failed call', async () => {
    fake.on('GET', '/v2_validation', { status: 200, body: { success: false } });
    expect(await run()).toMatchObject({ ok: false });
  });

  it('an unknown outcome word is a refusal that keeps it, never premium', async () => {
    fake.on('GET', '/v2_validation', { status: 200, body: realBody('banned', { Premium_Mode: true, Notes: 'Banned for abuse' }) });
    expect(await run()).toMatchObject({
      ok: true,
      data: { success: false, reportedOutcome: 'banned', premium: false, notes: 'Banned for abuse' },
    });
  });
});

describe('generate: a 201 whose body cannot be read means the keys were probably created', () => {
  it.each<[string, Reply]>([
    ['an HTML body', { status: 201, body: '<html><body>Created</body></html>' }],
    ['cut-off JSON', { status: 201, body: '{"message":"Keys generated","generatedKeys":[{"value":"AB' }],
    ['JSON without the keys', { status: 201, body: { message: 'Keys generated' } }],
  ])('%s', async (_, reply) => {
    fake.on('POST', '/api/generate-key/post', reply);
    const r = await call('keys.generate', { expire: '2099-01-31', count: 3, isPremium: false });
    expect(r).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN' });
    expect(!r.ok && r.message).toBe(
      'The service accepted the request but its answer could not be read: the keys were probably created: look them up before generating again.',
    );
    expect(!r.ok && r.detail).toMatch(
      /^POST http:\/\/127\.0\.0\.1:\d+\/api\/generate-key\/post: HTTP 201 with an answer Keydesk could not read\.$/,
    );
    expect(fake.hits('POST', '/api/generate-key/post')).toBe(1);
  });
});

describe('429 with an HTML body still honours Retry-After', () => {
  it('the result carries the wait, and a read waits that long', async () => {
    fake.on(
      'GET',
      '/api/execution-count',
      { status: 429, headers: { 'retry-after': '1', 'content-type': 'text/html' }, body: '<html><title>Too Many Requests</title></html>' },
      { status: 200, body: { executionCount: 9 } },
    );
    const started = performance.now();
    expect(await call('executions.get')).toMatchObject({ ok: true, data: { executionCount: 9 } });
    // A lower bound only: the client waited at least the second it was told to.
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    fake.on('POST', '/api/push-execution-count', {
      status: 429,
      headers: { 'retry-after': '120' },
      body: '<html><title>Too Many Requests</title></html>',
    });
    const r = await call('executions.push');
    expect(r).toMatchObject({ ok: false, code: 'RATE_LIMITED', retryAfterSeconds: 120 });
    expect(said(r)).toMatch(/Try again in 2 minutes\..*too many requests \(HTTP 429 with an HTML page \("Too Many Requests"\)/);
  });
});

describe('mutating calls are sent once, never retried; a timeout on one is an unknown outcome', () => {
  const mutations: [string, 'GET' | 'POST', string, () => Promise<Result<unknown>>][] = [
    ['generate', 'POST', '/api/generate-key/post', () => call('keys.generate', { expire: '2099-01-31', count: 1, isPremium: false })],
    ['delete', 'POST', '/api/key/delete', () => call('keys.delete', { keyValue: VALUE })],
    ['extend', 'POST', '/api/key/expand-expiration', () => call('keys.extend', { keyValue: VALUE, days: 3 })],
    ['reset', 'POST', '/api/reset-hwid', () => call('keys.resetHwid', { keyValue: VALUE })],
    ['push', 'POST', '/api/push-execution-count', () => call('executions.push')],
    ['keyless add', 'POST', '/api/keyless/add', () => call('keyless.add', { hwid: 'HW-NEW' })],
    ['keyless delete', 'POST', '/api/keyless/delete', () => call('keyless.delete', { hwid: 'HW-OLD' })],
  ];
  it.each(mutations)('%s under 503 reaches the service once', async (_, method, path, run) => {
    fake.on(method, path, { status: 503, body: { message: 'busy' } });
    expect(await run()).toMatchObject({ ok: false });
    expect(fake.hits(method, path)).toBe(1);
  });
  it.each(mutations)('%s that times out: "outcome unknown: check before retrying", sent once', async (_, method, path, run) => {
    fake.on(method, path, { hang: true });
    const r = await run();
    expect(r).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN' });
    expect(said(r)).toMatch(/Check before retrying\..*outcome unknown: check before retrying/);
    expect(fake.hits(method, path)).toBe(1);
  });
});

describe('reads are retried with backoff', () => {
  it('a 503 then an answer: the read succeeds on the second try', async () => {
    fake.on('GET', '/api/key/fetch', { status: 503, body: { message: 'busy' } }, { status: 200, body: { key: real.key() } });
    expect((await must('keys.fetchActive', { term: VALUE })).keys.map((k) => k.value)).toEqual([VALUE]);
    expect(fake.hits('GET', '/api/key/fetch')).toBe(2);
  });
  it('a reset connection, then an answer', async () => {
    fake.on(
      'GET',
      '/api/identifier-check',
      { reset: true },
      { status: 200, body: { message: 'Identifier is taken', service: 'Other Co' } },
    );
    expect(await call('identifier.check', { identifier: 'other' })).toEqual({ ok: true, data: { exists: true, service: 'Other Co' } });
    expect(fake.hits('GET', '/api/identifier-check')).toBe(2);
  });
});

describe('every operation on the real dialect\'s exact bodies (wire.md "Real dialect")', () => {
  it('execution count {executionCount}', async () => {
    fake.on('GET', '/api/execution-count', { status: 200, body: { executionCount: 12 } });
    expect(await call('executions.get')).toMatchObject({ ok: true, data: { executionCount: 12 } });
  });

  it('push {success, message}', async () => {
    fake
      .on('POST', '/api/push-execution-count', {
        status: 200,
        body: { success: true, message: 'Execution count incremented successfully' },
      })
      .on('GET', '/api/execution-count', { status: 200, body: { executionCount: 13 } });
    expect(await call('executions.push')).toEqual({ ok: true, data: { executionCount: 13, sampledAt: expect.any(String) as unknown } });
  });

  it('generate {message, generatedKeys}: generated keys, creation time not reported', async () => {
    fake.on('POST', '/api/generate-key/post', {
      status: 201,
      body: {
        message: 'Keys generated',
        generatedKeys: [{ value: GEN, note: 'batch', expiresAt: '2099-01-31T23:59:59.999Z', isPremium: true }],
      },
    });
    const r = await must('keys.generate', { expire: '2099-01-31', count: 1, isPremium: true, note: 'batch' });
    expect(keysOf(r.generated)).toEqual([
      expect.objectContaining({ value: GEN, status: 'generated', isPremium: true, expire: '2099-01-31', createdAt: null }),
    ]);
    expect(keyAt(r.generated, 0).unreported).toEqual(['id', 'createdAt', 'activatedAt', 'daysKey', 'lastResetAt']);
  });

  it('key/fetch {key: RealKey} and generated-key/fetch {generatedKey}', async () => {
    fake
      .on('GET', '/api/key/fetch', { status: 200, body: { key: real.key() } })
      .on('GET', '/api/generated-key/fetch', { status: 200, body: { generatedKey: real.generatedKey(GEN) } });
    const r = await must('keys.lookup', { term: 'real' });
    expect(r.active[0]).toMatchObject({
      id: 'k_1',
      value: VALUE,
      status: 'active',
      hwid: 'HW-1',
      createdAt: null,
      unreported: ['createdAt', 'activatedAt', 'daysKey'],
    });
    expect(r.generated[0]).toMatchObject({ value: GEN, status: 'generated' });
  });

  it('delete, generated delete, reset-hwid and keyless delete {message}', async () => {
    for (const path of ['/api/key/delete', '/api/generated-key/delete', '/api/reset-hwid', '/api/keyless/delete'])
      fake.on('POST', path, { status: 200, body: { message: 'Done' } });
    fake.on('GET', '/api/key/fetch', { status: 200, body: { key: real.key({ hwid: null }) } });
    expect((await call('keys.delete', { keyValue: VALUE })).ok).toBe(true);
    expect((await call('keys.delete', { keyValue: GEN, state: 'generated' })).ok).toBe(true);
    expect((await call('keys.resetHwid', { keyValue: VALUE })).ok).toBe(true);
    expect((await call('keyless.delete', { hwid: 'HW-KL' })).ok).toBe(true);
  });

  it('expand-expiration {message, key: RealKey}', async () => {
    fake
      .on('POST', '/api/key/expand-expiration', {
        status: 200,
        body: { message: 'Extended', key: real.key({ expiresAt: '2027-03-02T23:59:59.999Z' }) },
      })
      .on('GET', '/api/key/fetch', { status: 200, body: { key: real.key({ expiresAt: '2027-03-02T23:59:59.999Z' }) } });
    expect(await must('keys.extend', { keyValue: VALUE, days: 30 })).toMatchObject({
      key: { status: 'active', expiresAt: '2027-03-02T23:59:59.999Z' },
    });
  });

  it('identifier-check {message, service}: null is free, a name is taken', async () => {
    fake.on('GET', '/api/identifier-check', (q) => ({
      status: 200,
      body: { message: 'checked', service: q.query.identifier === 'taken' ? 'Taken Co' : null },
    }));
    expect(await call('identifier.check', { identifier: 'free' })).toEqual({ ok: true, data: { exists: false, service: null } });
    expect(await call('identifier.check', { identifier: 'taken' })).toEqual({ ok: true, data: { exists: true, service: 'Taken Co' } });
  });

  it('keyless/add {message, keyless}, and a service without it says so', async () => {
    fake.on('POST', '/api/keyless/add', { status: 201, body: { message: 'Added', keyless: real.keyless('HW-ADD') } });
    expect(await must('keyless.add', { hwid: 'HW-ADD', isPremium: true })).toMatchObject({
      entry: { hwid: 'HW-ADD', isPremium: true, expiresAt: null },
    });
    fake.on('POST', '/api/keyless/add', { status: 404, body: { message: 'Cannot POST /api/keyless/add' } });
    expect(await call('keyless.add', { hwid: 'HW-ADD' })).toMatchObject({ ok: false, code: 'UNSUPPORTED' });
  });

  it('validation {OwnerSecretID, Registered_ServiceID, Authentication, V2_Authentication, Key_Information}', async () => {
    fake.on('GET', '/v2_validation', {
      status: 200,
      body: {
        OwnerSecretID: 'own_1',
        Registered_ServiceID: 'real-svc',
        Authentication: 'expired',
        V2_Authentication: 'expired',
        Key_Information: {
          NoKey_Requirement: false,
          Hardware_ID: 'HW-9',
          Premium_Mode: false,
          Notes: 'Expired on 2025-01-01',
          expiresAt: '2025-01-01T23:59:59.999Z',
        },
      },
    });
    expect(await call('validation.run', { mode: 'key', keyValue: VALUE, hwid: { custom: 'HW-9' }, confirmActivation: true })).toMatchObject(
      {
        ok: true,
        data: { outcome: 'expired', success: false, notes: 'Expired on 2025-01-01' },
      },
    );
  });
});

describe('the client on its own', () => {
  it('sends the apiKey only where the spec puts it, never in messages', async () => {
    fake.on('POST', '/api/key/delete', { status: 400, body: { message: `bad request ${API_KEY}` } });
    const client = new ServiceClient(
      { baseUrl: fake.url, validationUrl: `${fake.url}/v2_validation`, apiKey: API_KEY },
      { timeouts: TIMEOUTS },
    );
    const r = await client.deleteKey(VALUE, false);
    expect(r).toEqual({ ok: false, code: 'HTTP_ERROR', message: 'bad request [redacted] (HTTP 400)' });
    expect(fake.requests[0]?.body).toEqual({ apiKey: API_KEY, keyValue: VALUE });
  });
});

describe('Keydesk asks for the detail dialect, and copes when a remote service ignores it', () => {
  it('every request carries Keydesk-Detail: full', async () => {
    fake
      .on('GET', '/api/execution-count', { status: 200, body: { executionCount: 1 } })
      .on('POST', '/api/key/delete', { status: 200, body: { message: 'Deleted' } })
      .on('GET', '/v2_validation', { status: 200, body: { V2_Authentication: 'invalid_key', Key_Information: { Notes: 'No such key' } } });
    await must('executions.get');
    await must('keys.delete', { keyValue: VALUE });
    await must('validation.run', { mode: 'key', keyValue: VALUE, hwid: { custom: 'HW' }, confirmActivation: true });
    expect(fake.requests.map((q) => [q.path, q.headers['keydesk-detail']])).toEqual([
      ['/api/execution-count', 'full'],
      ['/api/key/delete', 'full'],
      ['/v2_validation', 'full'],
    ]);
  });
});

describe("a base URL with a trailing /api (the official client's own base) is the same service", () => {
  it.each([
    ['/api', ''],
    ['/api/', ''],
    ['/API', ''],
    ['/', ''],
    ['/tenant-7/api', '/tenant-7'],
    ['/api?x=1#top', ''],
  ])('%s is saved as the origin%s, and calls reach /api/... once', async (suffix, prefix) => {
    fake.on('GET', `${prefix}/api/execution-count`, { status: 200, body: { executionCount: 3 } });
    const added = await must('profiles.add', { name: `Suffix ${suffix}`, baseUrl: `${fake.url}${suffix}`, apiKey: API_KEY });
    expect(added.baseUrl).toBe(`${fake.url}${prefix}`);
    expect(added.validationUrl).toBe(`${fake.url}/v2_validation`);
    expect(fake.requests.map((q) => q.path)).toEqual([`${prefix}/api/execution-count`]);
    await must('profiles.remove', { id: added.id });
  });

  it('profiles.update normalises the same way', async () => {
    fake.on('GET', '/api/execution-count', { status: 200, body: { executionCount: 3 } });
    const added = await must('profiles.add', { name: 'To update', baseUrl: fake.url, apiKey: API_KEY });
    const updated = await must('profiles.update', { id: added.id, baseUrl: `${fake.url}/api/` });
    expect(updated.baseUrl).toBe(fake.url);
    expect(fake.requests.map((q) => q.path)).toEqual(['/api/execution-count', '/api/execution-count']);
    await must('profiles.remove', { id: added.id });
  });
});
