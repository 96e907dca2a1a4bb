// The upgrade of an older Keydesk's keydesk.db (schema 3, before the ledger's text index) at first start: how long
// it takes at a given ledger size, reported step by step as the window shows it (src/main/store/upgrade.ts, in a
// worker thread), against the same upgrade run unreported (as LocalDb runs a new file's migrations) on the same
// file, in the same run, alternating. The ratio is what reporting costs; the times are what a vendor waits. The
// schema-3 file is written once and copied before each upgrade (a 1,000,000-key file is about 600 MB: its copy takes
// a second or two, writing it again a minute), so more rounds fit in a run.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { UpgradeWork } from '../src/shared/domain.ts';
import { LocalDb } from '../src/main/store/local-db.ts';
import { upgradeLocalDbFile } from '../src/main/store/upgrade.ts';
import { writeVersion3 } from '../test/support/local-db-v3.ts';

export interface MigrationTiming {
  keys: number;
  /** Whole upgrade, reported (worker thread), ms, per round. */
  reportedMs: number[];
  /** The same, unreported, ms, per round. */
  plainMs: number[];
  /** Time per kind of step in the fastest reported round, ms. */
  byWork: Partial<Record<UpgradeWork, number>>;
  /** Reports the window got in a round. */
  reports: number;
  /** The 1-minute load average before each round and after the last. */
  loads: number[];
}

/** A fresh copy of the schema-3 file `source` as the only file in `dir` (an upgrade leaves its WAL beside it). */
function freshFile(source: string, dir: string): string {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  const file = join(dir, 'keydesk.db');
  copyFileSync(source, file);
  return file;
}

async function reported(file: string): Promise<{ ms: number; byWork: Partial<Record<UpgradeWork, number>>; reports: number }> {
  const byWork: Partial<Record<UpgradeWork, number>> = {};
  let reports = 0;
  // The step under way and when it began (an object: the callback moves it).
  const at: { work: UpgradeWork | null; step: number; since: number } = { work: null, step: 0, since: performance.now() };
  const close = (now: number): void => {
    if (at.work !== null) byWork[at.work] = (byWork[at.work] ?? 0) + (now - at.since);
  };
  const start = performance.now();
  await upgradeLocalDbFile(file, (p) => {
    reports++;
    if (p.step === at.step) return;
    const now = performance.now();
    close(now);
    Object.assign(at, { work: p.work, step: p.step, since: now });
  });
  const end = performance.now();
  close(end);
  return { ms: end - start, byWork, reports };
}

export async function measureMigration(work: string, keys: number, rounds: number): Promise<MigrationTiming> {
  const base = mkdtempSync(join(work, 'migration-'));
  const dir = join(base, 'userData');
  // The same rows every time: the writer is seeded. Closed, so its WAL is checkpointed into it.
  const source = join(base, 'schema-3.db');
  writeVersion3(source, keys);
  const timing: MigrationTiming = { keys, reportedMs: [], plainMs: [], byWork: {}, reports: 0, loads: [] };
  try {
    for (let round = 0; round < rounds; round++) {
      timing.loads.push(loadavg()[0] ?? 0);
      // Alternating which goes first, so a burst of other load on the machine lands on both sides.
      for (const side of round % 2 === 0 ? (['reported', 'plain'] as const) : (['plain', 'reported'] as const)) {
        const file = freshFile(source, dir);
        if (side === 'plain') {
          const t = performance.now();
          new LocalDb(file).close();
          timing.plainMs.push(performance.now() - t);
        } else {
          const r = await reported(file);
          if (timing.reportedMs.every((ms) => r.ms < ms)) Object.assign(timing, { byWork: r.byWork, reports: r.reports });
          timing.reportedMs.push(r.ms);
        }
      }
    }
    timing.loads.push(loadavg()[0] ?? 0);
    return timing;
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
