// `ledger-scale`: ledger.query at 1,000,000 keys ÷ at 100,000 (pages at any depth, text, status and premium
// filters), and what recording 100,000 keys costs as the ledger grows.
import { join } from 'node:path';
import { LocalDb } from '../../src/main/store/local-db.ts';
import { generateKeyValues } from '../../src/sandbox/keygen.ts';
import type { Key, LedgerRow } from '../../src/shared/domain.ts';
import { ledgerKey } from '../lib/ledger-key.ts';
import { work } from '../lib/sandbox.ts';
import { fmt, p95 } from '../lib/stats.ts';
import { record } from '../lib/table.ts';

export function benchLedgerScale(): void {
  console.error('ledger-scale: ledger.query at 100,000 and 1,000,000 keys');
  const file = join(work, 'ledger-scale.db');
  const db = new LocalDb(file);
  // The ledger writer's own connection (its thread's, in the app): its writes reach main's anchors through ledger_log.
  const writer = new LocalDb(file, { cacheKiB: 16 * 1024 });
  const P = 'scale';
  const now = Date.now();
  let made = 0;
  const inserts: number[] = [];
  const fill = (to: number): void => {
    const t0 = performance.now();
    while (made < to) {
      const base = made;
      const keys = generateKeyValues(100_000).map((value, j) => {
        const i = base + j;
        // One key in 25,000 has a note with characters no other row holds: the rare short terms' matches.
        const rare = i % 25_000 === 7 ? ' Zürich #7' : '';
        return ledgerKey(value, {
          note: `batch-${String(Math.floor(i / 1_000)).padStart(4, '0')} customer ${i % 977}${rare}`,
          status: i % 3 === 0 ? 'active' : 'generated',
          isPremium: i % 7 === 0,
          expiresAt: new Date(now + (i % 5_000) * 60_000).toISOString(),
          hwid: i % 3 === 0 ? `HW-${i}` : null,
          createdAt: new Date(now - i * 1_000).toISOString(),
        });
      });
      const t = performance.now();
      db.recordKeys(P, keys);
      inserts.push(performance.now() - t);
      made += 100_000;
    }
    console.error(
      `  filled to ${made.toLocaleString('en-US')} in ${((performance.now() - t0) / 1000).toFixed(1)} s (recordKeys of 100,000: ${inserts.map((x) => Math.round(x)).join(', ')} ms)`,
    );
  };
  const sort = { field: 'createdAt' as const, dir: 'desc' as const };
  const time = (samples: number[], fn: () => void): void => {
    const t = performance.now();
    fn();
    samples.push(performance.now() - t);
  };
  const measure = (n: number) => {
    const s: Record<string, number[]> = {};
    const add = (key: string, fn: () => void) => {
      time((s[key] ??= []), fn);
    };
    const some = db.queryLedger(P, {}, sort, 0, 200).rows;
    // What main does in the background after the ledger is read (slices of 8 ms on its event loop): every
    // sort's anchors, so no jump pays a pass over a sort index.
    const prepared = performance.now();
    let slices = 0;
    let longest = 0;
    for (let more = true; more; slices++) {
      const t = performance.now();
      more = db.prepareLedger(P, 8);
      longest = Math.max(longest, performance.now() - t);
    }
    s.prepare = [performance.now() - prepared];
    s.prepareSlice = [longest];
    console.error(
      `  ${n.toLocaleString('en-US')}: anchors of 6 sorts prepared in ${Math.round(performance.now() - prepared)} ms, ${slices} slices, longest ${longest.toFixed(1)} ms`,
    );
    const keyAlphabet = '0123456789abcdefghjkmnpqrstvwxyz';
    for (let i = 0; i < 40; i++) {
      const offset = Math.floor((((i * 7_919) % 1_000) / 1_000) * (n - 200));
      const dir = i % 2 ? 'asc' : 'desc';
      let page: ReturnType<LocalDb['queryLedger']> | undefined;
      add('jump', () => (page = db.queryLedger(P, {}, { field: i % 4 < 2 ? 'createdAt' : 'value', dir }, offset, 200)));
      const row = page?.rows[100];
      if (!row) throw new Error(`no row at ${offset}`);
      let next: unknown[] = [];
      add(
        'seek',
        () =>
          (next = db.seekLedger(
            P,
            {},
            sort,
            i % 2 ? { after: { key: row.createdAt, value: row.value } } : { before: { key: row.createdAt, value: row.value } },
            200,
          )),
      );
      if (next.length === 0) throw new Error('seek found nothing');
      // A jump deep into a filter's matches (2/3 of the ledger): from anchors of that filter.
      add('jumpFiltered', () => db.queryLedger(P, { status: 'generated' }, sort, Math.floor((offset * 2) / 3), 200));
      const value = (some[i % 200]?.value ?? page?.rows[i % 200]?.value ?? '').toLowerCase();
      const terms: Record<string, string> = {
        text1common: keyAlphabet.charAt(i % 32),
        text1rare: i % 2 ? 'ü' : '#',
        text2common: value.slice(6 + (i % 4), 8 + (i % 4)),
        text2rare: i % 2 ? 'zü' : '#7',
        text3common: i % 2 ? `batch-${String((i * 37) % Math.floor(n / 1_000)).padStart(4, '0')}` : `customer ${i % 977}`,
        text3rare: (page?.rows[i % 200]?.value ?? '').slice(6, 11).toLowerCase(),
      };
      for (const [key, term] of Object.entries(terms)) {
        let found: ReturnType<LocalDb['queryLedger']> | undefined;
        add(key, () => (found = db.queryLedger(P, { text: term }, sort, 0, 200)));
        if (!found || found.total === 0) throw new Error(`text filter ${JSON.stringify(term)} found nothing`);
        if (key.endsWith('rare') && found.total > 100) throw new Error(`"rare" term ${JSON.stringify(term)} matches ${found.total}`);
      }
      add('status', () => db.queryLedger(P, { status: i % 2 ? 'active' : 'generated' }, sort, 0, 200));
      add('premium', () => db.queryLedger(P, { premium: i % 2 === 0 }, sort, 0, 200));
    }
    // A deep page right after a write from the ledger writer's connection, at both sorts the jumps use and the
    // last-seen order every write moves rows in: a key marked deleted or seen again (the page follows one
    // ledger_log entry), and a writer's chunk of 2,000 keys seen again (2,000 entries).
    const again = (rows: LedgerRow[]): Key[] =>
      rows.map((r) =>
        ledgerKey(r.value, {
          note: r.note,
          status: r.status === 'active' ? 'active' : 'generated',
          isPremium: r.isPremium,
          expiresAt: r.expiresAt,
          hwid: r.hwid,
          createdAt: r.createdAt ?? '',
        }),
      );
    for (let i = 0; i < 30; i++) {
      const chunk = i % 3 === 2;
      const at = Math.floor((((i * 7_919) % 1_000) / 1_000) * (n - 2_000));
      const k = some[i];
      if (!k) throw new Error('no row');
      if (chunk) writer.recordKeys(P, again(db.queryLedger(P, {}, { field: 'value', dir: 'asc' }, at, 2_000).rows));
      else if (i % 2 === 0) writer.markDeleted(P, k.value);
      else writer.recordKeys(P, again(db.queryLedger(P, {}, { field: 'value', dir: 'asc' }, at, 1).rows));
      const offset = Math.floor((((i * 4_049) % 1_000) / 1_000) * (n - 200));
      add(chunk ? 'jumpAfterChunk' : 'jumpAfterWrite', () =>
        db.queryLedger(
          P,
          {},
          { field: (['createdAt', 'lastSeenAt', 'value'] as const)[i % 3] ?? 'value', dir: i % 4 < 2 ? 'asc' : 'desc' },
          offset,
          200,
        ),
      );
    }
    return Object.fromEntries(Object.entries(s).map(([k, v]) => [k, p95(v)]));
  };
  fill(100_000);
  const small = measure(100_000);
  fill(1_000_000);
  const big = measure(1_000_000);
  writer.close();
  db.close();
  const row = (what: string, key: string, target: number | null) => {
    const b = big[key] ?? Number.NaN;
    const a = small[key] ?? Number.NaN;
    record(
      `ledger ${what}: p95 at 1,000,000 keys (at 100,000 in "baseline"; ratio = growth)`,
      fmt(b, 'ms'),
      fmt(a, 'ms'),
      b / a,
      target === null ? 'reported' : `≤ ${target} ms at 1M`,
      target === null || b <= target,
    );
  };
  row('page reached by seeking from a row (scrolling)', 'seek', 50);
  row('page at a random depth by offset (a jump)', 'jump', 50);
  row('page at a random depth of a status filter (2/3 of the keys)', 'jumpFiltered', 50);
  row("page at a random depth right after a write of one key from the ledger writer's connection", 'jumpAfterWrite', 50);
  row('… right after a chunk of 2,000 keys seen again from that connection (one writer transaction)', 'jumpAfterChunk', null);
  row('anchors of all 6 sorts found in the background after the ledger is read: total', 'prepare', null);
  row("… its longest slice on main's event loop", 'prepareSlice', null);
  row('text filter, 1 character, thousands of matches: first page and count', 'text1common', 100);
  row('text filter, 1 character, a handful of matches: first page and count', 'text1rare', 100);
  row('text filter, 2 characters, thousands of matches: first page and count', 'text2common', 100);
  row('text filter, 2 characters, a handful of matches: first page and count', 'text2rare', 100);
  row('text filter, 3+ characters, thousands of matches: first page and count', 'text3common', 100);
  row('text filter, 3+ characters, a handful of matches: first page and count', 'text3rare', 100);
  row('status filter, first page and count', 'status', 100);
  row('premium filter, first page and count', 'premium', 100);
  const first = inserts[0] ?? Number.NaN;
  const last = inserts.at(-1) ?? Number.NaN;
  record(
    'ledger recordKeys of 100,000 keys into 900,000 (into an empty ledger in "baseline"; ratio = growth)',
    fmt(last, 'ms'),
    fmt(first, 'ms'),
    last / first,
    'reported',
    true,
  );
}
