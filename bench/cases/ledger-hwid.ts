// `ledger-hwid`: what a lookup that finds many keys activated pays for their HWID text-index entries (at rowid -id):
// FTS5 writes out what a statement holds each time an entry comes at a lower rowid than the last. Two figures on
// copies of one file, alternating: `order`, the ledger's upsert with the rows by id descending ÷ in key order (the
// same statement); `code`, LocalDb.recordKeys (those rows last, by id descending) ÷ the upsert in key order.
// Both copies must end with the same text index.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { LocalDb } from '../../src/main/store/local-db.ts';
import { generateKeyValues } from '../../src/sandbox/keygen.ts';
import type { Key } from '../../src/shared/domain.ts';
import { ledgerKey } from '../lib/ledger-key.ts';
import { work } from '../lib/sandbox.ts';
import { fmt, median, msList } from '../lib/stats.ts';
import { record } from '../lib/table.ts';

/** LocalDb's upsert of a lookup's keys (upsertKeys), as it stands. */
const UPSERT = `INSERT INTO ledger (profile_id, value, note, status, is_premium, expires_at, hwid, created_at, last_seen_at, search, days_key, hwid_chars)
  SELECT ?1, v ->> '$[0]', v ->> '$[1]', v ->> '$[2]', v ->> '$[3]', v ->> '$[4]', v ->> '$[5]', v ->> '$[6]', ?2, v ->> '$[7]', v ->> '$[8]', length(v ->> '$[9]')
  FROM (SELECT value AS v FROM json_each(?3)) WHERE true
  ON CONFLICT (profile_id, value) DO UPDATE SET note = excluded.note, status = excluded.status, is_premium = excluded.is_premium,
    expires_at = excluded.expires_at, hwid = excluded.hwid, created_at = coalesce(excluded.created_at, ledger.created_at),
    last_seen_at = excluded.last_seen_at, search = excluded.search, days_key = excluded.days_key, expiry_stale = 0, hwid_chars = excluded.hwid_chars`;

interface HwidTiming {
  /** ms per round: the baseline's (key order, one statement) and the alternative's (id descending, or LocalDb). */
  baseMs: number[];
  otherMs: number[];
  /** Both copies ended with the same text index (every trigram with its entry count). */
  sameIndex: boolean;
}

const PROFILE = 'bench';
const SEEN = '2026-11-23T00:00:00.000Z';
/** The ledger writer's page cache (writer.ts). */
const CACHE_KIB = 8 * 1024;

function open(file: string): DatabaseSync {
  const db = new DatabaseSync(file);
  db.function('js_lower', { deterministic: true }, (s) => String(s).toLowerCase());
  db.exec(`PRAGMA cache_size = -${CACHE_KIB}`);
  // The file read once, as the ledger writer's long-lived connection finds it: what is timed is the write.
  db.prepare('SELECT count(*), sum(length(search)) FROM ledger').get();
  db.prepare('SELECT count(*), sum(length(block)) FROM ledger_text_data').get();
  return db;
}

function timed(file: string, write: (db: DatabaseSync) => void): number {
  const db = open(file);
  try {
    const t = performance.now();
    db.exec('BEGIN IMMEDIATE');
    write(db);
    db.exec('COMMIT');
    return performance.now() - t;
  } finally {
    db.close();
  }
}

function indexOf(file: string): string {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return JSON.stringify(db.prepare('SELECT term, doc FROM ledger_trigrams ORDER BY term').all());
  } finally {
    db.close();
  }
}

/** `rows` generated keys recorded in five batches (ids follow key order within each, as generates make them). */
function template(dir: string, rows: number): { file: string; values: string[] } {
  const file = join(dir, 'template.db');
  const values = generateKeyValues(rows);
  const db = new LocalDb(file);
  for (let b = 0; b < 5; b++) {
    const keys = values
      .filter((_, i) => i % 5 === b)
      .map((value) => ledgerKey(value, { note: `batch ${b}`, createdAt: '2026-01-01T00:00:00.000Z' }));
    db.recordKeys(PROFILE, keys, SEEN);
  }
  db.close();
  return { file, values };
}

/** A write on a copy of the file, timed: in one transaction on a connection opened here, or by LocalDb itself. */
type Side = (file: string) => number;
const inTx =
  (write: (db: DatabaseSync) => void): Side =>
  (file) =>
    timed(file, write);

function alternate(dir: string, file: string, rounds: number, base: Side, other: Side): HwidTiming {
  const timing: HwidTiming = { baseMs: [], otherMs: [], sameIndex: true };
  for (let round = 0; round < rounds; round++) {
    const a = join(dir, `a-${round}.db`);
    const b = join(dir, `b-${round}.db`);
    copyFileSync(file, a);
    copyFileSync(file, b);
    // Alternating which goes first, so a burst of other load lands on both sides.
    if (round % 2 === 0) {
      timing.baseMs.push(base(a));
      timing.otherMs.push(other(b));
    } else {
      timing.otherMs.push(other(b));
      timing.baseMs.push(base(a));
    }
    if (round === 0) timing.sameIndex = indexOf(a) === indexOf(b);
    for (const f of [a, b]) rmSync(f, { force: true });
  }
  return timing;
}

/** The activation lookup's rows as upsertKeys makes them, in key order or by id descending. */
function activationRows(file: string, values: readonly string[], byIdDesc: boolean): unknown[][] {
  const db = new DatabaseSync(file, { readOnly: true });
  const rows = db.prepare('SELECT value, note, id FROM ledger').all() as { value: string; note: string; id: number }[];
  db.close();
  const byValue = new Map(rows.map((r) => [r.value, r]));
  const out = values.map((value) => {
    const r = byValue.get(value) as { value: string; note: string; id: number };
    const hwid = `HW-${(r.id * 2_654_435_761) % 4_294_967_296}-PC`;
    return {
      id: r.id,
      row: [
        value,
        r.note,
        'active',
        0,
        null,
        hwid,
        '2026-01-01T00:00:00.000Z',
        `${value}\n${r.note}\n`.toLowerCase() + hwid.toLowerCase(),
        null,
        hwid.toLowerCase(),
      ],
    };
  });
  out.sort(byIdDesc ? (x, y) => y.id - x.id : (x, y) => ((x.row[0] as string) < (y.row[0] as string) ? -1 : 1));
  return out.map((o) => o.row);
}

/** The lookup's keys as the service describes them (activated: a HWID each, the one activationRows gives). */
function activationKeys(file: string, values: readonly string[]): Key[] {
  return activationRows(file, values, false).map((r) =>
    ledgerKey(r[0] as string, { note: r[1] as string, status: 'active', hwid: r[5] as string, createdAt: '2026-01-01T00:00:00.000Z' }),
  );
}

function measureHwidEntries(rows: number, figure: 'order' | 'code', rounds: number): HwidTiming {
  const dir = mkdtempSync(join(work, 'hwid-'));
  try {
    const { file, values } = template(dir, rows);
    let t: HwidTiming;
    const keyOrder = JSON.stringify(activationRows(file, values, false));
    const before = inTx((db) => db.prepare(UPSERT).run(PROFILE, SEEN, keyOrder));
    if (figure === 'order') {
      const idDesc = JSON.stringify(activationRows(file, values, true));
      t = alternate(
        dir,
        file,
        rounds,
        before,
        inTx((db) => db.prepare(UPSERT).run(PROFILE, SEEN, idDesc)),
      );
    } else {
      const keys = activationKeys(file, values);
      const code: Side = (copy) => {
        open(copy).close();
        const db = new LocalDb(copy, { cacheKiB: CACHE_KIB });
        try {
          const start = performance.now();
          db.recordKeys(PROFILE, keys, SEEN);
          return performance.now() - start;
        } finally {
          db.close();
        }
      };
      t = alternate(dir, file, rounds, before, code);
    }
    return t;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function benchLedgerHwid(): void {
  for (const n of [2_000, 10_000]) {
    console.error(
      `ledger-hwid: ${n.toLocaleString('en-US')} keys found activated by a lookup, the ledger's upsert with rows by id descending vs in key order, 5 alternating rounds`,
    );
    const o = measureHwidEntries(n, 'order', 5);
    console.error(`  id descending ${msList(o.otherMs, ', ')} ms; key order ${msList(o.baseMs, ', ')} ms; same index: ${o.sameIndex}`);
    record(
      `ledger upsert of ${n.toLocaleString('en-US')} keys gaining a HWID: rows by id descending (HWID entries in ascending rowid) ÷ in key order (median of 5)`,
      fmt(median(o.otherMs), 'ms'),
      fmt(median(o.baseMs), 'ms'),
      median(o.otherMs) / median(o.baseMs),
      'reported',
      o.sameIndex,
    );
    console.error(
      `ledger-hwid: the same lookup recorded by LocalDb (those rows last, by id descending) vs the upsert before (key order), 5 alternating rounds`,
    );
    const c = measureHwidEntries(n, 'code', 5);
    console.error(`  LocalDb ${msList(c.otherMs, ', ')} ms; before ${msList(c.baseMs, ', ')} ms; same index: ${c.sameIndex}`);
    record(
      `lookup of ${n.toLocaleString('en-US')} keys found activated, recorded by LocalDb ÷ by the upsert before (median of 5; same text index)`,
      fmt(median(c.otherMs), 'ms'),
      fmt(median(c.baseMs), 'ms'),
      median(c.otherMs) / median(c.baseMs),
      'reported (same index)',
      c.sameIndex,
    );
  }
}
