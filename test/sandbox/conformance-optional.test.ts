// Conformance: the optional endpoints vendors' tools call (wire.md, "Seen in vendors' code"): key edits,
// keys that work on any machine, and the end user's own HWID reset. A remote target may lack them: skipped there.
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, type TestContext } from 'vitest';
import type { WireKey } from '../../src/shared/wire.ts';
import { qs, send } from '../support/http.ts';
import { createService, startSandbox } from '../support/sandbox-process.ts';
import { tempDir } from '../support/temp-dir.ts';
import { failure, generate, get, postJson, uniqueNote, validate } from './api.ts';
import { call, openTarget, type Target } from './target.ts';

let t: Target;
beforeAll(async () => {
  t = await openTarget();
});
afterAll(async () => {
  await t.close();
});
beforeEach((ctx: TestContext) => {
  if (!t.local) ctx.skip();
});

async function activeKey(params: Record<string, unknown> = {}, hwid = 'HW-FIRST'): Promise<WireKey> {
  const [k] = await generate(t, params);
  if (!k) throw new Error('no key');
  expect((await validate(t, k.value, hwid)).V2_Authentication).toBe('success');
  return k;
}
async function generatedKey(params: Record<string, unknown> = {}): Promise<WireKey> {
  const [k] = await generate(t, params);
  if (!k) throw new Error('no key');
  return k;
}
/** A JSON POST with the apiKey, answered in the real dialect (no Keydesk-Detail header). */
const postReal = (path: string, body: Record<string, unknown>) =>
  call(
    t,
    { method: 'POST', path, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ apiKey: t.apiKey, ...body }) },
    'real',
  );
const publicReset = (params: Record<string, string | undefined>, dialect: 'real' | 'detail' = 'detail') =>
  call(t, { path: `/api/reset-hwid?${qs(params)}` }, dialect);

describe('POST /api/key/edit', () => {
  it('changes only the fields given on an active key', async () => {
    const k = await activeKey({ note: uniqueNote('edit before'), isPremium: false });
    const note = uniqueNote('edit after');
    const res = await postJson(t, '/api/key/edit', { keyValue: k.value, note });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, message: 'Key updated successfully' });
    expect(res.json.key).toMatchObject({
      value: k.value,
      note,
      isPremium: false,
      status: 'active',
      hwid: 'HW-FIRST',
      expiresAt: k.expiresAt,
    });
    const premium = (await postJson(t, '/api/key/edit', { keyValue: k.value, isPremium: 'true' })).json.key as WireKey;
    expect(premium).toMatchObject({ note, isPremium: true, noHwidValidation: false });
    expect((await get(t, '/api/key/fetch', { fetch: k.value })).json.key).toMatchObject({ note, isPremium: true });
  });

  it('clears a note given as an empty string', async () => {
    const k = await activeKey({ note: uniqueNote('to clear') });
    const res = await postJson(t, '/api/key/edit', { keyValue: k.value, note: '' });
    expect(res.status).toBe(200);
    expect((res.json.key as WireKey).note).toBe('');
  });

  it('answers the real dialect with exactly a message and the RealKey', async () => {
    const k = await activeKey();
    const res = await postReal('/api/key/edit', { keyValue: k.value, isPremium: true });
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(['key', 'message']);
    expect(res.json.key).toEqual({
      id: k.id,
      value: k.value,
      note: k.note,
      hwid: 'HW-FIRST',
      expiresAt: k.expiresAt,
      isPremium: true,
      lastResetAt: null,
      serviceId: k.serviceId,
    });
  });

  it('refuses an active key’s term change with 409: extend changes it', async () => {
    const k = await activeKey();
    const res = await postJson(t, '/api/key/edit', { keyValue: k.value, expiresByDaysKey: true, daysKey: 5 });
    expect(res.status).toBe(409);
    expect(failure(res).code).toBe('CONFLICT');
    expect(failure(await postJson(t, '/api/key/edit', { keyValue: k.value, daysKey: 5 })).code).toBe('CONFLICT');
  });

  it('answers 404 for a generated key or an unknown one', async () => {
    const g = await generatedKey();
    const res = await postJson(t, '/api/key/edit', { keyValue: g.value, note: 'x' });
    expect(res.status).toBe(404);
    expect(failure(res).code).toBe('NOT_FOUND');
    expect(failure(await postJson(t, '/api/key/edit', { keyValue: 'NO-SUCH-KEY', note: 'x' })).code).toBe('NOT_FOUND');
  });

  it('answers 400 with no field to change, bad type or over-long note', async () => {
    const k = await activeKey();
    for (const body of [
      { keyValue: k.value },
      { keyValue: k.value, isPremium: 'yes' },
      { keyValue: k.value, note: 'n'.repeat(1_001) },
      { note: 'x' },
    ]) {
      const res = await postJson(t, '/api/key/edit', body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(failure(res).code).toBe('INVALID_INPUT');
    }
  });

  it('needs the apiKey: 401 without one', async () => {
    const res = await postJson(t, '/api/key/edit', { keyValue: 'K', note: 'x' }, false);
    expect(res.status).toBe(401);
    expect(failure(res).code).toBe('API_KEY_MISSING');
  });
});

describe('POST /api/generated-key/edit', () => {
  it('changes a generated key’s note and premium flag', async () => {
    const g = await generatedKey({ isPremium: false });
    const note = uniqueNote('gen edited');
    const res = await postJson(t, '/api/generated-key/edit', { keyValue: g.value, note, isPremium: true });
    expect(res.status).toBe(200);
    expect(res.json.key).toMatchObject({ value: g.value, note, isPremium: true, status: 'generated', expiresAt: g.expiresAt });
  });

  it('makes a fixed-date key a days key, then lengthens its days', async () => {
    const g = await generatedKey();
    const days = (await postJson(t, '/api/generated-key/edit', { keyValue: g.value, expiresByDaysKey: true, daysKey: 30 })).json.key;
    expect(days).toMatchObject({ expiresByDaysKey: true, daysKey: 30, expiresAt: null, expire: null });
    const longer = (await postJson(t, '/api/generated-key/edit', { keyValue: g.value, daysKey: 45 })).json.key;
    expect(longer).toMatchObject({ expiresByDaysKey: true, daysKey: 45, expiresAt: null });
    const v = await validate(t, g.value, 'HW-DAYS');
    expect(Date.parse(v.Key_Information.expiresAt ?? '') - Date.now()).toBeGreaterThan(44 * 86_400_000);
  });

  it('follows generate’s rules for the term: daysKey required, in range', async () => {
    const g = await generatedKey();
    for (const body of [
      { keyValue: g.value, expiresByDaysKey: true },
      { keyValue: g.value, expiresByDaysKey: true, daysKey: 0 },
      { keyValue: g.value, expiresByDaysKey: true, daysKey: '5' },
    ]) {
      expect(failure(await postJson(t, '/api/generated-key/edit', body)).code, JSON.stringify(body)).toBe('INVALID_INPUT');
    }
  });

  it('refuses what edit cannot do to a term with 409', async () => {
    const fixed = await generatedKey();
    expect(failure(await postJson(t, '/api/generated-key/edit', { keyValue: fixed.value, daysKey: 5 })).code).toBe('CONFLICT');
    const days = await generatedKey({ expiresByDaysKey: true, daysKey: 5 });
    expect(failure(await postJson(t, '/api/generated-key/edit', { keyValue: days.value, expiresByDaysKey: false })).code).toBe('CONFLICT');
  });

  it('answers the real dialect with a message and the generated key', async () => {
    const g = await generatedKey();
    const res = await postReal('/api/generated-key/edit', { keyValue: g.value, note: 'real' });
    expect(res.json).toEqual({
      message: 'Key updated successfully',
      generatedKey: { id: g.id, value: g.value, note: 'real', expiresAt: g.expiresAt, isPremium: g.isPremium },
    });
  });

  it('answers 404 for an active key', async () => {
    const k = await activeKey();
    expect(failure(await postJson(t, '/api/generated-key/edit', { keyValue: k.value, note: 'x' })).code).toBe('NOT_FOUND');
  });
});

describe('noHwidValidation: a key that works on any machine', () => {
  it('is a generate parameter the detail key carries, not the real answer', async () => {
    const [k] = await generate(t, { noHwidValidation: true });
    expect(k?.noHwidValidation).toBe(true);
    const real = await call(
      t,
      {
        path: `/api/generate-key/get?${qs({ apiKey: t.apiKey, expire: '2099-01-01', count: 1, isPremium: false, noHwidValidation: true })}`,
      },
      'real',
    );
    expect(Object.keys((real.json.generatedKeys as object[])[0] ?? {}).sort()).toEqual(['expiresAt', 'isPremium', 'note', 'value']);
  });

  it('validates from any HWID, echoing each, and is never bound', async () => {
    const [k] = await generate(t, { noHwidValidation: true, isPremium: true });
    const value = k?.value ?? '';
    for (const hwid of ['MACHINE-A', 'MACHINE-B', 'MACHINE-A']) {
      const v = await validate(t, value, hwid);
      expect(v.V2_Authentication).toBe('success');
      expect(v.Key_Information).toMatchObject({ Hardware_ID: hwid, Premium_Mode: true });
    }
    expect((await get(t, '/api/key/fetch', { fetch: value })).json.key).toMatchObject({
      status: 'active',
      hwid: null,
      noHwidValidation: true,
    });
  });

  it('edit sets it, unbinding the key, and clears it, letting it bind', async () => {
    const k = await activeKey({}, 'BOUND-HW');
    expect((await validate(t, k.value, 'OTHER-HW')).V2_Authentication).toBe('hwid_mismatch');
    const on = (await postJson(t, '/api/key/edit', { keyValue: k.value, noHwidValidation: true })).json.key;
    expect(on).toMatchObject({ noHwidValidation: true, hwid: null });
    expect((await validate(t, k.value, 'OTHER-HW')).V2_Authentication).toBe('success');
    const off = (await postJson(t, '/api/key/edit', { keyValue: k.value, noHwidValidation: false })).json.key;
    expect(off).toMatchObject({ noHwidValidation: false, hwid: null });
    expect((await validate(t, k.value, 'THIRD-HW')).V2_Authentication).toBe('success');
    expect((await validate(t, k.value, 'OTHER-HW')).V2_Authentication).toBe('hwid_mismatch');
  });
});

describe('GET /api/reset-hwid (the end user’s reset, no apiKey)', () => {
  it('clears the HWID so the next validation rebinds; real dialect answers {message}', async () => {
    const k = await activeKey({}, 'HW-OLD');
    const res = await publicReset({ service: t.service, key: k.value }, 'real');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ message: 'HWID reset successfully' });
    expect((await validate(t, k.value, 'HW-NEW')).V2_Authentication).toBe('success');
    const fetched = (await get(t, '/api/key/fetch', { fetch: k.value })).json.key as WireKey;
    expect(fetched.hwid).toBe('HW-NEW');
    expect(Date.parse(fetched.lastResetAt ?? '')).toBeGreaterThan(Date.now() - 60_000);
  });

  it('answers {success, message} in the detail dialect, without the key', async () => {
    const k = await activeKey();
    expect((await publicReset({ service: t.service.toUpperCase(), key: k.value })).json).toEqual({
      success: true,
      message: 'HWID reset successfully',
    });
  });

  it('answers 404 for an unknown service or key, 409 for generated keys', async () => {
    const k = await activeKey();
    const unknownService = await publicReset({ service: 'no-such-service-zz9', key: k.value });
    expect(unknownService.status).toBe(404);
    expect(failure(unknownService).code).toBe('NOT_FOUND');
    expect(failure(await publicReset({ service: t.service, key: 'NO-SUCH-KEY' })).code).toBe('NOT_FOUND');
    const g = await generatedKey();
    const generated = await publicReset({ service: t.service, key: g.value });
    expect(generated.status).toBe(409);
    expect(failure(generated).code).toBe('CONFLICT');
  });

  it('never reveals a key under another service: same 404 as unknown keys', async () => {
    const db = join(tempDir(), 'two-services.db');
    const mine = createService(db, 'Mine', 'mine');
    createService(db, 'Theirs', 'theirs');
    const sandbox = await startSandbox({ db });
    try {
      const gen = await send(sandbox.url, {
        path: `/api/generate-key/get?${qs({ apiKey: mine.apiKey, expire: '2099-01-01', count: 1, isPremium: false })}`,
      });
      const value = (gen.json.generatedKeys as { value: string }[])[0]?.value ?? '';
      await send(sandbox.url, { path: `/v2_validation?${qs({ key: value, service: 'mine', hwid: 'H' })}` });
      const elsewhere = await send(sandbox.url, { path: `/api/reset-hwid?${qs({ service: 'theirs', key: value })}` });
      const nobody = await send(sandbox.url, { path: `/api/reset-hwid?${qs({ service: 'theirs', key: 'NO-SUCH-KEY-AT-ALL' })}` });
      expect(elsewhere.status).toBe(404);
      expect(elsewhere.json).toEqual(nobody.json);
      expect((await send(sandbox.url, { path: `/api/reset-hwid?${qs({ service: 'mine', key: value })}` })).status).toBe(200);
    } finally {
      await sandbox.stop();
    }
  });

  it('answers 400 when service or key is missing or over-long', async () => {
    for (const params of [{ service: t.service }, { key: 'K' }, { service: t.service, key: 'k'.repeat(257) }]) {
      const res = await publicReset(params);
      expect(res.status, JSON.stringify(params).slice(0, 40)).toBe(400);
      expect(failure(res).code).toBe('INVALID_INPUT');
    }
  });

  it('keeps the apiKey’d POST form unchanged, and lists both methods for another', async () => {
    const k = await activeKey();
    expect((await postJson(t, '/api/reset-hwid', { keyValue: k.value })).json.key).toMatchObject({ hwid: null });
    const del = await call(t, { method: 'DELETE', path: '/api/reset-hwid' });
    expect(del.status).toBe(405);
    expect(del.headers.allow).toBe('POST, GET');
  });
});

describe('--real-only', () => {
  it('offers the optional endpoints, in the real dialect', async () => {
    const db = join(tempDir(), 'real-only-optional.db');
    const { apiKey, identifier } = createService(db, 'Real Only Optional');
    const sandbox = await startSandbox({ db, args: ['--real-only'] });
    try {
      const detail = { 'Keydesk-Detail': 'full', 'Content-Type': 'application/json' };
      const gen = await send(sandbox.url, {
        path: `/api/generate-key/get?${qs({ apiKey, expire: '2099-01-01', count: 2, isPremium: false })}`,
      });
      const [a, b] = (gen.json.generatedKeys as { value: string }[]).map((k) => k.value);
      const editGen = await send(sandbox.url, {
        method: 'POST',
        path: '/api/generated-key/edit',
        headers: detail,
        body: JSON.stringify({ apiKey, keyValue: a, note: 'n' }),
      });
      expect(Object.keys(editGen.json).sort()).toEqual(['generatedKey', 'message']);
      await send(sandbox.url, { path: `/v2_validation?${qs({ key: b, service: identifier, hwid: 'H' })}` });
      const edit = await send(sandbox.url, {
        method: 'POST',
        path: '/api/key/edit',
        headers: detail,
        body: JSON.stringify({ apiKey, keyValue: b, note: 'n' }),
      });
      expect(Object.keys(edit.json).sort()).toEqual(['key', 'message']);
      const reset = await send(sandbox.url, { path: `/api/reset-hwid?${qs({ service: identifier, key: b })}`, headers: detail });
      expect(reset.json).toEqual({ message: 'HWID reset successfully' });
    } finally {
      await sandbox.stop();
    }
  });
});
