// The upgrade of an older Keydesk's keydesk.db (schema 3, before the ledger's text index) at first start: how long
// it takes at a given ledger size, reported step by step as the window shows it (src/main/store/upgrade.ts, in a
// worker thread), against the same upgrade run unreported (as LocalDb runs a new file's migrations) on the same
// file written again, in the same run, alternating. The ratio is what reporting costs; the times are what a vendor
// waits. One file at a time is on disk (a 1,000,000-key file is about 600 MB, and the upgrade writes as much again).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
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
}

/** A fresh schema-3 file of `keys` rows (the same rows every time: the writer is seeded). */
function freshFile(dir: string, keys: number): string {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  const file = join(dir, 'keydesk.db');
  writeVersion3(file, keys);
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
  const dir = join(mkdtempSync(join(work, 'migration-')), 'userData');
  const timing: MigrationTiming = { keys, reportedMs: [], plainMs: [], byWork: {}, reports: 0 };
  try {
    for (let round = 0; round < rounds; round++) {
      // Alternating which goes first, so a burst of other load on the machine lands on both sides.
      for (const side of round % 2 === 0 ? (['reported', 'plain'] as const) : (['plain', 'reported'] as const)) {
        const file = freshFile(dir, keys);
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
    return timing;
  } finally {
    rmSync(join(dir, '..'), { recursive: true, force: true });
  }
}
