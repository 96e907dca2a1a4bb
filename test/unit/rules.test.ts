import { describe, expect, it } from 'vitest';
import {
  charLength,
  endOfUtcDay,
  fixedExpiryProblem,
  isCalendarDate,
  isIdentifier,
  isIntInRange,
  keyValueList,
  LIMITS,
  schemas,
  slugIdentifier,
} from '../../src/shared/rules.ts';

describe('calendar dates', () => {
  it.each(['2024-02-29', '2027-01-31', '0001-01-01', '9999-12-31', '2000-02-29'])('accepts the real date %s', (d) => {
    expect(isCalendarDate(d)).toBe(true);
  });
  it.each([
    '2023-02-29',
    '1900-02-29',
    '2027-04-31',
    '2027-13-01',
    '2027-00-10',
    '0000-01-01',
    '2027-1-1',
    '27-01-01',
    ' 2027-01-01',
    '2027-01-01T00:00',
  ])('rejects %s', (d) => {
    expect(isCalendarDate(d)).toBe(false);
  });
  it('ends a day at its last UTC millisecond, before year 100 too', () => {
    expect(new Date(endOfUtcDay('2027-01-31')).toISOString()).toBe('2027-01-31T23:59:59.999Z');
    expect(new Date(endOfUtcDay('0050-06-01')).toISOString()).toBe('0050-06-01T23:59:59.999Z');
  });
  it('refuses a fixed expiry before today (UTC) and names both dates', () => {
    const now = Date.UTC(2026, 10, 22, 12);
    expect(fixedExpiryProblem('2026-11-22', now)).toBeNull();
    expect(fixedExpiryProblem('2026-11-21', now)).toBe('expire (2026-11-21) is before today (2026-11-22, UTC).');
    expect(fixedExpiryProblem('2026-02-30', now)).toMatch(/real calendar date/);
  });
});

describe('other rules', () => {
  it('checks identifiers against [A-Za-z0-9._-]{1,64}', () => {
    expect(isIdentifier('my-app_2.0')).toBe(true);
    expect(isIdentifier('x'.repeat(64))).toBe(true);
    for (const bad of ['', 'x'.repeat(65), 'has space', 'ümlaut', 'a/b']) expect(isIdentifier(bad)).toBe(false);
  });
  it('counts characters as code points', () => {
    expect(charLength('🔑🔑')).toBe(2);
    expect(charLength('abc')).toBe(3);
  });
  it('makes identifiers from names', () => {
    expect(slugIdentifier('My Great App!')).toBe('my-great-app');
    expect(slugIdentifier('  ..Weird__Name..  ')).toBe('weird__name');
    expect(slugIdentifier('日本')).toBe('');
  });
  it('accepts safe integers in range only', () => {
    expect(isIntInRange(5, 1, 10)).toBe(true);
    for (const n of [0, 11, 5.5, Number.NaN, Infinity]) expect(isIntInRange(n, 1, 10)).toBe(false);
    expect(isIntInRange(2 ** 53, 1, 2 ** 60)).toBe(false);
  });
});

describe('zod schemas built from the rules', () => {
  it('takes a list of key values exactly when each value passes alone', () => {
    const list = keyValueList(3);
    const values = ['KEY-1', '', 7, '🔑'.repeat(LIMITS.textMaxChars), 'k'.repeat(LIMITS.textMaxChars + 1), null];
    for (const v of values) expect(list.safeParse([v]).success).toBe(schemas.keyValue.safeParse(v).success);
    expect(list.safeParse(['a', 'b', 'c']).success).toBe(true);
    expect(list.safeParse(['a', 'b', 'c', 'd']).error?.issues.map((i) => i.code)).toEqual(['too_big']);
    expect(list.safeParse([]).error?.issues.map((i) => i.code)).toEqual(['too_small']);
    expect(list.safeParse('KEY-1').error?.issues.map((i) => i.code)).toEqual(['invalid_type']);
    // eslint-disable-next-line no-sparse-arrays -- a hole, as structured clone keeps it
    expect(list.safeParse(['a', , 'b']).error?.issues.map((i) => [i.path, i.message])).toEqual([[[1], 'Key must be text.']]);
    const wrong = list.safeParse(['KEY-1', '', 7]).error?.issues.map((i) => [i.path, i.message]);
    expect(wrong).toEqual([
      [[1], 'Key is required.'],
      [[2], 'Key must be text.'],
    ]);
  });
  it('takes text at its limit in characters, not UTF-16 units', () => {
    const max = LIMITS.textMaxChars;
    expect(schemas.keyValue.safeParse('🔑'.repeat(max)).success).toBe(true);
    expect(schemas.keyValue.safeParse('🔑'.repeat(max + 1)).success).toBe(false);
    expect(schemas.keyValue.safeParse('k'.repeat(max + 1)).success).toBe(false);
  });
  it('gives a person-readable message for each problem', () => {
    expect(schemas.date.safeParse('2023-02-29').error?.issues[0]?.message).toBe('Date must be a real calendar date written YYYY-MM-DD.');
    expect(schemas.days.safeParse(0).error?.issues[0]?.message).toBe('Days must be a whole number from 1 to 999,999.');
    expect(schemas.count.safeParse(2.5).error?.issues[0]?.message).toBe('Count must be a whole number from 1 to 100,000.');
    expect(schemas.note.safeParse('n'.repeat(1_001)).success).toBe(false);
    expect(schemas.keyValue.safeParse('').error?.issues[0]?.message).toBe('Key is required.');
  });
  it('never coerces: "10" and "0x10" are not numbers', () => {
    expect(schemas.count.safeParse('10').success).toBe(false);
    expect(schemas.count.safeParse('0x10').success).toBe(false);
    expect(schemas.count.safeParse(10).data).toBe(10);
  });
});
