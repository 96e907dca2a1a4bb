// `history`: executions.history's "All time" over 1,000,000 samples (58 days every 5 s), 1,000 min/max buckets from
// the index ÷ reading every sample; then the same after the retention rule has thinned them.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { LocalDb } from '../../src/main/store/local-db.ts';
import { work } from '../lib/sandbox.ts';
import { fmt, median } from '../lib/stats.ts';
import { record } from '../lib/table.ts';

export function benchHistory(): void {
  console.error('history: 1,000,000 samples, All time in 1,000 buckets');
  const path = join(work, 'history.db');
  const db = new LocalDb(path);
  const raw = new DatabaseSync(path);
  raw
    .prepare(
      `WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < 999999)
       INSERT INTO samples (profile_id, at, count) SELECT 'bench', strftime('%Y-%m-%dT%H:%M:%fZ', (? + i * 5000) / 1000.0, 'unixepoch'), i FROM seq`,
    )
    .run(Date.now() - 1_000_000 * 5_000);
  const readAll = raw.prepare('SELECT at, count FROM samples WHERE profile_id = ? ORDER BY at');
  const ours: number[] = [];
  const baseline: number[] = [];
  for (let i = 0; i < 5; i++) {
    let t = performance.now();
    const { buckets } = db.history('bench', null, 1_000);
    ours.push(performance.now() - t);
    if (buckets.length > 1_000 || buckets.length < 900) throw new Error(`history gave ${buckets.length} buckets`);
    t = performance.now();
    readAll.all('bench');
    baseline.push(performance.now() - t);
  }
  const t = performance.now();
  const removed = db.thinSamples();
  const thinMs = performance.now() - t;
  const after: number[] = [];
  for (let i = 0; i < 5; i++) {
    const s = performance.now();
    db.history('bench', null, 1_000);
    after.push(performance.now() - s);
  }
  raw.close();
  db.close();
  record(
    'executions.history All time, 1,000,000 samples: median of 1,000 buckets ÷ median of reading every sample',
    fmt(median(ours), 'ms'),
    fmt(median(baseline), 'ms'),
    median(ours) / median(baseline),
    '< 1',
    median(ours) < median(baseline),
  );
  record(
    `the same after the retention rule (${removed.toLocaleString('en-US')} samples thinned in ${fmt(thinMs, 'ms')}): All time ÷ the untouched million`,
    fmt(median(after), 'ms'),
    fmt(median(ours), 'ms'),
    median(after) / median(ours),
    '< 0.5',
    median(after) < median(ours) / 2,
  );
}
