// wire.md "Client tolerance", dialects: every operation on the real dialect's exact bodies, the detail dialect
// asked for on every request, and a base URL ending in /api taken as the same service.
import { describe, expect, it } from 'vitest';
import { keyAt, keysOf } from '../../src/shared/key-batch.ts';
import { real } from '../support/fake-service.ts';
import { API_KEY, GEN, realShapedRemote, VALUE } from '../support/real-shaped-remote.ts';

const { fake, call, must } = realShapedRemote();

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
    // The add's own check reads the count once; the capability checks that follow adds never double /api.
    const paths = fake.requests.map((q) => q.path);
    expect(paths.filter((p) => p.endsWith('/execution-count'))).toEqual([`${prefix}/api/execution-count`]);
    expect(paths.filter((p) => p.includes('/api/api'))).toEqual([]);
    await must('profiles.remove', { id: added.id });
  });

  it('profiles.update normalises the same way', async () => {
    fake.on('GET', '/api/execution-count', { status: 200, body: { executionCount: 3 } });
    const added = await must('profiles.add', { name: 'To update', baseUrl: fake.url, apiKey: API_KEY });
    const updated = await must('profiles.update', { id: added.id, baseUrl: `${fake.url}/api/` });
    expect(updated.baseUrl).toBe(fake.url);
    const paths = fake.requests.map((q) => q.path);
    expect(paths.filter((p) => p.endsWith('/execution-count'))).toEqual(['/api/execution-count', '/api/execution-count']);
    expect(paths.filter((p) => p.includes('/api/api'))).toEqual([]);
    await must('profiles.remove', { id: added.id });
  });
});
