// Overview's figures from the ledger (each a count over an index range, or ledger_counts), its keys activated and
// generated per day, Keydesk's runs (where the history chart says it was closed), and the first-run steps done.
import type { DatabaseSync } from 'node:sqlite';
import type { FirstRunMark, KeyActivityDay, OverviewFigures } from '../../shared/domain.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** A run last seen alive within this long of the next one's start ran on into it: no closed span between them. */
export const RUN_GAP_MS = 3 * 60_000;

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * The windows Overview's figures count, as instants from `now`: the same bounds go with each figure to All keys,
 * so its filter counts what the figure counted.
 */
export function overviewWindows(now: number): OverviewFigures['windows'] {
  return {
    now: iso(now),
    in7: iso(now + 7 * DAY_MS),
    in30: iso(now + 30 * DAY_MS),
    ago7: iso(now - 7 * DAY_MS),
    ago30: iso(now - 30 * DAY_MS),
  };
}

export class Overview {
  private readonly db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.db = db;
  }

  /**
   * The profile's figures at `now`. Expired and expiring count keys not deleted; activated counts every key
   * activated in the window, deleted since or not; premium counts every key in the ledger. Each window reads
   * ledger_days for its whole days and the index for the part-days at its ends: a few hundred rows at most.
   */
  overviewFigures(profileId: string, now = Date.now()): OverviewFigures {
    const w = overviewWindows(now);
    const status = this.db.prepare('SELECT status, n FROM ledger_counts WHERE profile_id = ?').all(profileId) as {
      status: string;
      n: number;
    }[];
    const of = (s: string): number => status.find((r) => r.status === s)?.n ?? 0;
    const premium = this.db
      .prepare("SELECT coalesce(sum(n), 0) AS n FROM ledger_days WHERE profile_id = ? AND kind = 'p'")
      .get(profileId) as {
      n: number;
    };
    const seen = this.db.prepare('SELECT max(last_seen_at) AS at FROM ledger WHERE profile_id = ?').get(profileId) as { at: string | null };
    const expiring7 = this.between(profileId, 'e', w.now, w.in7);
    return {
      total: status.reduce((sum, r) => sum + r.n, 0),
      active: of('active'),
      generated: of('generated'),
      deleted: of('deleted'),
      // Every expiry sorts after '': the window from it holds every live key with an expiry before now.
      expired: this.between(profileId, 'e', '', w.now),
      expiring7,
      expiring30: expiring7 + this.between(profileId, 'e', w.in7, w.in30),
      activated7: this.between(profileId, 'a', w.ago7, null),
      activated30: this.between(profileId, 'a', w.ago30, null),
      premium: premium.n,
      newestSeenAt: seen.at,
      windows: w,
    };
  }

  /**
   * Keys of a kind (e: live keys by expiry, a: keys by activation) whose time lies in [from, to) (to null: no end):
   * whole buckets (an expiry hour, an activation day) from ledger_days, and the part-buckets at either end counted
   * along the column's index (an activation's covers it; an expiry's reads each row, so its buckets are short).
   */
  private between(profileId: string, kind: 'e' | 'a', from: string, to: string | null): number {
    const column = kind === 'e' ? 'expires_at' : 'activated_at';
    const live = kind === 'e' ? " AND status <> 'deleted'" : '';
    const rows = (lo: string, hi: string | null): number =>
      (
        this.db
          .prepare(`SELECT count(*) AS n FROM ledger WHERE profile_id = ? AND ${column} >= ? AND ${column} < ?${live}`)
          .get(profileId, lo, hi ?? '\u{10FFFF}') as { n: number }
      ).n;
    const buckets = (lo: string, hi: string | null): number =>
      (
        this.db
          .prepare('SELECT coalesce(sum(n), 0) AS n FROM ledger_days WHERE profile_id = ? AND kind = ? AND day >= ? AND day < ?')
          .get(profileId, kind, lo, hi ?? '\u{10FFFF}') as { n: number }
      ).n;
    // A bucket is named by its time's first `size` characters; `rest` completes that name to its first instant.
    const [size, rest, span] = kind === 'e' ? [13, ':00:00.000Z', HOUR_MS] : [10, 'T00:00:00.000Z', DAY_MS];
    const start = (name: string): string => `${name}${rest}`;
    // The first whole bucket starts at `from` (a bucket's first instant) or the next; the last ends where `to`'s starts.
    const fromName =
      from === '' || from.slice(size) === rest ? from.slice(0, size) : iso(Date.parse(start(from.slice(0, size))) + span).slice(0, size);
    const toName = to === null ? null : to.slice(0, size);
    if (toName !== null && fromName >= toName) return rows(from, to);
    const head = fromName === from.slice(0, size) ? 0 : rows(from, start(fromName));
    const tail = toName === null || to === start(toName) ? 0 : rows(start(toName), to);
    return head + buckets(fromName, toName) + tail;
  }

  /**
   * Keys activated and generated per UTC day over the `days` days up to `now` (today included), oldest first,
   * every day listed (0 where none): read from ledger_days.
   */
  keyActivity(profileId: string, days: number, now = Date.now()): KeyActivityDay[] {
    const first = now - (now % DAY_MS) - (days - 1) * DAY_MS;
    const rows = this.db
      .prepare("SELECT kind, day, n FROM ledger_days WHERE profile_id = ? AND kind IN ('a', 'c') AND day >= ?")
      .all(profileId, iso(first).slice(0, 10)) as { kind: 'a' | 'c'; day: string; n: number }[];
    const per = new Map(rows.map((r) => [`${r.kind}${r.day}`, r.n]));
    return Array.from({ length: days }, (_, i) => {
      const day = iso(first + i * DAY_MS).slice(0, 10);
      return { day, activated: per.get(`a${day}`) ?? 0, generated: per.get(`c${day}`) ?? 0 };
    });
  }

  /** Keydesk's run that started at `startedAt` was alive at `at` (the main sampler's tick). */
  runAlive(startedAt: string, at: string): void {
    this.db
      .prepare(
        'INSERT INTO keydesk_runs (started_at, alive_at) VALUES (?, ?) ON CONFLICT (started_at) DO UPDATE SET alive_at = excluded.alive_at',
      )
      .run(startedAt, at);
  }

  /**
   * The spans since `since` (null: all) when Keydesk was not running: from a run's last sign of life to the next
   * run's start, where those lie more than RUN_GAP_MS apart. Oldest first.
   */
  closedSpans(since: string | null): { from: string; to: string }[] {
    const runs = this.db.prepare('SELECT started_at AS start, alive_at AS alive FROM keydesk_runs ORDER BY started_at').all() as {
      start: string;
      alive: string;
    }[];
    const spans: { from: string; to: string }[] = [];
    for (let i = 1; i < runs.length; i++) {
      const before = runs[i - 1];
      const run = runs[i];
      if (before === undefined || run === undefined) continue;
      if (Date.parse(run.start) - Date.parse(before.alive) <= RUN_GAP_MS) continue;
      if (since !== null && run.start < since) continue;
      spans.push({ from: before.alive, to: run.start });
    }
    return spans;
  }

  /** The first-run marks noted on the profile, oldest first. */
  firstRunSteps(profileId: string): FirstRunMark[] {
    const rows = this.db.prepare('SELECT step FROM first_run WHERE profile_id = ? ORDER BY at').all(profileId) as { step: FirstRunMark }[];
    return rows.map((r) => r.step);
  }

  /** Notes a first-run step done on the profile (once: the first time stays). */
  markFirstRunStep(profileId: string, step: FirstRunMark, at = new Date().toISOString()): void {
    this.db.prepare('INSERT INTO first_run (profile_id, step, at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING').run(profileId, step, at);
  }
}
