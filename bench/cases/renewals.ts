// `renewals`: at 1,000,000 keys seeded straight into the ledger, an expiry filter's first page and count
// (ledger.query's plan, sorted by creation and by expiry) and Renewals' 12 week counts, p95 against 100 ms.
import { join } from 'node:path';
import { LocalDb, type LedgerFilter } from '../../src/main/store/local-db.ts';
import { generateKeyValues } from '../../src/sandbox/keygen.ts';
import { renewalWeeks } from '../../src/shared/renewals.ts';
import { ledgerKey } from '../lib/ledger-key.ts';
import { work } from '../lib/sandbox.ts';
import { fmt, p95 } from '../lib/stats.ts';
import { record } from '../lib/table.ts';

const KEYS = 1_000_000;
const ROUNDS = 20;
const DAY = 86_400_000;

export function benchRenewals(): void {
  console.error(`renewals: expiry filters at ${KEYS.toLocaleString('en-US')} keys`);
  const db = new LocalDb(join(work, 'renewals.db'));
  const P = 'renewals';
  const now = Date.now();
  for (let made = 0; made < KEYS; made += 100_000) {
    const base = made;
    db.recordKeys(
      P,
      generateKeyValues(100_000).map((value, j) => {
        const i = base + j;
        // One key in 20 an unactivated days key; the rest expire from a year ago to a year on, evenly.
        const days = i % 20 === 0;
        return ledgerKey(value, {
          note: `batch-${Math.floor(i / 1_000)}`,
          status: i % 3 === 0 ? 'active' : 'generated',
          isPremium: i % 7 === 0,
          expiresByDaysKey: days,
          daysKey: days ? 30 : null,
          expiresAt: days ? null : new Date(now + (((i * 7_919) % 730) - 365) * DAY + (i % 86_400) * 1_000).toISOString(),
          createdAt: new Date(now - i * 1_000).toISOString(),
        });
      }),
    );
  }
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
