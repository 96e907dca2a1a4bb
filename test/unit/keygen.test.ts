import { describe, expect, it } from 'vitest';
import { generateKeyValues, KEY_ENTROPY_BITS, newApiKey, publicId } from '../../src/sandbox/keygen.ts';

describe('key values', () => {
  it('are five groups of five Crockford base32 characters: URL-safe, 125 bits', () => {
    const values = generateKeyValues(1_000);
    expect(KEY_ENTROPY_BITS).toBeGreaterThanOrEqual(100);
    for (const v of values) {
      expect(v).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){4}$/);
      expect(encodeURIComponent(v)).toBe(v);
    }
  });

  it('are unique across 200,000 draws and use every symbol about equally', () => {
    const values = generateKeyValues(200_000);
    expect(new Set(values).size).toBe(200_000);
    const counts = new Map<string, number>();
    for (const v of values) for (const c of v.replaceAll('-', '')) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(32);
    const expected = (200_000 * 25) / 32;
    for (const n of counts.values()) expect(Math.abs(n - expected) / expected).toBeLessThan(0.02);
  });

  it('makes apiKeys of 256 bits and prefixed public ids', () => {
    expect(newApiKey()).toMatch(/^kd_[A-Za-z0-9_-]{43}$/);
    expect(publicId('svc_')).toMatch(/^svc_[0-9a-z]{12}$/);
  });
});
