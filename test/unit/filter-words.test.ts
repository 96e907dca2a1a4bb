// A filter in words, as a job's label names its target: every part of the filter is said, none left out.
import { describe, expect, it } from 'vitest';
import { filterWords, jobTargetWords } from '../../src/shared/filter-words.ts';

describe('filter words', () => {
  it('says all keys only for a filter with no part', () => {
    expect(filterWords({})).toBe('all keys');
  });

  it("names a customer's keys, never all keys", () => {
    expect(filterWords({ customerId: 7 })).toBe('keys of one customer');
    expect(filterWords({ customer: ' ann ', status: 'active' })).toBe('active keys of customers matching ann');
  });

  it("names Overview's windows by their days", () => {
    expect(filterWords({ span: { of: 'expiresAt', from: '2026-12-01T10:00:00.000Z', to: '2026-12-08T10:00:00.000Z' } })).toBe(
      'keys expiring Dec 1, 2026 to Dec 8, 2026',
    );
    expect(filterWords({ span: { of: 'activatedAt', from: '2026-11-22T10:00:00.000Z' } })).toBe('keys activated from Nov 22, 2026');
  });

  it('joins text, expiry and customer parts in order', () => {
    expect(filterWords({ text: 'launch', expiresWithin: 30, customerId: 2 })).toBe(
      'keys containing launch, expiring within 30 days, of one customer',
    );
  });

  it('names picked keys by count, and one key by its value', () => {
    expect(jobTargetWords({ action: 'delete', target: { keyValues: ['A', 'B'] } })).toBe('2 keys picked');
    expect(jobTargetWords({ action: 'resetHwid', target: { keyValues: ['KD-1'] } })).toBe('key KD-1');
  });
});
