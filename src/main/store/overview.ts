// Overview's figures from the ledger (each a count over an index range, or ledger_counts), its keys activated and
// generated per day, Keydesk's runs (where the history chart says it was closed), and the first-run steps done.
import type { DatabaseSync } from 'node:sqlite';
import type { FirstRunStep, KeyActivityDay, OverviewFigures } from '../../shared/domain.ts';

const DAY_MS = 86_400_000;
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
   * The profile's figures at `now`. Expired and expiring count keys not deleted (ledger_live_expiry); activated
   * counts every key activated in the window, deleted since or not; premium counts every key in the ledger.
   */
  overviewFigures(profileId: string, now = Date.now()): OverviewFigures {
    const w = overviewWindows(now);
    const status = this.db.prepare('SELECT status, n FROM ledger_counts WHERE profile_id = ?').all(profileId) as {
      status: string;
      n: number;
    }[];
    const of = (s: string): number => status.find((r) => r.status === s)?.n ?? 0;
    const live = (from: string, to: string): number =>
      (
        this.db
          .prepare(`SELECT count(*) AS n FROM ledger WHERE profile_id = ? AND expires_at >= ? AND expires_at < ? AND status <> 'deleted'`)
          .get(profileId, from, to) as { n: number }
      ).n;
    const activated = (from: string): number =>
      (this.db.prepare('SELECT count(*) AS n FROM ledger WHERE profile_id = ? AND activated_at >= ?').get(profileId, from) as { n: number })
        .n;
    const premium = (
      this.db.prepare('SELECT count(*) AS n FROM ledger WHERE profile_id = ? AND is_premium = 1 AND status IS NOT NULL').get(profileId) as {
        n: number;
      }
    ).n;
    const seen = this.db.prepare('SELECT max(last_seen_at) AS at FROM ledger WHERE profile_id = ?').get(profileId) as { at: string | null };
    const expiring7 = live(w.now, w.in7);
    return {
      total: status.reduce((sum, r) => sum + r.n, 0),
      active: of('active'),
      generated: of('generated'),
      deleted: of('deleted'),
      // Every expiry sorts after '': the range from it is every live key with an expiry before now.
      expired: live('', w.now),
      expiring7,
      expiring30: expiring7 + live(w.in7, w.in30),
      activated7: activated(w.ago7),
      activated30: activated(w.ago30),
      premium,
      newestSeenAt: seen.at,
      windows: w,
    };
  }

  /**
   * Keys activated and generated per UTC day over the `days` days up to `now` (today included), oldest first,
   * every day listed (0 where none).
   */
  keyActivity(profileId: string, days: number, now = Date.now()): KeyActivityDay[] {
    const first = now - (now % DAY_MS) - (days - 1) * DAY_MS;
    const from = iso(first);
    const perDay = (column: 'activated_at' | 'created_at'): Map<string, number> => {
      const rows = this.db
        .prepare(`SELECT substr(${column}, 1, 10) AS day, count(*) AS n FROM ledger WHERE profile_id = ? AND ${column} >= ? GROUP BY day`)
        .all(profileId, from) as { day: string; n: number }[];
      return new Map(rows.map((r) => [r.day, r.n]));
    };
    const activated = perDay('activated_at');
    const generated = perDay('created_at');
    return Array.from({ length: days }, (_, i) => {
      const day = iso(first + i * DAY_MS).slice(0, 10);
      return { day, activated: activated.get(day) ?? 0, generated: generated.get(day) ?? 0 };
    });
  }

  /** Keydesk's run that started at `startedAt` was alive at `at` (the main sampler's tick). */
  runAlive(startedAt: string, at: string): void {
    this.db
      .prepare('INSERT INTO keydesk_runs (started_at, alive_at) VALUES (?, ?) ON CONFLICT (started_at) DO UPDATE SET alive_at = excluded.alive_at')
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

  /** The first-run steps done on the profile. */
  firstRunSteps(profileId: string): FirstRunStep[] {
    const rows = this.db.prepare('SELECT step FROM first_run WHERE profile_id = ? ORDER BY at').all(profileId) as { step: FirstRunStep }[];
    return rows.map((r) => r.step);
  }

  /** Notes a first-run step done on the profile (once: the first time stays). */
  markFirstRunStep(profileId: string, step: FirstRunStep, at = new Date().toISOString()): void {
    this.db.prepare('INSERT INTO first_run (profile_id, step, at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING').run(profileId, step, at);
  }
}
