// The harness writes an operation's answer (up to 100,000 keys) in pieces rather than one string: the pieces
// must join to exactly what JSON.stringify gives, and each must stay small.
import { describe, expect, it } from 'vitest';
import { jsonChunks } from '../../src/harness/json-chunks.ts';

const keys = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    value: `KEY-${String(i).padStart(6, '0')}`,
    note: i % 7 === 0 ? 'quote " and \\ and é and \u2028' : 'batch',
    hwid: i % 3 === 0 ? null : undefined,
    isPremium: i % 2 === 0,
    daysKey: i % 5 === 0 ? 30 : undefined,
  }));

describe('jsonChunks', () => {
  it('joins to exactly JSON.stringify for an answer holding 100,000 keys, in pieces of about the size asked', () => {
    const answer = { ok: true, data: { generatedKeys: keys(100_000), skipped: undefined, meta: { at: new Date(0), n: 1.5 } } };
    const pieces = [...jsonChunks(answer, 16 * 1024)];
    expect(pieces.join('')).toBe(JSON.stringify(answer));
    expect(pieces.length).toBeGreaterThan(100);
    // A piece ends at the first element that takes it past the size: at most the size plus one key.
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(16 * 1024 + 200);
  });

  it('writes what JSON cannot represent as JSON.stringify does: null inside an array, nothing inside an object', () => {
    const odd = [undefined, () => 1, Symbol('s'), ...Array.from({ length: 300 }, (_, i) => i)];
    const value = { list: odd, f: () => 1, u: undefined, nested: [[...odd], { deep: odd }] };
    expect([...jsonChunks(value, 64)].join('')).toBe(JSON.stringify(value));
  });

  it('gives small values as one JSON.stringify, and nothing at all for undefined', () => {
    for (const v of [null, 0, 'text', [], {}, { a: [1, 2, 3] }, [{ b: null }]]) expect([...jsonChunks(v)]).toEqual([JSON.stringify(v)]);
    expect([...jsonChunks(undefined)]).toEqual([]);
  });
});
