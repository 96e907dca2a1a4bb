// Conformance: execution count and key management endpoints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utcDate } from '../../src/shared/rules.ts';
import type { WireKey } from '../../src/shared/wire.ts';
import { DAY, failure, futureDate, generate, get, KEY_VALUE, postJson, postQuery, uniqueNote, validate } from './api.ts';
import { openTarget, type Target } from './target.ts';

let t: Target;
beforeAll(async () => {
  t = await openTarget();
});
afterAll(async () => {
  await t.close();
});

const KEY_FIELDS = [
  'id',
  'value',
  'note',
  'status',
  'isPremium',
  'expire',
  'expiresByDaysKey',
  'daysKey',
  'expiresAt',
  'hwid',
  'createdAt',
  'activatedAt',
  'lastResetAt',
  'serviceId',
  'noHwidValidation',
].sort();

describe('execution count', () => {
  it('push adds exactly one and returns the new total', async () => {
    const before = (await get(t, '/api/execution-count')).json.executionCount as number;
    const push = await postQuery(t, '/api/push-execution-count');
    expect(push.status).toBe(200);
    expect(push.json).toEqual({ success: true, message: 'Execution count incremented successfully', executionCount: before + 1 });
    const read = await get(t, '/api/execution-count');
    expect(read.json.success).toBe(true);
    expect(read.json.executionCount).toBe(before + 1);
  });
});

describe('generate', () => {
  it('GET form: 201 with the requested number of fixed-date keys', async () => {
    const note = uniqueNote('GET form');
    const expire = futureDate(30);
    const res = await get(t, '/api/generate-key/get', { expire, count: 3, isPremium: 'true', note });
    expect(res.status).toBe(201);
    expect(res.json.success).toBe(true);
    const keys = res.json.generatedKeys as WireKey[];
    expect(keys).toHaveLength(3);
    for (const k of keys) {
      expect(Object.keys(k).sort()).toEqual(KEY_FIELDS);
      expect(k.value).toMatch(KEY_VALUE);
      expect(k).toMatchObject({
        note,
        status: 'generated',
        isPremium: true,
        expire,
        expiresByDaysKey: false,
        daysKey: null,
        expiresAt: `${expire}T23:59:59.999Z`,
        hwid: null,
        activatedAt: null,
        lastResetAt: null,
      });
      expect(k.id).toMatch(/^k_/);
      expect(k.serviceId).toMatch(/^svc_/);
      expect(Date.parse(k.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    }
    expect(new Set(keys.map((k) => k.value)).size).toBe(3);
  });

  it('POST form with days-based expiry: expiresAt and expire stay null until activation', async () => {
    const [k] = await generate(t, { expiresByDaysKey: true, daysKey: 30, isPremium: false });
    expect(k).toMatchObject({ expiresByDaysKey: true, daysKey: 30, expiresAt: null, expire: null, isPremium: false });
  });

  it("accepts the official JS client's daysKeys and string booleans", async () => {
    const [k] = await generate(t, { expiresByDaysKey: 'true', daysKeys: 7, isPremium: 'false' });
    expect(k).toMatchObject({ expiresByDaysKey: true, daysKey: 7 });
    const both = await postJson(t, '/api/generate-key/post', {
      expire: futureDate(),
      count: 1,
      isPremium: false,
      expiresByDaysKey: true,
      daysKey: 7,
      daysKeys: 8,
    });
    expect(both.status).toBe(400);
  });

  it('a days key accepts a past expire date', async () => {
    const [k] = await generate(t, { expire: '2020-01-01', expiresByDaysKey: true, daysKey: 1 });
    expect(k?.expiresAt).toBeNull();
    const badFormat = await postJson(t, '/api/generate-key/post', {
      expire: '2020-1-1',
      count: 1,
      isPremium: false,
      expiresByDaysKey: true,
      daysKey: 1,
    });
    expect(badFormat.status).toBe(400);
  });

  it('accepts today as a fixed expiry and rejects yesterday', async () => {
    const today = utcDate(Date.now());
    const [k] = await generate(t, { expire: today });
    expect(k?.expire).toBe(today);
    const res = await postJson(t, '/api/generate-key/post', { expire: utcDate(Date.now() - DAY), count: 1, isPremium: false });
    expect(res.status).toBe(400);
    expect(failure(res).message).toMatch(/before today/);
  });

  it.each([
    ['an impossible date', { expire: '2027-02-29' }],
    ['a malformed date', { expire: '31/01/2027' }],
    ['a missing expire', { expire: undefined }],
    ['count 0', { count: 0 }],
    ['count over 100,000', { count: 100_001 }],
    ['a missing count', { count: undefined }],
    ['a missing isPremium', { isPremium: undefined }],
    ['daysKey 0', { expiresByDaysKey: true, daysKey: 0 }],
    ['daysKey over 999,999', { expiresByDaysKey: true, daysKey: 1_000_000 }],
    ['expiresByDaysKey without daysKey', { expiresByDaysKey: true }],
    ['a note over 1,000 characters', { note: 'n'.repeat(1_001) }],
    ['a note that is not a string', { note: 42 }],
  ])('rejects %s with 400 INVALID_INPUT and changes nothing', async (_label, override) => {
    const note = uniqueNote('rejected');
    const res = await postJson(t, '/api/generate-key/post', { expire: futureDate(), count: 1, isPremium: false, note, ...override });
    expect(res.status).toBe(400);
    const { code, message } = failure(res);
    expect(code).toBe('INVALID_INPUT');
    expect(message.length).toBeGreaterThan(10);
    expect((await get(t, '/api/generated-key/fetch', { fetch: note })).status).toBe(404);
  });

  it('accepts a note of exactly 1,000 characters', async () => {
    const note = `${uniqueNote('max')} `.padEnd(1_000, 'n');
    const [k] = await generate(t, { note });
    expect(k?.note).toBe(note);
  });
});

describe('delete', () => {
  it('key/delete removes a generated key; a second delete is 404', async () => {
    const [k] = await generate(t);
    const res = await postJson(t, '/api/key/delete', { keyValue: k?.value });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, deletedKey: k?.value });
    expect(failure(await postJson(t, '/api/key/delete', { keyValue: k?.value })).code).toBe('NOT_FOUND');
    expect((await get(t, '/api/generated-key/fetch', { fetch: k?.value })).status).toBe(404);
  });

  it('key/delete removes an active key too', async () => {
    const [k] = await generate(t);
    await validate(t, k?.value ?? '', 'HWID-DEL-1');
    const res = await postJson(t, '/api/key/delete', { keyValue: k?.value });
    expect(res.json.deletedKey).toBe(k?.value);
    expect((await get(t, '/api/key/fetch', { fetch: k?.value })).status).toBe(404);
  });

  it('generated-key/delete removes a generated key but answers 404 for an active one', async () => {
    const [gen, act] = await generate(t, { count: 2 });
    expect((await postJson(t, '/api/generated-key/delete', { keyValue: gen?.value })).json.deletedKey).toBe(gen?.value);
    await validate(t, act?.value ?? '', 'HWID-GDEL');
    const res = await postJson(t, '/api/generated-key/delete', { keyValue: act?.value });
    expect(res.status).toBe(404);
    expect((await get(t, '/api/key/fetch', { fetch: act?.value })).status).toBe(200);
  });

  it('requires keyValue and limits it to 256 characters', async () => {
    expect((await postJson(t, '/api/key/delete', {})).status).toBe(400);
    expect((await postJson(t, '/api/key/delete', { keyValue: 'k'.repeat(257) })).status).toBe(400);
  });
});

describe('ids', () => {
  it('are never reused after the newest key is deleted', async () => {
    const [k] = await generate(t);
    expect((await postJson(t, '/api/key/delete', { keyValue: k?.value })).status).toBe(200);
    const [next] = await generate(t);
    expect(next?.id).not.toBe(k?.id);
    const [again] = await generate(t);
    expect(new Set([k?.id, next?.id, again?.id]).size).toBe(3);
  });

  it('of keyless entries are never reused either (sandbox only)', async (ctx) => {
    if (!t.local) ctx.skip();
    const hwid = `IDS-${uniqueNote('').trim().replaceAll(' ', '')}`;
    const first = (await postJson(t, '/api/keyless/add', { hwid })).json.keyless as { id: string };
    expect((await postJson(t, '/api/keyless/delete', { hwid })).status).toBe(200);
    const second = (await postJson(t, '/api/keyless/add', { hwid })).json.keyless as { id: string };
    expect(second.id).not.toBe(first.id);
  });
});

describe('expand expiration', () => {
  it("moves a fixed key's expiry by the days given", async () => {
    const expire = futureDate(10);
    const [k] = await generate(t, { expire });
    const res = await postQuery(t, '/api/key/expand-expiration', { keyValue: k?.value, days: 5 });
    expect(res.status).toBe(200);
    const key = res.json.key as WireKey;
    expect(key.expiresAt).toBe(new Date(Date.parse(`${expire}T23:59:59.999Z`) + 5 * DAY).toISOString());
    expect(key.expire).toBe(utcDate(Date.parse(`${expire}T23:59:59.999Z`) + 5 * DAY));
  });

  it('accepts the JSON body form', async () => {
    const [k] = await generate(t);
    const res = await postJson(t, '/api/key/expand-expiration', { keyValue: k?.value, days: 1 });
    expect(res.status).toBe(200);
  });

  it('lengthens an unactivated days key by adding to daysKey', async () => {
    const [k] = await generate(t, { expiresByDaysKey: true, daysKey: 10 });
    const key = (await postQuery(t, '/api/key/expand-expiration', { keyValue: k?.value, days: 5 })).json.key as WireKey;
    expect(key).toMatchObject({ daysKey: 15, expiresAt: null });
  });

  it('moves an activated days key expiry', async () => {
    const [k] = await generate(t, { expiresByDaysKey: true, daysKey: 10 });
    const v = await validate(t, k?.value ?? '', 'HWID-EXT');
    const before = Date.parse(v.Key_Information.expiresAt ?? '');
    const key = (await postQuery(t, '/api/key/expand-expiration', { keyValue: k?.value, days: 3 })).json.key as WireKey;
    expect(Date.parse(key.expiresAt ?? '')).toBe(before + 3 * DAY);
    expect(key.daysKey).toBe(10);
  });

  it('rejects days out of 1..999,999, results past 9999-12-31 or daysKey past 999,999', async () => {
    const [k] = await generate(t, { expire: '9999-12-01' });
    for (const days of [0, 1_000_000]) {
      expect((await postQuery(t, '/api/key/expand-expiration', { keyValue: k?.value, days })).status).toBe(400);
    }
    const past = await postQuery(t, '/api/key/expand-expiration', { keyValue: k?.value, days: 31 });
    expect(past.status).toBe(400);
    expect(failure(past).message).toMatch(/9999-12-31/);
    const [d] = await generate(t, { expiresByDaysKey: true, daysKey: 999_990 });
    expect((await postQuery(t, '/api/key/expand-expiration', { keyValue: d?.value, days: 10 })).status).toBe(400);
    expect((await postQuery(t, '/api/key/expand-expiration', { keyValue: d?.value, days: 9 })).json.key).toMatchObject({
      daysKey: 999_999,
    });
  });

  it('answers 404 for an unknown key', async () => {
    expect(failure(await postQuery(t, '/api/key/expand-expiration', { keyValue: 'NO-SUCH', days: 1 })).code).toBe('NOT_FOUND');
  });
});

describe('fetch active keys', () => {
  it('finds active keys by note, ignoring case, newest first, paged', async () => {
    const note = uniqueNote('Paging Batch');
    const keys = await generate(t, { count: 5, note });
    for (const [i, k] of keys.entries()) await validate(t, k.value, `HWID-PAGE-${i}`);
    const term = note.slice(2, 14).toUpperCase();
    const all = await get(t, '/api/key/fetch', { fetch: term });
    expect(all.status).toBe(200);
    expect(all.json.total).toBe(5);
    const values = (all.json.keys as WireKey[]).map((k) => k.value);
    expect(values).toEqual(keys.map((k) => k.value).reverse());
    expect((all.json.key as WireKey).value).toBe(values[0]);
    const page = await get(t, '/api/key/fetch', { fetch: term, limit: 2, offset: 2 });
    expect((page.json.keys as WireKey[]).map((k) => k.value)).toEqual(values.slice(2, 4));
    expect((page.json.key as WireKey).value).toBe(values[0]);
    const past = await get(t, '/api/key/fetch', { fetch: term, offset: 50 });
    expect(past.status).toBe(200);
    expect(past.json).toMatchObject({ keys: [], total: 5 });
  });

  it('finds by exact value and exact HWID, exact value first', async () => {
    const note = uniqueNote('exact');
    const [a, b] = await generate(t, { count: 2, note });
    await validate(t, a?.value ?? '', 'HWID-EXACT-A');
    await validate(t, b?.value ?? '', 'HWID-EXACT-B');
    expect((await get(t, '/api/key/fetch', { fetch: a?.value })).json.keys).toHaveLength(1);
    expect(((await get(t, '/api/key/fetch', { fetch: 'HWID-EXACT-B' })).json.key as WireKey).value).toBe(b?.value);
    expect((await get(t, '/api/key/fetch', { fetch: a?.value.slice(0, 11) })).status).toBe(404);
    expect((await get(t, '/api/key/fetch', { fetch: 'HWID-EXACT' })).status).toBe(404);
  });

  it('does not list generated keys, and answers 404 when nothing matches', async () => {
    const note = uniqueNote('only generated');
    await generate(t, { note });
    const res = await get(t, '/api/key/fetch', { fetch: note });
    expect(res.status).toBe(404);
    expect(failure(res).code).toBe('NOT_FOUND');
  });

  it('rejects limit and offset out of range', async () => {
    for (const p of [{ limit: 0 }, { limit: 1_001 }, { offset: 1_000_001 }, { limit: 'ten' }]) {
      expect((await get(t, '/api/key/fetch', { fetch: 'x', ...p })).status, JSON.stringify(p)).toBe(400);
    }
  });

  it('requires the fetch term', async () => {
    expect((await get(t, '/api/key/fetch')).status).toBe(400);
  });
});

describe('fetch generated keys', () => {
  it('finds generated keys by note and value, never active ones', async () => {
    const note = uniqueNote('Generated Lookup');
    const [a, b] = await generate(t, { count: 2, note });
    await validate(t, b?.value ?? '', 'HWID-GEN-LOOKUP');
    const byNote = await get(t, '/api/generated-key/fetch', { fetch: note.toLowerCase() });
    expect(byNote.json).toMatchObject({ success: true, total: 1 });
    expect((byNote.json.generatedKey as WireKey).value).toBe(a?.value);
    expect((byNote.json.generatedKeys as WireKey[]).map((k) => k.value)).toEqual([a?.value]);
    expect(((await get(t, '/api/generated-key/fetch', { fetch: a?.value })).json.generatedKey as WireKey).value).toBe(a?.value);
    expect((await get(t, '/api/generated-key/fetch', { fetch: b?.value })).status).toBe(404);
  });

  it('matches notes with quotes or LIKE wildcards literally', async () => {
    const note = `${uniqueNote('Odd')} 100% "quoted"_x`;
    const [k] = await generate(t, { note });
    for (const term of ['100% "quoted"_x', '"q', '%', '_x']) {
      const res = await get(t, '/api/generated-key/fetch', { fetch: term });
      expect(res.status, term).toBe(200);
      expect(
        (res.json.generatedKeys as WireKey[]).some((g) => g.value === k?.value),
        term,
      ).toBe(true);
    }
    const wildcard = await get(t, '/api/generated-key/fetch', { fetch: `${note.slice(0, 5)}%Odd` });
    expect(wildcard.status).toBe(404);
  });
});

describe('reset HWID', () => {
  it("clears an active key's HWID so the next validation binds anew", async () => {
    const [k] = await generate(t);
    await validate(t, k?.value ?? '', 'HWID-OLD');
    const res = await postJson(t, '/api/reset-hwid', { keyValue: k?.value });
    expect(res.status).toBe(200);
    const key = res.json.key as WireKey;
    expect(key).toMatchObject({ status: 'active', hwid: null });
    expect(Date.parse(key.lastResetAt ?? '')).toBeGreaterThan(Date.now() - 60_000);
    expect((await validate(t, k?.value ?? '', 'HWID-NEW')).V2_Authentication).toBe('success');
    expect((await validate(t, k?.value ?? '', 'HWID-OLD')).V2_Authentication).toBe('hwid_mismatch');
  });

  it('answers 409 for a generated key and 404 for an unknown one', async () => {
    const [k] = await generate(t);
    expect(failure(await postJson(t, '/api/reset-hwid', { keyValue: k?.value })).code).toBe('CONFLICT');
    expect(failure(await postJson(t, '/api/reset-hwid', { keyValue: 'NO-SUCH-KEY' })).code).toBe('NOT_FOUND');
  });
});
