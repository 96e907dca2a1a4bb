// Conformance: identifier check, keyless entries and /v2_validation.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ValidationBody, WireKey, WireKeylessEntry } from '../../src/shared/wire.ts';
import { DAY, failure, generate, get, postJson, uniqueNote, validate } from './api.ts';
import { call, openTarget, type Target } from './target.ts';

let t: Target;
beforeAll(async () => {
  t = await openTarget();
});
afterAll(async () => {
  await t.close();
});

const hwid = (label: string): string => `HW-${label}-${uniqueNote('').trim().replaceAll(' ', '')}`;

describe('identifier check', () => {
  it('reports an existing identifier, ignoring case, with its service name', async () => {
    for (const identifier of [t.service, t.service.toUpperCase()]) {
      const res = await get(t, '/api/identifier-check', { identifier });
      expect(res.status).toBe(200);
      expect(res.json.success).toBe(true);
      expect(res.json.exists).toBe(true);
      expect(typeof res.json.service).toBe('string');
    }
  });

  it('reports an unknown identifier as not existing, with service null', async () => {
    const res = await get(t, '/api/identifier-check', { identifier: 'no-such-service-zz9' });
    expect(res.json).toMatchObject({ success: true, exists: false, service: null });
  });

  it('rejects a missing or malformed identifier with 400', async () => {
    expect((await get(t, '/api/identifier-check')).status).toBe(400);
    expect((await get(t, '/api/identifier-check', { identifier: 'has space' })).status).toBe(400);
    expect((await get(t, '/api/identifier-check', { identifier: 'x'.repeat(65) })).status).toBe(400);
  });
});

describe('keyless entries (add is sandbox only)', () => {
  it('adds, finds, validates and deletes a keyless entry', async (ctx) => {
    if (!t.local) ctx.skip();
    const h = hwid('KL');
    const add = await postJson(t, '/api/keyless/add', { hwid: h, isPremium: true, days: 10 });
    expect(add.status).toBe(201);
    const entry = add.json.keyless as WireKeylessEntry;
    expect(Object.keys(entry).sort()).toEqual(['createdAt', 'expiresAt', 'hwid', 'id', 'isPremium', 'lastUsedAt']);
    expect(entry).toMatchObject({ hwid: h, isPremium: true, lastUsedAt: null });
    expect(Date.parse(entry.expiresAt ?? '') - Date.parse(entry.createdAt)).toBe(10 * DAY);

    const found = await get(t, '/api/keyless/fetch', { fetch: h.slice(3, 12) });
    expect(found.json).toMatchObject({ success: true, total: 1 });
    expect((found.json.keyless as WireKeylessEntry).hwid).toBe(h);
    expect((await get(t, '/api/keyless/fetch', { fetch: h.slice(3, 12).toLowerCase() })).status).toBe(404);

    const v = await validate(t, 'keyless', h);
    expect(v).toMatchObject({ success: true, V2_Authentication: 'success', Authentication: 'success' });
    expect(v.Key_Information).toMatchObject({ NoKey_Requirement: true, Hardware_ID: h, Premium_Mode: true });
    const after = (await get(t, '/api/keyless/fetch', { fetch: h })).json.keyless as WireKeylessEntry;
    expect(after.lastUsedAt).not.toBeNull();

    const del = await postJson(t, '/api/keyless/delete', { hwid: h });
    expect(del.json).toMatchObject({ success: true });
    expect((await postJson(t, '/api/keyless/delete', { hwid: h })).status).toBe(404);
    expect((await validate(t, 'keyless', h)).V2_Authentication).toBe('not_whitelisted');
  });

  it('answers 409 for a listed HWID and 400 for bad days', async (ctx) => {
    if (!t.local) ctx.skip();
    const h = hwid('DUP');
    expect((await postJson(t, '/api/keyless/add', { hwid: h })).status).toBe(201);
    expect(failure(await postJson(t, '/api/keyless/add', { hwid: h, isPremium: true })).code).toBe('CONFLICT');
    expect((await postJson(t, '/api/keyless/add', { hwid: hwid('D0'), days: 0 })).status).toBe(400);
    expect((await postJson(t, '/api/keyless/add', { hwid: 'h'.repeat(257) })).status).toBe(400);
  });

  it('an entry without days never expires', async (ctx) => {
    if (!t.local) ctx.skip();
    const entry = (await postJson(t, '/api/keyless/add', { hwid: hwid('FOREVER') })).json.keyless as WireKeylessEntry;
    expect(entry).toMatchObject({ expiresAt: null, isPremium: false });
  });

  it('pages keyless lookups with the exact HWID first', async (ctx) => {
    if (!t.local) ctx.skip();
    const base = hwid('PAGE');
    for (const suffix of ['', '-a', '-b']) await postJson(t, '/api/keyless/add', { hwid: base + suffix });
    const res = await get(t, '/api/keyless/fetch', { fetch: base, limit: 2 });
    expect(res.json.total).toBe(3);
    expect((res.json.keylessEntries as WireKeylessEntry[]).map((e) => e.hwid)).toEqual([base, `${base}-b`]);
    expect((await get(t, '/api/keyless/fetch', { fetch: base, offset: 2 })).json.keylessEntries).toHaveLength(1);
  });

  it('keyless delete answers 404 for a HWID not listed', async () => {
    expect(failure(await postJson(t, '/api/keyless/delete', { hwid: 'NEVER-LISTED-HWID' })).code).toBe('NOT_FOUND');
  });
});

describe('/v2_validation', () => {
  const shape = (v: ValidationBody): void => {
    expect(Object.keys(v).sort()).toEqual(
      ['Authentication', 'Key_Information', 'OwnerSecretID', 'Registered_ServiceID', 'V2_Authentication', 'message', 'success'].sort(),
    );
    expect(Object.keys(v.Key_Information).sort()).toEqual(
      ['Hardware_ID', 'NoKey_Requirement', 'Notes', 'Premium_Mode', 'expiresAt'].sort(),
    );
    expect(v.Authentication).toBe(v.V2_Authentication);
    expect(v.success).toBe(v.V2_Authentication === 'success');
    expect(v).not.toHaveProperty('code');
  };

  it('activates a generated key on first validation and binds it', async () => {
    const note = uniqueNote('Activation');
    const [k] = await generate(t, { note, isPremium: true });
    const h = hwid('ACT');
    const v = await validate(t, k?.value ?? '', h);
    shape(v);
    expect(v).toMatchObject({ success: true, V2_Authentication: 'success', Registered_ServiceID: t.service });
    expect(v.Key_Information).toMatchObject({
      NoKey_Requirement: false,
      Hardware_ID: h,
      Premium_Mode: true,
      Notes: note,
      expiresAt: k?.expiresAt,
    });
    const active = (await get(t, '/api/key/fetch', { fetch: h })).json.key as WireKey;
    expect(active).toMatchObject({ value: k?.value, status: 'active', hwid: h });
    expect(Date.parse(active.activatedAt ?? '')).toBeGreaterThan(Date.now() - 60_000);
    expect((await get(t, '/api/generated-key/fetch', { fetch: k?.value })).status).toBe(404);
  });

  it('validates again with the same HWID and refuses another with hwid_mismatch', async () => {
    const [k] = await generate(t);
    const h = hwid('SAME');
    await validate(t, k?.value ?? '', h);
    expect((await validate(t, k?.value ?? '', h)).V2_Authentication).toBe('success');
    const other = await validate(t, k?.value ?? '', `${h}-OTHER`);
    shape(other);
    expect(other).toMatchObject({ success: false, V2_Authentication: 'hwid_mismatch' });
    expect(other.Key_Information.Hardware_ID).toBe(`${h}-OTHER`);
    expect(other.Key_Information.Notes).toMatch(/another/i);
  });

  it('starts a days key at activation: expiresAt = activation + daysKey days', async () => {
    const [k] = await generate(t, { expiresByDaysKey: true, daysKey: 30 });
    const before = Date.now();
    const v = await validate(t, k?.value ?? '', hwid('DAYS'));
    const expiresAt = Date.parse(v.Key_Information.expiresAt ?? '');
    expect(expiresAt).toBeGreaterThanOrEqual(before + 30 * DAY - 1_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 30 * DAY + 1_000);
    const key = (await get(t, '/api/key/fetch', { fetch: k?.value })).json.key as WireKey;
    expect(key.expire).toBe(new Date(expiresAt).toISOString().slice(0, 10));
  });

  it('matches the service identifier without regard to case; unknown service is invalid_service', async () => {
    const [k] = await generate(t);
    const res = await get(t, '/v2_validation', { key: k?.value, service: t.service.toUpperCase(), hwid: hwid('CASE') }, false);
    expect((res.json as unknown as ValidationBody).V2_Authentication).toBe('success');
    const bad = (await get(t, '/v2_validation', { key: k?.value, service: 'no-such-service', hwid: 'H' }, false))
      .json as unknown as ValidationBody;
    shape(bad);
    expect(bad).toMatchObject({ V2_Authentication: 'invalid_service', Registered_ServiceID: null, success: false });
    expect(bad.Key_Information).toMatchObject({ Premium_Mode: false, expiresAt: null, NoKey_Requirement: false, Hardware_ID: 'H' });
  });

  it('reports an unknown key as invalid_key with 200', async () => {
    const res = await get(t, '/v2_validation', { key: 'AAAAA-BBBBB', service: t.service, hwid: 'H' }, false);
    expect(res.status).toBe(200);
    const v = res.json as unknown as ValidationBody;
    shape(v);
    expect(v).toMatchObject({ V2_Authentication: 'invalid_key', Registered_ServiceID: t.service });
  });

  it('reports a keyless HWID that is not listed as not_whitelisted', async () => {
    const v = await validate(t, 'keyless', hwid('NOPE'));
    shape(v);
    expect(v.V2_Authentication).toBe('not_whitelisted');
  });

  it('answers 400 INVALID_INPUT for a missing or over-long key, service or hwid', async () => {
    for (const p of [
      { service: t.service, hwid: 'H' },
      { key: 'K', hwid: 'H' },
      { key: 'K', service: t.service },
      { key: 'K'.repeat(257), service: t.service, hwid: 'H' },
      { key: 'K', service: t.service, hwid: 'H'.repeat(257) },
    ]) {
      const res = await get(t, '/v2_validation', p, false);
      expect(res.status, JSON.stringify(p)).toBe(400);
      expect(failure(res).code).toBe('INVALID_INPUT');
    }
  });

  it('dryRun=true gives the same answer and changes nothing (sandbox only)', async (ctx) => {
    if (!t.local) ctx.skip();
    const [k] = await generate(t, { expiresByDaysKey: true, daysKey: 5 });
    const h = hwid('DRY');
    const dry = await validate(t, k?.value ?? '', h, { dryRun: true });
    expect(dry.V2_Authentication).toBe('success');
    expect(dry.Key_Information.expiresAt).not.toBeNull();
    const still = (await get(t, '/api/generated-key/fetch', { fetch: k?.value })).json.generatedKey as WireKey;
    expect(still).toMatchObject({ status: 'generated', hwid: null, expiresAt: null, activatedAt: null });
    const real = await validate(t, k?.value ?? '', h);
    expect(real.V2_Authentication).toBe('success');
    expect((await validate(t, k?.value ?? '', `${h}-2`, { dryRun: 'true' })).V2_Authentication).toBe('hwid_mismatch');
  });

  it('answers POST with parameters in the query string alone', async () => {
    const [k] = await generate(t, { isPremium: true });
    const h = hwid('POSTQ');
    const res = await call(t, {
      method: 'POST',
      path: `/v2_validation?${new URLSearchParams({ key: k?.value ?? '', service: t.service, hwid: h }).toString()}`,
    });
    expect(res.status).toBe(200);
    const v = res.json as unknown as ValidationBody;
    expect(v.V2_Authentication).toBe('success');
    expect(v.Key_Information).toMatchObject({ Hardware_ID: h, Premium_Mode: true, NoKey_Requirement: false });
    // The same key from another machine, by POST: bound already, so hwid_mismatch, and nothing is granted.
    const other = await call(t, {
      method: 'POST',
      path: `/v2_validation?${new URLSearchParams({ key: k?.value ?? '', service: t.service, hwid: `${h}-2` }).toString()}`,
    });
    expect((other.json as unknown as ValidationBody).V2_Authentication).toBe('hwid_mismatch');
    expect((other.json as unknown as ValidationBody).Key_Information).toMatchObject({ Premium_Mode: false, NoKey_Requirement: false });
  });

  it('answers POST with the parameters in a JSON body', async () => {
    const [k] = await generate(t);
    const h = hwid('POSTJ');
    const res = await call(t, {
      method: 'POST',
      path: '/v2_validation',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ key: k?.value, service: t.service, hwid: h }),
    });
    expect(res.status).toBe(200);
    expect((res.json as unknown as ValidationBody).V2_Authentication).toBe('success');
  });

  it('grants nothing on any outcome but success: Premium_Mode and NoKey_Requirement are false', async () => {
    const [premium] = await generate(t, { isPremium: true, expire: new Date(Date.now() + DAY).toISOString().slice(0, 10) });
    const h = hwid('GRANT');
    expect((await validate(t, premium?.value ?? '', h)).Key_Information.Premium_Mode).toBe(true);
    const outcomes = [
      await validate(t, premium?.value ?? '', `${h}-other`), // hwid_mismatch
      await validate(t, 'NO-SUCH-KEY', h), // invalid_key
      await validate(t, 'keyless', h), // not_whitelisted
      (await get(t, '/v2_validation', { key: premium?.value, service: 'no-such-service-zz9', hwid: h }, false))
        .json as unknown as ValidationBody,
    ];
    expect(outcomes.map((v) => v.V2_Authentication)).toEqual(['hwid_mismatch', 'invalid_key', 'not_whitelisted', 'invalid_service']);
    for (const v of outcomes)
      expect(v.Key_Information, v.V2_Authentication).toMatchObject({ Premium_Mode: false, NoKey_Requirement: false });
  });

  it('gives a stable, opaque OwnerSecretID unrelated to the apiKey', async () => {
    const [a] = await generate(t);
    const [b] = await generate(t);
    const one = await validate(t, a?.value ?? '', hwid('OWNER'));
    const two = await validate(t, b?.value ?? '', hwid('OWNER'));
    const miss = await validate(t, 'NO-SUCH-KEY', 'H');
    expect(typeof one.OwnerSecretID).toBe('string');
    expect(one.OwnerSecretID?.length).toBeGreaterThanOrEqual(16);
    expect(two.OwnerSecretID).toBe(one.OwnerSecretID);
    expect(miss.OwnerSecretID).toBe(one.OwnerSecretID);
    const secret = one.OwnerSecretID ?? '';
    const digest = createHash('sha256').update(t.apiKey).digest();
    for (const leak of [t.apiKey, t.apiKey.slice(3), digest.toString('hex'), digest.toString('base64'), digest.toString('base64url')]) {
      expect(secret).not.toContain(leak);
      expect(leak).not.toContain(secret);
    }
  });

  it('has no apiKey requirement: a request without one is answered', async () => {
    const res = await call(t, { path: `/v2_validation?key=K&service=${t.service}&hwid=H` });
    expect(res.status).toBe(200);
  });
});
