// The upgrade of an older Keydesk's keydesk.db (schema 3, before the ledger's text index) at first start: how long
// it takes at a given ledger size, reported step by step as the window shows it (src/main/store/upgrade.ts, in a
// worker thread), against the same upgrade run unreported on a copy of the same file (as LocalDb runs a new file's
// migrations) in the same run. The ratio is what reporting costs; the times are what a vendor waits.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { UpgradeWork } from '../src/shared/domain.ts';
import { LocalDb } from '../src/main/store/local-db.ts';
import { upgradeLocalDbFile } from '../src/main/store/upgrade.ts';
import { writeVersion3 } from '../test/support/local-db-v3.ts';

export interface MigrationTiming {
  keys: number;
  /** Whole upgrade, reported (worker thread), ms. */
  reportedMs: number;
  /** The same, unreported, on a copy, ms. */
  plainMs: number;
  /** Time per kind of step in the reported run, ms. */
  byWork: Partial<Record<UpgradeWork, number>>;
  /** Reports the window got. */
  reports: number;
}

export async function measureMigration(work: string, keys: number): Promise<MigrationTiming> {
  const dir = mkdtempSync(join(work, 'migration-'));
  try {
    const file = join(dir, 'reported', 'keydesk.db');
    const copy = join(dir, 'plain.db');
    mkdirSync(join(dir, 'reported'));
    writeVersion3(file, keys);
    const db = new DatabaseSync(file);
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    db.close();
    copyFileSync(file, copy);

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
    const reportedMs = end - start;
    rmSync(join(dir, 'reported'), { recursive: true, force: true });

    const t = performance.now();
    new LocalDb(copy).close();
    const plainMs = performance.now() - t;
    return { keys, reportedMs, plainMs, byWork, reports };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
