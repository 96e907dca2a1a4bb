// The execution history at scale: main serves it downsampled to the chart's width (min and max per bucket) in
// one grouped query, and thins old samples by a retention rule. A million samples (about 58 days of sampling
// every 5 s) answer "All time" with a bounded, correct answer.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalDb, SAMPLE_RETENTION } from '../../src/main/store/local-db.ts';
import { seedSamples } from '../support/samples.ts';
import { tempDir } from '../support/temp-dir.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const open: LocalDb[] = [];
function freshDb(): { db: LocalDb; path: string } {
  const path = join(tempDir('keydesk-history-'), 'keydesk.db');
  const db = new LocalDb(path);
  open.push(db);
  return { db, path };
}
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

describe('LocalDb.history', () => {
  it('answers All time over 1,000,000 samples in the buckets asked', () => {
    const { db, path } = freshDb();
    const start = Date.UTC(2026, 0, 1);
    seedSamples(path, 'p', 1_000_000, start);
    const { buckets, samples } = db.history('p', null, 1_000);
    expect(samples).toBe(1_000_000);
    expect(buckets.length).toBeGreaterThan(990);
    expect(buckets.length).toBeLessThanOrEqual(1_000);
    expect(buckets[0]?.min).toBe(0);
    expect(buckets.at(-1)).toEqual({
      at: new Date(start + 999_999 * 5_000).toISOString(),
      min: expect.any(Number) as number,
      max: 999_999,
    });
    // Buckets are in time order, each one's range follows the previous one's with no gap in the counts.
    for (let i = 1; i < buckets.length; i++) {
      const [prev, cur] = [buckets[i - 1]!, buckets[i]!];
      expect(cur.at > prev.at).toBe(true);
      expect(cur.min).toBe(prev.max + 1);
      expect(cur.max).toBeGreaterThanOrEqual(cur.min);
    }
  }, 180_000);

  it('returns each sample as a bucket when fewer than asked', () => {
    const { db } = freshDb();
    db.recordSample('p', 5, '2026-01-01T00:00:00.000Z');
    db.recordSample('p', 7, '2026-01-01T00:00:05.000Z');
    db.recordSample('other', 1, '2026-01-01T00:00:05.000Z');
    expect(db.history('p', null, 600)).toEqual({
      buckets: [
        { at: '2026-01-01T00:00:00.000Z', min: 5, max: 5 },
        { at: '2026-01-01T00:00:05.000Z', min: 7, max: 7 },
      ],
      samples: 2,
    });
    expect(db.history('p', '2026-01-01T00:00:01.000Z', 600).buckets).toEqual([{ at: '2026-01-01T00:00:05.000Z', min: 7, max: 7 }]);
    expect(db.history('nobody', null, 600)).toEqual({ buckets: [], samples: 0 });
  });

  it('gives the newest sample held for a profile, outside any range', () => {
    const { db } = freshDb();
    expect(db.latestSample('p')).toBeNull();
    db.recordSample('p', 9, '2026-01-01T00:00:00.000Z');
    db.recordSample('p', 4, '2026-01-01T00:00:05.000Z');
    db.recordSample('other', 50, '2026-01-02T00:00:00.000Z');
    // Not the bucket's highest count (9): the count as last read.
    expect(db.latestSample('p')).toEqual({ count: 4, at: '2026-01-01T00:00:05.000Z' });
    expect(db.history('p', '2026-01-01T01:00:00.000Z', 600).buckets).toEqual([]);
  });

  it("keeps each equal-time bucket's lowest and highest count", () => {
    const { db } = freshDb();
    const counts = [10, 11, 3, 12, 13, 14, 20, 15];
    counts.forEach((c, i) => {
      db.recordSample('p', c, new Date(Date.UTC(2026, 0, 1) + i * 10_000).toISOString());
    });
    const { buckets } = db.history('p', null, 4);
    expect(buckets.map((b) => [b.min, b.max])).toEqual([
      [10, 11],
      [3, 12],
      [13, 14],
      [15, 20],
    ]);
  });
});

describe('LocalDb.thinSamples (the retention rule)', () => {
  it('thins older samples per minute, then per hour, idempotently', () => {
    const { db, path } = freshDb();
    const now = Date.UTC(2026, 5, 1, 12, 0, 0);
    const days = 40;
    const n = (days * DAY) / 5_000;
    seedSamples(path, 'p', n, now - days * DAY + 5_000);
    const before = db.history('p', null, 4_000);
    const removed = db.thinSamples();
    expect(removed).toBeGreaterThan(0);
    expect(db.thinSamples()).toBe(0);

    const recent = db.history('p', new Date(now - DAY).toISOString(), 1_000_000);
    expect(recent.samples).toBe(DAY / 5_000 + 1); // both ends: exactly 24 hours ago, and now
    const middle = db.history('p', new Date(now - 30 * DAY).toISOString(), 1_000_000).samples - recent.samples;
    expect(middle).toBeLessThanOrEqual(2 * 29 * 24 * 60);
    const all = db.history('p', null, 1_000_000).samples;
    expect(all - recent.samples - middle).toBeLessThanOrEqual(2 * 10 * 24 + 2);
    expect(all).toBe(n - removed);
    // The extremes survive: the first and last counts, so the chart's change over All time is unchanged.
    const after = db.history('p', null, 4_000);
    expect(after.buckets[0]?.min).toBe(before.buckets[0]?.min);
    expect(after.buckets.at(-1)?.max).toBe(before.buckets.at(-1)?.max);
    expect(SAMPLE_RETENTION.map((t) => t.olderThanMs)).toEqual([DAY, 30 * DAY]);
  }, 180_000);
});

describe('retention counts from the newest sample, not the clock', () => {
  it('keeps a minute of samples taken two days before the clock', () => {
    const { db, path } = freshDb();
    seedSamples(path, 'p', 60, Date.now() - 2 * DAY, 1_000);
    expect(db.thinSamples()).toBe(0);
    expect(db.history('p', null, 1_000).samples).toBe(60);
  });
});
