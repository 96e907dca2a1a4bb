// `search`: the sandbox's note search over `--search-keys` keys (p95 of 40 terms) ÷ the naive design, the note
// inline on every key and found by LIKE '%term%'; every term's total must agree with the scan's.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { SandboxStore } from '../../src/sandbox/store.ts';
import type { BenchOptions } from '../lib/options.ts';
import { work } from '../lib/sandbox.ts';
import { fmt, p95 } from '../lib/stats.ts';
import { record } from '../lib/table.ts';

export function benchSearch({ searchKeys }: BenchOptions): void {
  const batches = searchKeys / 100;
  console.error(`search: ${searchKeys.toLocaleString('en-US')} keys in ${batches.toLocaleString('en-US')} batches with distinct notes`);
  const file = join(work, 'search.db');
  const store = new SandboxStore(file);
  const { service } = store.createService('Search', 'search');
  const regions = ['EU', 'US', 'APAC', 'LATAM'];
  const t0 = performance.now();
  for (let i = 0; i < batches; i++) {
    store.generateKeys(service.id, {
      count: 100,
      isPremium: i % 7 === 0,
      expire: '2099-01-01',
      expiresByDaysKey: false,
      daysKey: null,
      note: `Order ${String(i).padStart(6, '0')} for customer-${String(i % 997).padStart(4, '0')} (${regions[i % 4] ?? ''})`,
    });
  }
  console.error(`  populated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  store.close();

  const db = new DatabaseSync(file);
  db.exec(`CREATE TABLE naive AS SELECT k.id, k.service_id, k.value, n.text AS note, k.status, k.is_premium, k.expires_by_days,
    k.days_key, k.expires_at, k.hwid, k.created_at, k.activated_at, k.last_reset_at FROM keys k JOIN notes n ON n.id = k.note_id`);
  const naiveCount = db.prepare("SELECT count(*) AS n FROM naive WHERE service_id = ? AND status = 0 AND note LIKE ? ESCAPE '\\'");
  const naiveRows = db.prepare(
    "SELECT * FROM naive WHERE service_id = ? AND status = 0 AND note LIKE ? ESCAPE '\\' ORDER BY id DESC LIMIT 100",
  );
  const ours = new SandboxStore(file);
  const terms = Array.from({ length: 40 }, (_, i) => {
    const n = (i * 7_919) % batches;
    return i % 2 === 0 ? `CUSTOMER-${String(n % 997).padStart(4, '0')}` : `order ${String(n).padStart(6, '0')}`;
  });
  const naiveMs: number[] = [];
  const oursMs: number[] = [];
  for (const term of terms) {
    const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    let t = performance.now();
    const total = (naiveCount.get(service.id, like) as { n: number }).n;
    naiveRows.all(service.id, like);
    naiveMs.push(performance.now() - t);
    t = performance.now();
    const page = ours.searchKeys(service.id, 'generated', term, 100, 0);
    oursMs.push(performance.now() - t);
    if (page.total !== total) throw new Error(`search disagrees with the scan for "${term}": ${page.total} vs ${total}`);
  }
  ours.close();
  db.close();
  const n = p95(naiveMs);
  const o = p95(oursMs);
  record(
    `note search over ${searchKeys.toLocaleString('en-US')} keys: p95 LIKE scan ÷ p95 ours`,
    fmt(o, 'ms'),
    fmt(n, 'ms'),
    n / o,
    '≥ 20',
    n / o >= 20,
  );
}
