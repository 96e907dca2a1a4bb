// The compact batch keys.generate answers with (src/shared/key-batch.ts): whatever keys go in come back exactly,
// in order, with the fields they share stated once and only the others as columns.
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { decodeFramedAnswer, encodeAnswer } from '../../src/harness/answer-frame.ts';
import type { Key } from '../../src/shared/domain.ts';
import {
  batchBuffers,
  batchValues,
  KeyBatchBuilder,
  keyAt,
  keysOf,
  openBatch,
  toKeyBatch,
  type KeyBatch,
} from '../../src/shared/key-batch.ts';

const key = (value: string, extra: Partial<Key> = {}): Key => ({
  id: `k_${value}`,
  value,
  note: 'spring batch',
  status: 'generated',
  isPremium: true,
  expire: '2099-06-30',
  expiresByDaysKey: false,
  daysKey: null,
  expiresAt: '2099-06-30T23:59:59.999Z',
  hwid: null,
  createdAt: '2026-11-23T06:00:00.000Z',
  activatedAt: null,
  lastResetAt: null,
  serviceId: 'svc_1',
  ...extra,
});

describe('a key batch', () => {
  it('gives back every key, states shared fields once', () => {
    const keys = ['AAAA-1', 'AAAA-2', 'AAAA-3'].map((v) => key(v));
    const batch = toKeyBatch(keys);
    expect(keysOf(batch)).toEqual(keys);
    expect(batch.count).toBe(3);
    expect(batchValues(batch)).toEqual(['AAAA-1', 'AAAA-2', 'AAAA-3']);
    expect(Object.keys(batch.each)).toEqual(['id']);
    expect(batch.same).toMatchObject({ note: 'spring batch', isPremium: true, expire: '2099-06-30', serviceId: 'svc_1', unreported: [] });
    // Crosses IPC as a structured clone, and the harness bridge framed (its columns as bytes): the same keys after either.
    expect(keysOf(structuredClone(batch))).toEqual(keys);
    const framed = encodeAnswer({ generated: batch });
    if (framed.kind !== 'framed') throw new Error('a batch is framed');
    const body = new Uint8Array(framed.length);
    let at = 0;
    for (const chunk of framed.chunks) {
      body.set(chunk, at);
      at += chunk.byteLength;
    }
    expect(keysOf((decodeFramedAnswer(body.buffer) as { generated: KeyBatch }).generated)).toEqual(keys);
  });

  it('transfers its column bytes when crossing threads', async () => {
    const keys = Array.from({ length: 20 }, (_, i) => key(`X-${i}`, { isPremium: i % 3 === 0 }));
    const batch = toKeyBatch(keys);
    expect(batchBuffers(batch)).toHaveLength(3); // values, id, isPremium
    const { port1, port2 } = new MessageChannel();
    try {
      const got = new Promise<KeyBatch>((resolve) => port2.once('message', resolve));
      port1.postMessage(batch, batchBuffers(batch));
      expect(batch.values.byteLength).toBe(0);
      expect(keysOf(await got)).toEqual(keys);
    } finally {
      port1.close();
    }
  });

  it('keeps a field differing from the tenth key on as a column', () => {
    const keys = Array.from({ length: 12 }, (_, i) => key(`V-${i}`, i >= 9 ? { createdAt: '2026-11-23T06:00:01.000Z', note: '' } : {}));
    const batch = toKeyBatch(keys);
    expect(keysOf(batch)).toEqual(keys);
    expect(Object.keys(batch.each).sort()).toEqual(['createdAt', 'id', 'note']);
    expect(keyAt(batch, 8).createdAt).toBe('2026-11-23T06:00:00.000Z');
    expect(keyAt(batch, 9)).toEqual(keys[9]);
  });

  it('keeps what the real dialect left unreported, key by key', () => {
    const terse = key('T-1', { id: '', createdAt: null, unreported: ['id', 'createdAt', 'activatedAt', 'daysKey', 'lastResetAt'] });
    const keys = [terse, key('F-2'), { ...terse, value: 'T-3' }];
    const back = keysOf(toKeyBatch(keys));
    expect(back).toEqual(keys);
    expect('unreported' in (back[1] ?? {})).toBe(false);
  });

  it('is empty for no keys and refuses a key it lacks', () => {
    const batch = toKeyBatch([]);
    expect(batch.count).toBe(0);
    expect(keysOf(batch)).toEqual([]);
    expect(() => keyAt(toKeyBatch([key('ONE')]), 1)).toThrow(RangeError);
  });

  it("built one key at a time, equals the whole list's batch", () => {
    const keys = Array.from({ length: 50 }, (_, i) => key(`B-${i}`, { isPremium: i % 7 === 0 }));
    const builder = new KeyBatchBuilder();
    for (const k of keys) builder.add(k);
    expect(builder.batch()).toEqual(toKeyBatch(keys));
    expect(openBatch(builder.batch()).each.isPremium).toEqual(keys.map((k) => k.isPremium));
  });
});
