// The one formatter: locale numbers and dates, real plurals, relative time.
import { describe, expect, it } from 'vitest';
import { createFormatter, NOUNS } from '../../src/renderer/src/lib/format.ts';

const en = createFormatter('en-US');
const de = createFormatter('de-DE');
const fr = createFormatter('fr-FR');

describe('counts', () => {
  it('uses the singular for one and the plural otherwise, with grouped digits', () => {
    expect(en.count(1, NOUNS.key)).toBe('1 key');
    expect(en.count(0, NOUNS.key)).toBe('0 keys');
    expect(en.count(10000, NOUNS.key)).toBe('10,000 keys');
    expect(en.count(2, NOUNS.entry)).toBe('2 entries');
  });
  it('groups digits the way the locale does', () => {
    expect(de.number(10000)).toBe('10.000');
    expect(en.number(1234567)).toBe('1,234,567');
  });
  it('follows the locale plural rule (French counts 0 as singular)', () => {
    expect(fr.noun(0, NOUNS.key)).toBe('key');
    expect(en.noun(0, NOUNS.key)).toBe('keys');
  });
});

describe('dates', () => {
  const iso = '2027-06-30T12:00:00.000Z';
  it('writes a calendar date in the locale, never the ISO form', () => {
    expect(en.date(iso)).toBe('Jun 30, 2027');
    expect(de.date(iso)).toBe('30.06.2027');
  });
  it('shows an unparseable value as it came rather than "Invalid Date"', () => {
    expect(en.date('soon')).toBe('soon');
    expect(en.relative('soon')).toBe('soon');
  });
  it('reads relative time in the largest whole unit', () => {
    const now = Date.parse(iso);
    expect(en.relative(new Date(now - 3 * 60_000).toISOString(), now)).toBe('3 minutes ago');
    expect(en.relative(new Date(now + 2 * 86_400_000).toISOString(), now)).toBe('in 2 days');
    expect(en.relative(new Date(now - 86_400_000).toISOString(), now)).toBe('yesterday');
    expect(en.relative(iso, now)).toBe('now');
  });
});

describe('history buckets for the chart', async () => {
  const { toChartBuckets } = await import('../../src/renderer/src/lib/history.ts');
  it("keeps the running total and counts each bucket's rise", () => {
    const buckets = toChartBuckets([
      { at: '2026-11-23T00:00:00.000Z', min: 10, max: 14 },
      { at: '2026-11-23T00:05:00.000Z', min: 15, max: 20 },
      { at: '2026-11-23T00:10:00.000Z', min: 20, max: 20 },
    ]);
    expect(buckets).toEqual([
      { at: Date.parse('2026-11-23T00:00:00.000Z'), total: 14, added: 4 },
      { at: Date.parse('2026-11-23T00:05:00.000Z'), total: 20, added: 6 },
      { at: Date.parse('2026-11-23T00:10:00.000Z'), total: 20, added: 0 },
    ]);
  });
  it('never draws a negative bar when a count goes down', () => {
    const buckets = toChartBuckets([
      { at: '2026-11-23T00:00:00.000Z', count: 5 },
      { at: '2026-11-23T00:01:00.000Z', count: 8 },
      { at: '2026-11-23T00:02:00.000Z', count: 2 },
    ]);
    expect(buckets.map((b) => [b.total, b.added])).toEqual([
      [5, 0],
      [8, 3],
      [2, 0],
    ]);
  });
});

describe('time-axis ticks', () => {
  const gb = createFormatter('en-GB');
  // Local times: the axis shows the user's clock, as every other date on screen does.
  const local = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0) => new Date(y, mo - 1, d, h, mi, s).getTime();

  it('is as fine as the step between ticks: seconds, minutes, days, months', () => {
    expect(gb.axisTime(local(2026, 11, 23, 14, 5, 30), 10_000)).toBe('14:05:30');
    expect(gb.axisTime(local(2026, 11, 23, 14, 5), 15 * 60_000)).toBe('14:05');
    expect(gb.axisTime(local(2026, 11, 23, 12), 86_400_000)).toBe('23 Nov');
    expect(gb.axisTime(local(2027, 6, 1), 31 * 86_400_000)).toBe('Jun 2027');
  });

  it('marks midnight between time ticks with the date', () => {
    expect(gb.axisTime(local(2026, 11, 24), 3600_000)).toBe('24 Nov');
  });

  it('speaks the locale: a German axis reads "23. Nov."', () => {
    expect(de.axisTime(local(2026, 11, 23, 12), 86_400_000)).toBe('23. Nov.');
  });
});
