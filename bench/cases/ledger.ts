// `ledger`: ledger.query over 100,000 rows, p95 of a text-filtered, sorted page of 100 beside an unfiltered page.
import { join } from 'node:path';
import { LocalDb } from '../../src/main/store/local-db.ts';
import { generateKeyValues } from '../../src/sandbox/keygen.ts';
import { ledgerKey } from '../lib/ledger-key.ts';
import { work } from '../lib/sandbox.ts';
import { fmt, p95 } from '../lib/stats.ts';
import { record } from '../lib/table.ts';

export function benchLedger(): void {
  console.error('ledger: 100,000 rows, filtered and sorted pages');
  const db = new LocalDb(join(work, 'ledger.db'));
  const now = Date.now();
  const keys = generateKeyValues(100_000).map((value, i) =>
    ledgerKey(value, {
      note: `batch-${String(i % 500).padStart(3, '0')} customer ${i % 977}`,
      status: i % 3 === 0 ? 'active' : 'generated',
      isPremium: i % 7 === 0,
      expiresAt: new Date(now + i * 60_000).toISOString(),
      hwid: i % 3 === 0 ? `HW-${i}` : null,
      createdAt: new Date(now - i * 1_000).toISOString(),
    }),
  );
  db.recordKeys('bench', keys);
  const unfiltered: number[] = [];
  const filtered: number[] = [];
  for (let i = 0; i < 60; i++) {
    let t = performance.now();
    db.queryLedger('bench', {}, { field: 'createdAt', dir: 'desc' }, i * 100, 100);
    unfiltered.push(performance.now() - t);
    t = performance.now();
    const page = db.queryLedger(
      'bench',
      { text: `batch-${String((i * 7) % 500).padStart(3, '0')}`, status: i % 2 ? 'generated' : undefined },
      { field: 'expiresAt', dir: 'asc' },
      0,
      100,
    );
    filtered.push(performance.now() - t);
    if (page.total === 0) throw new Error('ledger filter found nothing');
  }
  db.close();
  record(
    'ledger.query over 100,000 rows: p95 of a text-filtered, sorted page of 100 ÷ p95 of an unfiltered page',
    fmt(p95(filtered), 'ms'),
    fmt(p95(unfiltered), 'ms'),
    p95(filtered) / p95(unfiltered),
    'reported',
    true,
  );
}
