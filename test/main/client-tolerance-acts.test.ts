// wire.md "Client tolerance", acts: what the service did decides success, whether it answers {message} alone, a
// key without its status, a cooldown in any status, or a 201 generate answer that cannot be read.
import { describe, expect, it } from 'vitest';
import { real, type Reply } from '../support/fake-service.ts';
import { GEN, realShapedRemote, VALUE } from '../support/real-shaped-remote.ts';

const t = realShapedRemote();
const { fake, call, must, jobItems } = t;

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
