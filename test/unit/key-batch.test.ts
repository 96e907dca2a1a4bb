// The compact batch keys.generate answers with (src/shared/key-batch.ts): whatever keys go in come back exactly,
// in order, with the fields they share stated once and only the others as columns.
import { describe, expect, it } from 'vitest';
import type { Key } from '../../src/shared/domain.ts';
import { batchValues, KeyBatchBuilder, keyAt, keysOf, openBatch, toKeyBatch } from '../../src/shared/key-batch.ts';

const key = (value: string, extra: Partial<Key> = {}): Key => ({
  id: `k_${value}`, value, note: 'spring batch', status: 'generated', isPremium: true, expire: '2099-06-30', expiresByDaysKey: false,
  daysKey: null, expiresAt: '2099-06-30T23:59:59.999Z', hwid: null, createdAt: '2026-11-23T06:00:00.000Z', activatedAt: null,
  lastResetAt: null, serviceId: 'svc_1', ...extra,
});

describe('a key batch', () => {
  it('gives back every key of a generated batch, states the shared fields once and only ids and values per key', () => {
    const keys = ['AAAA-1', 'AAAA-2', 'AAAA-3'].map((v) => key(v));
    const batch = toKeyBatch(keys);
    expect(keysOf(batch)).toEqual(keys);
    expect(batch.count).toBe(3);
    expect(batchValues(batch)).toEqual(['AAAA-1', 'AAAA-2', 'AAAA-3']);
    expect(Object.keys(batch.each)).toEqual(['id']);
    expect(batch.same).toMatchObject({ note: 'spring batch', isPremium: true, expire: '2099-06-30', serviceId: 'svc_1', unreported: [] });
    // Crosses IPC and the harness bridge as JSON: the same keys after a round trip.
    expect(keysOf(JSON.parse(JSON.stringify(batch)) as typeof batch)).toEqual(keys);
  });

  it('keeps a field that differs only from the tenth key on as a column, with the earlier keys\' shared value', () => {
    const keys = Array.from({ length: 12 }, (_, i) => key(`V-${i}`, i >= 9 ? { createdAt: '2026-11-23T06:00:01.000Z', note: '' } : {}));
    const batch = toKeyBatch(keys);
    expect(keysOf(batch)).toEqual(keys);
    expect(Object.keys(batch.each).sort()).toEqual(['createdAt', 'id', 'note']);
    expect(keyAt(batch, 8).createdAt).toBe('2026-11-23T06:00:00.000Z');
    expect(keyAt(batch, 9)).toEqual(keys[9]);
  });

  it('keeps what the real dialect left unreported, key by key, and nothing for keys that reported everything', () => {
    const terse = key('T-1', { id: '', createdAt: null, unreported: ['id', 'createdAt', 'activatedAt', 'daysKey', 'lastResetAt'] });
    const keys = [terse, key('F-2'), { ...terse, value: 'T-3' }];
    const back = keysOf(toKeyBatch(keys));
    expect(back).toEqual(keys);
    expect('unreported' in (back[1] ?? {})).toBe(false);
  });

  it('is empty for no keys, and refuses a key it does not have', () => {
    const batch = toKeyBatch([]);
    expect(batch.count).toBe(0);
    expect(keysOf(batch)).toEqual([]);
    expect(() => keyAt(toKeyBatch([key('ONE')]), 1)).toThrow(RangeError);
  });

  it('built one key at a time, equals the batch of the whole list', () => {
    const keys = Array.from({ length: 50 }, (_, i) => key(`B-${i}`, { isPremium: i % 7 === 0 }));
    const builder = new KeyBatchBuilder();
    for (const k of keys) builder.add(k);
    expect(builder.batch()).toEqual(toKeyBatch(keys));
    expect(openBatch(builder.batch()).each.isPremium).toEqual(keys.map((k) => k.isPremium));
  });
});
