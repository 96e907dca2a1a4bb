// wire.md "Client tolerance", reads: key and keyless lookups as a single object, absent, a list or a 404
// without a code, an unreadable 200 as such, and validation answers in the Key_Information or flat shape.
import { beforeEach, describe, expect, it } from 'vitest';
import { real } from '../support/fake-service.ts';
import { GEN, realShapedRemote, said, VALUE } from '../support/real-shaped-remote.ts';

const { fake, call, must } = realShapedRemote();

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
