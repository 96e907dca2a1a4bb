// Execution samples for the history chart, read as at most a chart's width of buckets, and thinned by the
// retention rule: every sample of the last day, then per minute and per hour only the lowest and highest count.
import type { DatabaseSync } from 'node:sqlite';
import type { HistoryBucket } from '../../shared/domain.ts';
import { SAMPLE_RETENTION } from '../../shared/rules.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** How samples are thinned (shared/rules.ts: the history chart reads it too). */
export { SAMPLE_RETENTION };

/** A stretch of time the retention rule thins, and the time slot it keeps a min and a max for. */
export interface SampleWindow {
  profileId: string;
  from: string;
  to: string;
  prefix: number;
}

export class Samples {
  private readonly db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.db = db;
  }

  recordSample(profileId: string, count: number, at = new Date().toISOString()): void {
    this.db.prepare('INSERT INTO samples (profile_id, at, count) VALUES (?, ?, ?)').run(profileId, at, count);
  }

  /** The newest sample held for the profile (one index seek), or null when it has none. */
  latestSample(profileId: string): { count: number; at: string } | null {
    const row = this.db.prepare('SELECT at, count FROM samples WHERE profile_id = ? ORDER BY at DESC LIMIT 1').get(profileId) as
      { at: string; count: number } | undefined;
    return row ? { count: row.count, at: row.at } : null;
  }

  /**
   * The history from `since` (null: all of it) as at most `points` buckets of equal time, each with the time of
   * its last sample and the lowest and highest count in it; fewer samples than `points` come back one per
   * bucket. Each bucket is one range read of the (profile, time, count) index, so the answer's size never
   * depends on how many samples there are, and the work is one pass over the range's index entries.
   */
  history(profileId: string, since: string | null, points: number): { buckets: HistoryBucket[]; samples: number } {
    const from = since ?? '';
    const span = this.db
      .prepare('SELECT count(*) AS n, min(at) AS first, max(at) AS last FROM samples WHERE profile_id = ? AND at >= ?')
      .get(profileId, from) as { n: number; first: string | null; last: string | null };
    if (span.n === 0 || span.first === null || span.last === null) return { buckets: [], samples: 0 };
    if (span.n <= points) {
      const rows = this.db.prepare('SELECT at, count FROM samples WHERE profile_id = ? AND at >= ? ORDER BY at').all(profileId, from) as {
        at: string;
        count: number;
      }[];
      return { buckets: rows.map((r) => ({ at: r.at, min: r.count, max: r.count })), samples: span.n };
    }
    // Bucket i covers [first + i * width, first + (i + 1) * width); the last one also takes the last sample.
    const first = Date.parse(span.first);
    const width = Math.max(1, (Date.parse(span.last) - first) / points);
    const bucket = this.db.prepare(
      'SELECT max(at) AS at, min(count) AS min, max(count) AS max FROM samples WHERE profile_id = ? AND at >= ? AND at < ?',
    );
    const buckets: HistoryBucket[] = [];
    for (let i = 0; i < points; i++) {
      const lo = i === 0 ? span.first : new Date(first + i * width).toISOString();
      const hi = i === points - 1 ? `${span.last}\u{10FFFF}` : new Date(first + (i + 1) * width).toISOString();
      const r = bucket.get(profileId, lo, hi) as { at: string | null; min: number | null; max: number | null };
      if (r.at !== null && r.min !== null && r.max !== null) buckets.push({ at: r.at, min: r.min, max: r.max });
    }
    return { buckets, samples: span.n };
  }

  /**
   * The one-day windows (UTC days) the retention rule covers, oldest first, each with its time slot: apply them
   * with thinSampleWindow, one at a time. Ages count back from each profile's newest sample, not the clock, so a
   * clock set days ahead thins nothing that was recent.
   */
  sampleThinningWindows(): SampleWindow[] {
    // Each profile with samples, found by index seeks (no scan), then its oldest and newest sample.
    const profiles = this.db
      .prepare(
        `WITH RECURSIVE p(id) AS (SELECT min(profile_id) FROM samples
           UNION ALL SELECT (SELECT min(profile_id) FROM samples WHERE profile_id > p.id) FROM p WHERE p.id IS NOT NULL)
         SELECT id FROM p WHERE id IS NOT NULL`,
      )
      .all() as { id: string }[];
    const span = this.db.prepare('SELECT min(at) AS oldest, max(at) AS newest FROM samples WHERE profile_id = ?');
    const windows: SampleWindow[] = [];
    const dayStart = (ms: number) => ms - (ms % DAY_MS);
    for (const { id } of profiles) {
      const { oldest, newest } = span.get(id) as { oldest: string; newest: string };
      const ref = Date.parse(newest);
      // Tiers from the oldest (coarsest) to the newest; each covers [ref - olderThan - span, ref - olderThan).
      for (const tier of [...SAMPLE_RETENTION].reverse()) {
        const end = ref - tier.olderThanMs;
        const begin = Math.max(Date.parse(oldest), end - tier.spanMs);
        for (let from = dayStart(begin); from < end; from += DAY_MS) {
          windows.push({
            profileId: id,
            from: new Date(from).toISOString(),
            to: new Date(Math.min(from + DAY_MS, end)).toISOString(),
            prefix: tier.prefix,
          });
        }
      }
    }
    return windows;
  }

  /** Keeps, in the window's time slots, only the profile's samples with the lowest and highest count. */
  thinSampleWindow(w: SampleWindow): number {
    const range = 'profile_id = ? AND at >= ? AND at < ?';
    // SQLite fills a bare column (rowid) from the row that holds the min() or max() of its group.
    const keep = (agg: 'min' | 'max') =>
      `SELECT id FROM (SELECT rowid AS id, ${agg}(count) FROM samples WHERE ${range} GROUP BY substr(at, 1, ${w.prefix}))`;
    const args = [w.profileId, w.from, w.to];
    const r = this.db
      .prepare(`DELETE FROM samples WHERE ${range} AND rowid NOT IN (${keep('min')} UNION ${keep('max')})`)
      .run(...args, ...args, ...args);
    return Number(r.changes);
  }

  /** Applies the retention rule to every window at once; returns how many samples went. Idempotent. */
  thinSamples(): number {
    let removed = 0;
    for (const w of this.sampleThinningWindows()) removed += this.thinSampleWindow(w);
    return removed;
  }
}
