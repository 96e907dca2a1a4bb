// `renewals`: at 1,000,000 keys seeded straight into the ledger, an expiry filter's first page and count
// (ledger.query's plan, sorted by creation and by expiry) and Renewals' 12 week counts, p95 against 100 ms.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { LocalDb, type LedgerFilter } from '../../src/main/store/local-db.ts';
import { renewalWeeks } from '../../src/shared/renewals.ts';
import { work } from '../lib/sandbox.ts';
import { fmt, p95 } from '../lib/stats.ts';
import { record } from '../lib/table.ts';

const KEYS = 1_000_000;
const ROUNDS = 20;
const DAY = 86_400_000;
const P = 'renewals';

/**
 * One key in 20 an unactivated days key; the rest expire from a year ago to a year on, evenly; a third active, one
 * in 25 deleted, one in 7 premium; one created per second back from now. Inserted in one statement, as a seed.
 */
export function seedRenewals(path: string, now: number): void {
  for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
  new LocalDb(path).close();
  const raw = new DatabaseSync(path);
  raw.exec('PRAGMA synchronous = OFF; PRAGMA cache_size = -1000000;');
  raw
    .prepare(
      `WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < ?1 - 1)
       INSERT INTO ledger (profile_id, value, note, status, is_premium, expires_at, created_at, last_seen_at, search, days_key)
       SELECT ?2, printf('RENEW-%010d', i), 'batch-' || (i / 1000),
         CASE WHEN i % 25 = 1 THEN 'deleted' WHEN i % 3 = 0 THEN 'active' ELSE 'generated' END, i % 7 = 0,
         CASE WHEN i % 20 <> 0 THEN strftime('%Y-%m-%dT%H:%M:%fZ', (?3 + ((i * 7919) % 730 - 365) * ?4 + (i % 86400) * 1000) / 1000.0, 'unixepoch') END,
         strftime('%Y-%m-%dT%H:%M:%fZ', (?3 - i * 1000) / 1000.0, 'unixepoch'), strftime('%Y-%m-%dT%H:%M:%fZ', ?3 / 1000.0, 'unixepoch'),
         printf('renew-%010d', i) || char(10) || 'batch-' || (i / 1000) || char(10, 10), CASE WHEN i % 20 = 0 THEN 30 END
       FROM seq`,
    )
    .run(KEYS, P, now, DAY);
  raw.exec('ANALYZE');
  raw.close();
}

export function benchRenewals(): void {
  console.error(`renewals: expiry filters at ${KEYS.toLocaleString('en-US')} keys`);
  const path = join(work, 'renewals.db');
  const now = Date.now();
  const t0 = performance.now();
  seedRenewals(path, now);
  console.error(`  seeded in ${fmt((performance.now() - t0) / 1000, 's')}`);
  const db = new LocalDb(path);
  const weeks = renewalWeeks(now);
  const filters: [string, LedgerFilter][] = [
    ['expired', { expired: true }],
    ['expiring within 7 days', { expiresWithin: 7 }],
    ['expiring within 30 days', { expiresWithin: 30 }],
    ['one week of Renewals', { expiresFrom: weeks[3]?.from, expiresTo: weeks[3]?.to }],
    ['unactivated days keys', { unactivated: true }],
    ['expiring within 30 days, premium', { expiresWithin: 30, premium: true }],
    [
      'created in a day',
      { createdFrom: new Date(now - 2 * DAY).toISOString().slice(0, 10), createdTo: new Date(now - 2 * DAY).toISOString().slice(0, 10) },
    ],
  ];
  const all: number[] = [];
  for (const [name, filter] of filters) {
    const samples: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const sort =
        i % 2 === 0 ? { field: 'createdAt' as const, dir: 'desc' as const } : { field: 'expiresAt' as const, dir: 'asc' as const };
      const t = performance.now();
      db.queryLedger(P, filter, sort, 0, 100);
      samples.push(performance.now() - t);
    }
    console.error(`  ${name}: p95 ${fmt(p95(samples), 'ms')}`);
    all.push(...samples);
  }
  const weekSamples: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    db.expiryWeeks(P, now);
    weekSamples.push(performance.now() - t);
  }
  db.close();
  const page = p95(all);
  record(
    "renewals: an expiry filter's first page and count at 1,000,000 keys, p95",
    fmt(page, 'ms'),
    '100 ms',
    page / 100,
    '≤ 100 ms',
    page <= 100,
  );
  const strip = p95(weekSamples);
  record("renewals: the 12 weeks' expiry counts at 1,000,000 keys, p95", fmt(strip, 'ms'), '100 ms', strip / 100, '≤ 100 ms', strip <= 100);
}
