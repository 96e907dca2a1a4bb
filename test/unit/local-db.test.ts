// The app's ledger against a plain model: whichever plan queryLedger picks (dense walk, sparse pass, deep jump),
// every filter, sort, direction and page returns exactly the model's rows, and its count up to the cap.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Writer } from '../../src/main/store/writer.ts';
import { LocalDb, type LedgerFilter, type SettleBatch } from '../../src/main/store/local-db.ts';
import type { Key, LedgerRow, LedgerSortField } from '../../src/shared/domain.ts';
import { LEDGER_COUNT_CAP } from '../../src/shared/rules.ts';
import { tempDir } from '../support/temp-dir.ts';

const PROFILE = 'profile-under-test';
const OTHER = 'another-profile';
// Note labels with known shares of the ledger, so terms land on both sides of the plans' thresholds.
const NOTES: [string, number][] = [
  ['alpha launch', 0.6],
  ['gamma resellers', 0.3],
  ['beta testers', 0.08],
  ['', 0.02],
];
const SORTS: LedgerSortField[] = ['createdAt', 'expiresAt', 'value', 'note', 'status', 'lastSeenAt'];

/** A deterministic pseudo-random sequence, so a failure reproduces. */
function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

function makeKeys(count: number, seed: number): Key[] {
  const r = rng(seed);
  const keys: Key[] = [];
  for (let i = 0; i < count; i++) {
    let pick = r();
    const note = NOTES.find(([, share]) => (pick -= share) < 0)?.[0] ?? '';
    const status = r() < 0.1 ? 'active' : 'generated';
    // Few distinct timestamps, so ties are broken by value; some keys have no expiry or creation time.
    const created = r() < 0.05 ? '' : new Date(Date.UTC(2026, 0, 1 + Math.floor(r() * 40))).toISOString();
    const expiresAt = r() < 0.2 ? null : new Date(Date.UTC(2027, 0, 1 + Math.floor(r() * 30))).toISOString();
    const daysKey = expiresAt === null && r() < 0.5 ? 1 + Math.floor(r() * 90) : null;
    keys.push({
      id: String(i),
      value: `K${Math.floor(r() * 1e9)
        .toString(36)
        .toUpperCase()}-${i.toString(36).toUpperCase()}`,
      note,
      status,
      isPremium: r() < 0.25,
      expire: null,
      expiresByDaysKey: daysKey !== null,
      daysKey,
      expiresAt,
      hwid: status === 'active' ? `HW-${Math.floor(r() * 1e6)}` : null,
      createdAt: created,
      activatedAt: null,
      lastResetAt: null,
      serviceId: 's',
    });
  }
  return keys;
}

const COLUMN: Record<LedgerSortField, (r: LedgerRow) => string | null> = {
  createdAt: (r) => r.createdAt,
  expiresAt: (r) => r.expiresAt,
  value: (r) => r.value,
  note: (r) => r.note,
  status: (r) => r.status,
  lastSeenAt: (r) => r.lastSeenAt,
};

/** SQLite's order: NULL before any text, text by its bytes (all ASCII here), ties broken by value. */
function modelQuery(rows: LedgerRow[], filter: LedgerFilter, field: LedgerSortField, dir: 'asc' | 'desc', offset: number, limit: number) {
  const text = filter.text?.toLowerCase();
  const matching = rows.filter(
    (r) =>
      (!text || `${r.value}\n${r.note}\n${r.hwid ?? ''}`.toLowerCase().includes(text)) &&
      (!filter.status || r.status === filter.status) &&
      (filter.premium === undefined || r.isPremium === filter.premium),
  );
  const cmp = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);
  const sign = dir === 'asc' ? 1 : -1;
  matching.sort((a, b) => sign * (cmp(COLUMN[field](a), COLUMN[field](b)) || cmp(a.value, b.value)));
  return { total: matching.length, values: matching.slice(offset, offset + limit).map((r) => r.value) };
}

/**
 * Seeks after and before the `pick`-th row (modulo) of `order`, the model's order of `all` under `filter` and
 * `sort`, find the model's `limit` rows after it and before it; nothing to check when nothing matches.
 */
function expectSeeksAround(
  db: LocalDb,
  all: LedgerRow[],
  filter: LedgerFilter,
  sort: { field: LedgerSortField; dir: 'asc' | 'desc' },
  order: string[],
  pick: number,
  limit: number,
): void {
  if (order.length === 0) return;
  const i = pick % order.length;
  const row = all.find((r) => r.value === order[i]);
  if (!row) throw new Error('model row missing');
  const cursor = { key: COLUMN[sort.field](row), value: row.value };
  expect(db.seekLedger(PROFILE, filter, sort, { after: cursor }, limit).map((r) => r.value)).toEqual(order.slice(i + 1, i + 1 + limit));
  expect(db.seekLedger(PROFILE, filter, sort, { before: cursor }, limit).map((r) => r.value)).toEqual(
    order.slice(Math.max(0, i - limit), i),
  );
}

function ledgerOf(db: LocalDb): LedgerRow[] {
  return db.queryLedger(PROFILE, {}, { field: 'value', dir: 'asc' }, 0, 1_000_000).rows;
}

describe.each([
  // Larger than the sample, so plans are guessed; smaller, so the sample is the whole ledger.
  { size: 4_000, seed: 7 },
  { size: 600, seed: 11 },
])('ledger queries over $size rows', ({ size, seed }) => {
  let db: LocalDb;
  let all: LedgerRow[];
  let deletedValues: Set<string>;
  const keys = makeKeys(size, seed);

  beforeAll(() => {
    db = new LocalDb(':memory:');
    db.recordKeys(PROFILE, keys, '2026-11-22T10:00:00.000Z');
    // A second profile's rows must never show up, nor count.
    db.recordKeys(OTHER, makeKeys(300, seed + 1), '2026-11-22T10:00:00.000Z');
    // A few rows seen again later, and a few deleted, so last-seen and status vary.
    db.recordKeys(PROFILE, keys.slice(0, 40), '2026-11-22T11:00:00.000Z');
    for (const k of keys.slice(40, 60)) db.markDeleted(PROFILE, k.value, '2026-11-22T12:00:00.000Z');
    all = ledgerOf(db);
    deletedValues = new Set(all.filter((r) => r.status === 'deleted').map((r) => r.value));
  });
  afterAll(() => {
    db.close();
  });

  it('holds every recorded key of the profile once', () => {
    expect(all).toHaveLength(size);
    expect(new Set(all.map((r) => r.value))).toEqual(new Set(keys.map((k) => k.value)));
    expect(all.filter((r) => r.status === 'deleted')).toHaveLength(20);
    const days = new Map(keys.map((k) => [k.value, k.daysKey]));
    expect(all.every((r) => r.daysKey === days.get(r.value))).toBe(true);
    expect(all.some((r) => r.daysKey !== null)).toBe(true);
  });

  it("lists a filter's target values, capped, with the full count", () => {
    for (const filter of [
      {},
      { text: 'alpha' },
      { text: 'beta', premium: true },
      { premium: true },
      { premium: false },
      { status: 'deleted' as const },
      { status: 'generated' as const },
      { text: 'no such text' },
      { text: 'a' },
    ]) {
      const want = modelQuery(all, filter, 'value', 'asc', 0, size).values.filter(
        (v) => filter.status === 'deleted' || !deletedValues.has(v),
      );
      const got = db.ledgerValues(PROFILE, filter, size);
      expect(got.total).toBe(want.length);
      expect([...got.values].sort()).toEqual(want);
      const capped = db.ledgerValues(PROFILE, filter, 7);
      expect(capped.values.length).toBe(Math.min(7, want.length));
      expect(capped.total).toBe(want.length);
      expect(capped.values.every((v) => want.includes(v))).toBe(true);
    }
  });

  it("gives chosen keys' rows in the order asked, skipping unknown keys", () => {
    const values = [keys[5]?.value ?? '', 'NOT-A-KEY', keys[2]?.value ?? '', keys[400]?.value ?? ''];
    expect([...db.iterateLedgerKeys(PROFILE, values)].map((r) => r.value)).toEqual([values[0], values[2], values[3]]);
    expect([...db.iterateLedgerKeys(OTHER, values)]).toEqual([]);
  });

  it("matches the model's rows and counts for every filter, sort and page", () => {
    const someKey = keys[123]?.value ?? '';
    const someHwid = keys.find((k) => k.hwid !== null)?.hwid ?? 'none';
    const terms = [
      undefined,
      'a',
      'alpha',
      'ALPHA launch',
      'gamma',
      'beta',
      'resellers',
      someKey,
      someKey.slice(1, 5).toLowerCase(),
      someHwid,
      'no such text',
      '\n',
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...terms),
        fc.constantFrom(undefined, 'generated', 'active', 'deleted' as const),
        fc.constantFrom(undefined, true, false),
        fc.constantFrom(...SORTS),
        fc.constantFrom('asc' as const, 'desc' as const),
        fc.nat({ max: size + 20 }),
        fc.integer({ min: 1, max: 250 }),
        fc.constantFrom(undefined, 1, 40, 700, 'exact' as const),
        (text, status, premium, field, dir, offset, limit, count) => {
          const filter: LedgerFilter = { text, status, premium };
          const got = db.queryLedger(
            PROFILE,
            filter,
            { field, dir },
            offset,
            limit,
            count === 'exact' ? { exact: true, cap: 1 } : { cap: count },
          );
          const want = modelQuery(all, filter, field, dir, offset, limit);
          // Exact up to the cap; past it, "more than cap". The whole ledger's size is always exact, and so are a
          // status alone (kept per status in ledger_counts) and an exact count.
          const unfiltered = text === undefined && status === undefined && premium === undefined;
          const statusOnly = text === undefined && status !== undefined && premium === undefined;
          const cap = count === 'exact' || unfiltered || statusOnly ? Infinity : (count ?? LEDGER_COUNT_CAP);
          expect(got.totalCapped).toBe(want.total > cap);
          expect(got.total).toBe(want.total > cap ? cap : want.total);
          expect(got.rows.map((r) => r.value)).toEqual(want.values);
          // What "select all matching" acts on: known deleted keys only when the filter asks for them.
          const targets = modelQuery(all, filter, field, dir, 0, size).values.filter(
            (v) => status !== undefined || !deletedValues.has(v),
          ).length;
          expect(got.targetsCapped).toBe(targets > cap);
          expect(got.targets).toBe(targets > cap ? cap : targets);
        },
      ),
      { numRuns: 400, seed },
    );
  }, 60_000); // 400 queries over a 4,000-row ledger: seconds on a loaded machine

  it("seeks the page before or after any row, in the model's order", () => {
    const someKey = keys[77]?.value ?? '';
    fc.assert(
      fc.property(
        fc.constantFrom(undefined, 'alpha', 'beta', someKey.slice(2, 6).toLowerCase(), 'no such text'),
        fc.constantFrom(undefined, 'generated', 'active', 'deleted' as const),
        fc.constantFrom(undefined, true, false),
        fc.constantFrom(...SORTS),
        fc.constantFrom('asc' as const, 'desc' as const),
        fc.nat(),
        fc.integer({ min: 1, max: 120 }),
        (text, status, premium, field, dir, pick, limit) => {
          const filter: LedgerFilter = { text, status, premium };
          const order = modelQuery(all, filter, field, dir, 0, size).values;
          expectSeeksAround(db, all, filter, { field, dir }, order, pick, limit);
        },
      ),
      { numRuns: 300, seed },
    );
  }, 60_000);

  it('walks the whole ledger by seeks, forward and back, at every sort', () => {
    for (const field of SORTS) {
      for (const dir of ['asc', 'desc'] as const) {
        const filter: LedgerFilter = field === 'note' ? { premium: true } : {};
        const order = modelQuery(all, filter, field, dir, 0, size).values;
        const cursorOf = (r: LedgerRow) => ({ key: COLUMN[field](r), value: r.value });
        const forward: string[] = [];
        let page = db.queryLedger(PROFILE, filter, { field, dir }, 0, 97).rows;
        while (page.length > 0) {
          forward.push(...page.map((r) => r.value));
          const last = page.at(-1);
          page = last ? db.seekLedger(PROFILE, filter, { field, dir }, { after: cursorOf(last) }, 97) : [];
        }
        expect(forward, `${field} ${dir} forward`).toEqual(order);
        const back: string[] = [];
        page = db.queryLedger(PROFILE, filter, { field, dir }, Math.max(0, order.length - 97), 97).rows;
        while (page.length > 0) {
          back.unshift(...page.map((r) => r.value));
          const first = page[0];
          page = first ? db.seekLedger(PROFILE, filter, { field, dir }, { before: cursorOf(first) }, 97) : [];
        }
        expect(back, `${field} ${dir} back`).toEqual(order);
      }
    }
  });

  it('answers the same whether a term matches most rows or a handful', () => {
    // Over half (the dense walk), between a quarter and half and under a quarter (the sparse pass).
    for (const [text, low, high] of [
      ['alpha', 0.5, 1],
      ['gamma', 0.25, 0.5],
      ['beta', 0, 0.25],
    ] as const) {
      const got = db.queryLedger(PROFILE, { text }, { field: 'createdAt', dir: 'desc' }, 0, 50);
      const want = modelQuery(all, { text }, 'createdAt', 'desc', 0, 50);
      expect(got.total / size).toBeGreaterThan(low);
      expect(got.total / size).toBeLessThan(high);
      expect(got.total).toBe(want.total);
      expect(got.rows.map((r) => r.value)).toEqual(want.values);
    }
  });
});

describe('deep pages from anchors and the text index, through writes from this connection and another', () => {
  // Anchors every 7 rows and no plain OFFSET at all, so every page over 1,500 rows starts from an anchor; a cap
  // of 5 sends every filter with more matches down the walk along the sort index.
  const file = join(tempDir('keydesk-localdb-'), 'keydesk.db');
  let db: LocalDb;
  let other: LocalDb;
  let keys: Key[];
  let step = 0;

  beforeAll(() => {
    db = new LocalDb(file, { paging: { directOffset: 0, anchorStep: 7 } });
    other = new LocalDb(file);
    keys = makeKeys(1_500, 21);
    db.recordKeys(PROFILE, keys.slice(0, 1_200), '2026-11-22T10:00:00.000Z');
  });
  afterAll(() => {
    db.close();
    other.close();
    rmSync(file, { force: true });
  });

  /** One more write, from a rotating set of writers: each must drop what anchors and counts were worked out. */
  function write(): void {
    step++;
    // Every writer in turn, each right after a query that cached anchors.
    const at = `2026-11-22T12:${String(step % 60).padStart(2, '0')}:00.000Z`;
    const k = keys[(step * 37) % 1_200];
    if (!k) throw new Error('no key');
    switch (step % 5) {
      case 0:
        db.recordKeys(PROFILE, keys.slice(1_200 + step * 3, 1_200 + step * 3 + 3), at);
        break;
      case 1:
        db.markDeleted(PROFILE, k.value, at);
        break;
      case 2:
        db.recordReportedFields(PROFILE, { ...k, note: `renamed ${step} beta`, hwid: null }, at);
        break;
      case 3:
        // Another connection on the same file (a writer thread would be one): this one learns of it by data_version.
        other.recordKeys(PROFILE, [{ ...k, note: `moved ${step} alpha`, status: 'active', createdAt: null }], at);
        break;
      default:
        other.markDeleted(PROFILE, k.value, at);
    }
  }

  it("matches the model's page at any offset, sort and filter during writes", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(undefined, 'alpha', 'a', 'be', 'beta', 'renamed', 'moved'),
        fc.constantFrom(undefined, 'generated', 'active', 'deleted' as const),
        fc.constantFrom(undefined, true, false),
        fc.constantFrom(...SORTS),
        fc.constantFrom('asc' as const, 'desc' as const),
        fc.nat({ max: 1_600 }),
        fc.integer({ min: 1, max: 60 }),
        (text, status, premium, field, dir, offset, limit) => {
          const filter: LedgerFilter = { text, status, premium };
          // A status alone is counted exactly (ledger_counts), as is the whole ledger.
          const capped = filter.text || filter.premium !== undefined ? 5 : Infinity;
          // The page, then the same page after a write (its anchors were cached by the first), on both connections.
          for (let round = 0; round < 2; round++) {
            if (round === 1) write();
            const want = modelQuery(ledgerOf(db), filter, field, dir, offset, limit);
            for (const reader of [db, other]) {
              const got = reader.queryLedger(PROFILE, filter, { field, dir }, offset, limit, { cap: 5 });
              expect(got.rows.map((r) => r.value)).toEqual(want.values);
              expect(got.total).toBe(Math.min(want.total, capped));
            }
          }
        },
      ),
      { numRuns: 250, seed: 5 },
    );
    expect(step).toBeGreaterThan(50);
  }, 120_000);

  it('seeks around any row of a sparse or dense filter during writes', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(undefined, 'alpha', 'beta', 'renamed', 'hw-', 'k'),
        fc.constantFrom(undefined, 'active', 'deleted' as const),
        fc.constantFrom(...SORTS),
        fc.constantFrom('asc' as const, 'desc' as const),
        fc.nat(),
        fc.integer({ min: 1, max: 80 }),
        (text, status, field, dir, pick, limit) => {
          write();
          const filter: LedgerFilter = { text, status };
          const all = ledgerOf(db);
          const order = modelQuery(all, filter, field, dir, 0, all.length).values;
          expectSeeksAround(db, all, filter, { field, dir }, order, pick, limit);
        },
      ),
      { numRuns: 120, seed: 9 },
    );
  }, 120_000);
});

describe('the text filter', () => {
  // Notes from a small alphabet with quotes, FTS syntax, spaces, capitals and letters outside ASCII, so short
  // and long terms, and terms that look like index queries, all have matches to find or to miss.
  const ALPHABET = ['a', 'b', 'É', 'é', 'ß', '"', '*', ' ', '-', ':', '(', 'AND', 'x', 'Ω', '😀'];
  function notedKeys(count: number, seed: number): Key[] {
    const r = rng(seed);
    return makeKeys(count, seed).map((k) => ({
      ...k,
      note: Array.from({ length: Math.floor(r() * 9) }, () => ALPHABET[Math.floor(r() * ALPHABET.length)]).join(''),
    }));
  }

  it('finds the term in value, note or HWID, any case, any length', () => {
    const db = new LocalDb(':memory:');
    const keys = notedKeys(2_000, 31);
    db.recordKeys(PROFILE, keys, '2026-11-22T10:00:00.000Z');
    // Notes rewritten afterwards: the index must follow each row's new text, not keep its old one.
    db.recordKeys(
      PROFILE,
      notedKeys(2_000, 32)
        .slice(0, 500)
        .map((k, i) => ({ ...k, value: keys[i]?.value ?? '' })),
      '2026-11-22T11:00:00.000Z',
    );
    const all = ledgerOf(db);
    const texts = all.map((r) => `${r.value}\n${r.note}\n${r.hwid ?? ''}`);
    fc.assert(
      fc.property(
        fc.nat(),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 1, max: 9 }),
        fc.boolean(),
        fc.constantFrom(undefined, 'active' as const),
        (pick, start, length, upper, status) => {
          const source = Array.from(texts[pick % texts.length] ?? '');
          const piece = source.slice(start % source.length, (start % source.length) + length).join('');
          const term = upper ? piece.toUpperCase() : piece;
          const filter: LedgerFilter = { text: term, status };
          const want = modelQuery(all, filter, 'value', 'asc', 0, 50);
          const got = db.queryLedger(PROFILE, filter, { field: 'value', dir: 'asc' }, 0, 50, { exact: true });
          expect(got.total, JSON.stringify(term)).toBe(want.total);
          expect(got.rows.map((r) => r.value)).toEqual(want.values);
          // Capped at 3: past it, the count stops and the page is read along the sort index.
          const capped = db.queryLedger(PROFILE, filter, { field: 'value', dir: 'asc' }, 0, 50, { cap: 3 });
          expect(capped.total).toBe(Math.min(want.total, 3));
          expect(capped.totalCapped).toBe(want.total > 3);
          expect(capped.rows.map((r) => r.value)).toEqual(want.values);
          expect(db.ledgerValues(PROFILE, filter, 10_000).total).toBe(
            modelQuery(all, filter, 'value', 'asc', 0, 0).total -
              (status ? 0 : all.filter((r) => r.status === 'deleted' && modelQuery([r], filter, 'value', 'asc', 0, 1).total === 1).length),
          );
        },
      ),
      { numRuns: 400, seed: 3 },
    );
    for (const term of ['"', '""', 'AND', '* ', '(', 'a:b', 'NEAR', '😀', 'ω', 'SS', 'no such text at all']) {
      const want = modelQuery(all, { text: term }, 'createdAt', 'desc', 0, 100);
      const got = db.queryLedger(PROFILE, { text: term }, { field: 'createdAt', dir: 'desc' }, 0, 100);
      expect(got.total, term).toBe(want.total);
      expect(
        got.rows.map((r) => r.value),
        term,
      ).toEqual(want.values);
    }
    db.close();
  }, 120_000);
});

describe('the text filter through HWID changes', () => {
  it('matches the model as keys are activated, reset, re-bound and deleted', () => {
    const file = join(tempDir('keydesk-localdb-'), 'keydesk.db');
    const db = new LocalDb(file);
    const r = rng(71);
    // HWIDs that share text with notes and with their own key's value, so a term can be held by a key's value or
    // note and its HWID at once (one row, never two), or by the HWID alone.
    const hwidOf = (k: Key, n: number): string =>
      [`HW-${k.value.slice(1, 6)}`, `Alpha-${n}`, `é${n % 7}ß`, `gamma ${k.value.slice(-3)}`][n % 4] ?? '';
    const keys = makeKeys(1_500, 71).map((k, i) => ({ ...k, hwid: k.hwid === null ? null : hwidOf(k, i) }));
    // One profile only: a short term's count then comes from the index alone (exactCandidates).
    db.recordKeys(PROFILE, keys, '2026-11-22T10:00:00.000Z');
    const seenTexts: string[] = [];
    const check = (step: string): void => {
      const all = ledgerOf(db);
      const texts = all.map((x) => `${x.value}\n${x.note}\n${x.hwid ?? ''}`);
      seenTexts.push(...texts.filter((t) => !t.endsWith('\n')));
      for (let n = 0; n < 60; n++) {
        // Pieces of the rows as they are and as they were (a HWID since reset must no longer be found).
        const source = Array.from(
          (n % 2 === 0 ? texts : seenTexts)[Math.floor(r() * (n % 2 === 0 ? texts.length : seenTexts.length))] ?? '',
        );
        const start = Math.floor(r() * source.length);
        const term = source.slice(start, start + 1 + Math.floor(r() * 6)).join('');
        for (const filter of [{ text: term }, { text: term.toUpperCase(), status: 'active' as const }]) {
          const want = modelQuery(all, filter, 'createdAt', 'desc', 0, 40);
          const got = db.queryLedger(PROFILE, filter, { field: 'createdAt', dir: 'desc' }, 0, 40, { exact: true });
          expect(got.total, `${step}: ${JSON.stringify(filter)}`).toBe(want.total);
          expect(
            got.rows.map((x) => x.value),
            `${step}: ${JSON.stringify(filter)}`,
          ).toEqual(want.values);
          const capped = db.queryLedger(PROFILE, filter, { field: 'createdAt', dir: 'desc' }, 0, 40, { cap: 5 });
          expect(capped.total, `${step}: ${JSON.stringify(filter)} capped`).toBe(Math.min(want.total, 5));
          expect(capped.rows.map((x) => x.value)).toEqual(want.values);
          const targets = modelQuery(
            all.filter((x) => filter.status !== undefined || x.status !== 'deleted'),
            filter,
            'value',
            'asc',
            0,
            0,
          ).total;
          expect(db.ledgerValues(PROFILE, filter, 10_000).total, `${step}: ${JSON.stringify(filter)} targets`).toBe(targets);
        }
      }
    };
    check('recorded');
    // Activated: keys without a HWID get one.
    const activated = keys
      .filter((k) => k.hwid === null)
      .slice(0, 300)
      .map((k, i) => ({ ...k, status: 'active' as const, hwid: hwidOf(k, i + 1) }));
    db.recordKeys(PROFILE, activated, '2026-11-22T11:00:00.000Z');
    check('activated');
    // Reset by a bulk job: answers describing the key (no HWID now), and answers that only said it was done.
    const withHwid = ledgerOf(db).filter((x) => x.hwid !== null);
    const described = withHwid
      .slice(0, 200)
      .map((x) => ({ ...(keys.find((k) => k.value === x.value) as Key), status: 'active' as const, hwid: null, note: x.note }));
    db.createJob(
      { id: 'job-1', profileId: PROFILE, action: 'resetHwid', params: '{}', createdAt: '2026-11-22T12:00:00.000Z' },
      { keyValues: withHwid.map((x) => x.value) },
    );
    db.jobStep(
      {
        jobId: 'job-1',
        profileId: PROFILE,
        items: [],
        seenKeys: described,
        hwidCleared: withHwid.slice(200, 320).map((x) => x.value),
        deletedValues: [],
        audit: [],
      },
      null,
      '2026-11-22T12:00:00.000Z',
    );
    check('reset');
    // A new HWID where there was one, the key described in part, and some deleted.
    const moved = withHwid.slice(320, 420).map((x, i) => ({
      ...(keys.find((k) => k.value === x.value) as Key),
      status: 'active' as const,
      note: x.note,
      hwid: hwidOf(keys[i] as Key, i + 2),
      unreported: ['status' as const],
    }));
    for (const k of moved) db.recordReportedFields(PROFILE, k, '2026-11-22T13:00:00.000Z');
    for (const x of withHwid.slice(420, 460)) db.markDeleted(PROFILE, x.value, '2026-11-22T13:00:00.000Z');
    check('moved');
    // Counted from the index alone (a term of 3 characters, one profile), under a cap of 5: a HWID's entries gone
    // with its reset, and a key holding the term in its note and its HWID counted once.
    const fresh = ledgerOf(db)
      .filter((x) => x.hwid === null && x.status !== 'deleted')
      .slice(0, 16);
    const gone = fresh
      .slice(0, 12)
      .map((x) => ({ ...(keys.find((k) => k.value === x.value) as Key), note: x.note, status: 'active' as const, hwid: `ЖЖЖ-${x.value}` }));
    const twice = fresh.slice(12, 16).map((x) => ({
      ...(keys.find((k) => k.value === x.value) as Key),
      note: `ђђђ ${x.note}`,
      status: 'active' as const,
      hwid: `ђђђ-${x.value}`,
    }));
    db.recordKeys(PROFILE, [...gone, ...twice], '2026-11-22T14:00:00.000Z');
    db.jobStep(
      {
        jobId: 'job-1',
        profileId: PROFILE,
        items: [],
        seenKeys: gone.slice(0, 5).map((k) => ({ ...k, hwid: null })),
        hwidCleared: gone.slice(5, 9).map((k) => k.value),
        deletedValues: [],
        audit: [],
      },
      null,
      '2026-11-22T15:00:00.000Z',
    );
    for (const [term, want] of [
      ['жжж', gone.slice(9)],
      ['ђђђ', twice],
    ] as const) {
      const got = db.queryLedger(PROFILE, { text: term }, { field: 'value', dir: 'asc' }, 0, 40, { cap: 5 });
      expect({ total: got.total, capped: got.totalCapped, rows: got.rows.map((x) => x.value) }, term).toEqual({
        total: want.length,
        capped: false,
        rows: want.map((k) => k.value).sort(),
      });
    }
    check('short terms');
    // The index agrees with the rows: each key's value and note in one entry, its HWID (if any) in another.
    const raw = new DatabaseSync(file);
    expect(() => {
      raw.exec("INSERT INTO ledger_text (ledger_text) VALUES ('integrity-check')");
    }).not.toThrow();
    expect(raw.prepare('SELECT count(*) AS n FROM ledger_text WHERE rowid < 0').get()).toEqual(
      raw.prepare('SELECT count(*) AS n FROM ledger WHERE hwid_chars > 0').get(),
    );
    expect(raw.prepare("SELECT count(*) AS n FROM ledger WHERE hwid <> '' AND hwid_chars = 0").get()).toEqual({ n: 0 });
    raw.close();
    db.close();
    rmSync(file, { force: true });
  }, 120_000);
});

describe('anchors found ahead of need and kept through writes (ledger_log)', () => {
  // Anchors every 7 rows and no plain OFFSET: every page starts from a block. A reader more than 300 log entries
  // behind finds its anchors again; fewer, it moves their counts.
  const file = join(tempDir('keydesk-anchors-'), 'keydesk.db');
  let db: LocalDb;
  let writer: Writer;
  let keys: Key[];

  beforeAll(() => {
    db = new LocalDb(file, { paging: { directOffset: 0, anchorStep: 7, logCatchUp: 300 } });
    keys = makeKeys(2_400, 41);
    db.recordKeys(PROFILE, keys.slice(0, 1_000), '2026-11-22T10:00:00.000Z');
    db.recordKeys(OTHER, makeKeys(200, 42), '2026-11-22T10:00:00.000Z');
    writer = new Writer({ file });
  });
  afterAll(async () => {
    await writer.close();
    db.close();
    rmSync(file, { force: true });
  });

  const FILTERS: LedgerFilter[] = [{}, { status: 'generated' }, { premium: true }, { status: 'active', premium: false }, { text: 'alpha' }];

  /** Every filter's pages at depths spread over its order, at every sort and direction, against the model. */
  function expectModelPages(label: string): void {
    const all = ledgerOf(db);
    for (const filter of FILTERS) {
      for (const field of SORTS) {
        for (const dir of ['asc', 'desc'] as const) {
          const total = modelQuery(all, filter, field, dir, 0, 0).total;
          for (const offset of [0, 6, 7, Math.floor(total / 3), Math.floor(total / 2) + 1, total - 5, total + 3]) {
            const want = modelQuery(all, filter, field, dir, Math.max(0, offset), 9).values;
            const got = db.queryLedger(PROFILE, filter, { field, dir }, Math.max(0, offset), 9).rows.map((r) => r.value);
            expect(got, `${label}: ${JSON.stringify(filter)} ${field} ${dir} at ${offset}`).toEqual(want);
          }
        }
      }
    }
  }

  it("prepares every sort in slices, each page then the model's", () => {
    // A zero budget still makes progress, one block per call, until nothing is left.
    let calls = 0;
    while (db.prepareLedger(PROFILE, 0)) calls++;
    expect(calls).toBeGreaterThan(100);
    expect(db.prepareLedger(PROFILE, 0)).toBe(false);
    expectModelPages('prepared');
  }, 120_000);

  it("keeps deep pages the model's through the writer thread's writes", async () => {
    let next = 1_000;
    const fresh = (n: number, createdAt: string | null): Key[] =>
      keys.slice(next, (next += n)).map((k) => ({ ...k, createdAt: createdAt ?? k.createdAt }));
    const writes: [string, () => Promise<unknown>][] = [
      // Forty keys created after every other: one block of the created order grows past its limit and is cut.
      ['40 newest keys', () => writer.recordKeys(PROFILE, fresh(40, '2027-06-01T00:00:00.000Z'), '2026-11-22T13:00:00.000Z')],
      ['40 keys with no creation time', () => writer.recordKeys(PROFILE, fresh(40, ''), '2026-11-22T13:01:00.000Z')],
      ['a key deleted', () => writer.markDeleted(PROFILE, keys[10]?.value ?? '', '2026-11-22T13:02:00.000Z')],
      [
        'a note and HWID rewritten',
        () =>
          writer.recordReportedFields(PROFILE, { ...(keys[20] as Key), note: 'zzz moved alpha', hwid: null }, '2026-11-22T13:03:00.000Z'),
      ],
      // Seen again with another status and premium: each row moves in the last-seen order and in and out of filters.
      [
        '60 keys seen again, activated, premium flipped',
        () =>
          writer.recordKeys(
            PROFILE,
            keys.slice(100, 160).map((k) => ({ ...k, status: 'active', isPremium: !k.isPremium })),
            '2026-11-22T13:04:00.000Z',
          ),
      ],
      ['another profile’s keys', () => writer.recordKeys(OTHER, makeKeys(30, 43), '2026-11-22T13:05:00.000Z')],
      // More entries than a reader applies: its anchors are found again.
      ['500 keys seen again', () => writer.recordKeys(PROFILE, keys.slice(200, 700), '2026-11-22T13:06:00.000Z')],
      [
        'the same key written twice in one write',
        () =>
          writer.recordKeys(
            PROFILE,
            [
              { ...(keys[5] as Key), note: 'first' },
              { ...(keys[5] as Key), note: 'again', status: 'active' },
            ],
            '2026-11-22T13:07:00.000Z',
          ),
      ],
    ];
    for (const [label, write] of writes) {
      await write();
      expectModelPages(`after ${label}`);
    }
  }, 300_000);

  it('counts its own writes and those of another reading connection', () => {
    const other = new LocalDb(file, { paging: { directOffset: 0, anchorStep: 7 } });
    try {
      while (other.prepareLedger(PROFILE, 50));
      for (let i = 0; i < 6; i++) {
        const k = keys[300 + i] as Key;
        if (i % 2 === 0)
          other.recordKeys(PROFILE, [{ ...k, note: `own ${i}`, createdAt: '2020-01-01T00:00:00.000Z' }], `2026-11-22T14:0${i}:00.000Z`);
        else db.markDeleted(PROFILE, k.value, `2026-11-22T14:0${i}:00.000Z`);
        const all = ledgerOf(db);
        for (const reader of [db, other]) {
          for (const field of SORTS) {
            const want = modelQuery(all, {}, field, 'desc', 500, 20).values;
            expect(reader.queryLedger(PROFILE, {}, { field, dir: 'desc' }, 500, 20).rows.map((r) => r.value)).toEqual(want);
          }
        }
      }
    } finally {
      other.close();
    }
  }, 120_000);

  it('runs its background slices between reads and writes without changing any page', async () => {
    const bg = new LocalDb(file, { paging: { directOffset: 0, anchorStep: 7 }, background: true });
    const pause = () => new Promise((resolve) => setTimeout(resolve, 400));
    try {
      // A status filter's deep page: its list, too, is counted on in the background from here on.
      bg.queryLedger(PROFILE, { status: 'generated' }, { field: 'note', dir: 'asc' }, 300, 10);
      for (let i = 0; i < 6; i++) {
        await pause();
        if (i % 2 === 0)
          db.recordKeys(
            PROFILE,
            keys.slice(2_000 + i * 5, 2_005 + i * 5).map((k) => ({ ...k, createdAt: '2019-01-01T00:00:00.000Z' })),
            `2026-11-22T15:0${i}:00.000Z`,
          );
        else await writer.markDeleted(PROFILE, keys[400 + i]?.value ?? '', `2026-11-22T15:0${i}:00.000Z`);
        bg.ledgerWritten();
        await pause();
        const all = ledgerOf(db);
        for (const filter of [{}, { status: 'generated' as const }]) {
          for (const field of SORTS) {
            const want = modelQuery(all, filter, field, 'asc', 300, 10).values;
            expect(
              bg.queryLedger(PROFILE, filter, { field, dir: 'asc' }, 300, 10).rows.map((r) => r.value),
              `${field} after write ${i}`,
            ).toEqual(want);
          }
        }
      }
    } finally {
      bg.close();
    }
  }, 120_000);
  it("gives its page cache back once it has followed the writer's commits", async () => {
    const bg = new LocalDb(file, { paging: { directOffset: 0, anchorStep: 7 }, background: true });
    const released = vi.spyOn(bg, 'releaseMemory');
    // Each background slice's answer, in order: false once there is nothing left to prepare.
    const slices: boolean[] = [];
    const prepare = bg.prepareLedger.bind(bg);
    vi.spyOn(bg, 'prepareLedger').mockImplementation((profileId, budgetMs) => {
      const more = prepare(profileId, budgetMs);
      slices.push(more);
      return more;
    });
    const prepared = () => vi.waitFor(() => expect(slices.at(-1)).toBe(false), { timeout: 60_000, interval: 20 });
    try {
      // A page read: the warming after it keeps what it read, for the next keystroke.
      bg.queryLedger(PROFILE, {}, { field: 'value', dir: 'asc' }, 500, 10);
      await prepared();
      expect(released).not.toHaveBeenCalled();
      // The writer commits: following its changes ends by giving the pages back, once.
      await writer.recordKeys(PROFILE, keys.slice(2_100, 2_160), '2026-11-22T16:00:00.000Z');
      slices.length = 0;
      bg.ledgerWritten();
      await prepared();
      expect(released).toHaveBeenCalledTimes(1);
      // The next page read's warming keeps the cache again.
      slices.length = 0;
      bg.queryLedger(PROFILE, {}, { field: 'note', dir: 'desc' }, 700, 10);
      await prepared();
      expect(released).toHaveBeenCalledTimes(1);
    } finally {
      bg.close();
    }
  }, 120_000);
});

describe('the text filter’s trigram choice', () => {
  it("matches the model whether a term's trigrams are rare, known or common", () => {
    // Thresholds scaled down so a 3,000-row ledger has trigrams of every kind: rare (≤ 20 rows), known (≤ 200)
    // and common; "abc" and "bcd" both common, "abcd" in a few rows only.
    const db = new LocalDb(':memory:', { paging: { rareTrigram: 20, knownTrigram: 200 } });
    const r = rng(61);
    const words = ['abc x bcd', 'abcd', 'alpha', 'beta', 'gamma', 'zeta 42', 'omega'];
    const keys = makeKeys(3_000, 61).map((k, i) => ({
      ...k,
      note: `${words[Math.floor(r() * words.length)] ?? ''} ${i % 50} ${r() < 0.01 ? 'abcdx' : ''}`,
    }));
    db.recordKeys(PROFILE, keys, '2026-11-22T10:00:00.000Z');
    const all = ledgerOf(db);
    for (const text of [
      'abcd',
      'abcdx',
      'abc x',
      'bcd',
      'alpha 4',
      'zeta 42 1',
      'a 4',
      ' 4',
      'ga 3',
      'omega 49',
      'x bcd 7',
      keys[9]?.value.slice(2, 9) ?? '',
    ]) {
      for (const cap of [5, 100, 10_000]) {
        const want = modelQuery(all, { text }, 'createdAt', 'desc', 0, 30);
        const got = db.queryLedger(PROFILE, { text }, { field: 'createdAt', dir: 'desc' }, 0, 30, { cap });
        expect(
          got.rows.map((x) => x.value),
          `${text} cap ${cap}`,
        ).toEqual(want.values);
        // "More than" exactly when more match: the count never says what is not true.
        expect(got.totalCapped, `${text} cap ${cap}`).toBe(want.total > cap);
        expect(got.total, `${text} cap ${cap}`).toBe(Math.min(want.total, cap));
      }
      expect(db.queryLedger(PROFILE, { text }, { field: 'value', dir: 'asc' }, 0, 1, { exact: true }).total).toBe(
        modelQuery(all, { text }, 'value', 'asc', 0, 0).total,
      );
    }
    db.close();
  }, 120_000);
});

describe('the text filter past its cap', () => {
  it('counts only rows holding the whole term, not scattered trigrams', () => {
    const db = new LocalDb(':memory:');
    const base = makeKeys(6, 51);
    // Each note holds "abc" and "bcd" but never "abcd"; each HWID ends in "4", so its text never holds "4\n".
    db.recordKeys(
      PROFILE,
      base.map((k, i) => ({ ...k, note: `abc x bcd ${i}`, hwid: `HW-${i}4`, status: 'active' })),
    );
    for (const term of ['abcd', '4\n', 'bc', 'abc']) {
      const all = ledgerOf(db);
      const want = modelQuery(all, { text: term }, 'value', 'asc', 0, 10);
      const got = db.queryLedger(PROFILE, { text: term }, { field: 'value', dir: 'asc' }, 0, 10, { cap: 1 });
      expect(got.total, JSON.stringify(term)).toBe(Math.min(want.total, 1));
      expect(got.totalCapped, JSON.stringify(term)).toBe(want.total > 1);
      expect(
        got.rows.map((r) => r.value),
        JSON.stringify(term),
      ).toEqual(want.values);
    }
    db.close();
  });
});

describe('ledger size', () => {
  it('counts keys recorded after an earlier query', () => {
    const db = new LocalDb(':memory:');
    const keys = makeKeys(1_500, 3);
    db.recordKeys(PROFILE, keys.slice(0, 1_000));
    expect(db.queryLedger(PROFILE, {}, { field: 'value', dir: 'asc' }, 0, 10).total).toBe(1_000);
    expect(db.queryLedger(PROFILE, { text: 'beta' }, { field: 'value', dir: 'asc' }, 0, 10).total).toBe(
      keys.slice(0, 1_000).filter((k) => k.note.includes('beta')).length,
    );
    db.recordKeys(PROFILE, keys.slice(1_000));
    expect(db.queryLedger(PROFILE, {}, { field: 'value', dir: 'asc' }, 0, 10).total).toBe(1_500);
    expect(db.queryLedger(PROFILE, { text: 'beta' }, { field: 'value', dir: 'asc' }, 0, 10).total).toBe(
      keys.filter((k) => k.note.includes('beta')).length,
    );
    db.close();
  });
});

describe('the audit log', () => {
  it('finds entries by operation name or target, and pages through all', () => {
    const db = new LocalDb(':memory:');
    for (let i = 0; i < 250; i++) {
      const action = i % 5 === 0 ? 'keys.generate' : 'keys.extend';
      db.audit({ profileId: PROFILE, profileName: 'Shop', action, target: `KEY-${i}`, outcome: 'ok', message: '' });
    }
    expect(db.listAudit({ text: 'generate' }, 0, 100).total).toBe(50);
    expect(db.listAudit({ text: 'generate' }, 0, 100).entries.every((e) => e.action === 'keys.generate')).toBe(true);
    expect(
      db
        .listAudit({ text: 'KEY-24' }, 0, 100)
        .entries.map((e) => e.target)
        .sort(),
    ).toEqual(['KEY-24', 'KEY-240', 'KEY-241', 'KEY-242', 'KEY-243', 'KEY-244', 'KEY-245', 'KEY-246', 'KEY-247', 'KEY-248', 'KEY-249']);
    const seen = new Set<number>();
    for (let offset = 0; offset < 250; offset += 100) for (const e of db.listAudit({}, offset, 100).entries) seen.add(e.id);
    expect(seen.size).toBe(250);
    db.close();
  });
});

describe('the audit log found by the words Activity shows', () => {
  it('finds an operation by the words of its Operation column', () => {
    const db = new LocalDb(':memory:');
    db.audit({ profileId: PROFILE, profileName: 'Shop', action: 'executions.push', target: 'execution count', outcome: 'ok', message: '' });
    db.audit({ profileId: PROFILE, profileName: 'Shop', action: 'keys.delete', target: 'KEY-1', outcome: 'ok', message: '' });
    db.audit({
      profileId: PROFILE,
      profileName: 'Shop',
      action: 'keys.delete',
      target: 'KEY-2',
      outcome: 'failed',
      message: 'The service refused',
    });
    db.audit({ profileId: PROFILE, profileName: 'Shop', action: 'keyless.delete', target: 'HW-1', outcome: 'ok', message: '' });
    db.audit({ profileId: PROFILE, profileName: 'Shop', action: 'keys.bulk', target: '3 keys', outcome: 'ok', message: '' });
    const actions = (text: string) =>
      db
        .listAudit({ text }, 0, 100)
        .entries.map((e) => e.action)
        .sort();
    expect(actions('Push an execution')).toEqual(['executions.push']);
    // A part of the words, as with targets and messages: "Delete a key" is also the start of "Delete a keyless entry".
    expect(actions('delete a key')).toEqual(['keyless.delete', 'keys.delete', 'keys.delete']);
    expect(actions('Delete a keyless entry')).toEqual(['keyless.delete']);
    expect(actions('Bulk action on keys')).toEqual(['keys.bulk']);
    expect(db.listAudit({ text: 'Delete a key', outcome: 'failed' }, 0, 100).total).toBe(1);
    expect(actions('KEY-2')).toEqual(['keys.delete']);
    expect(actions('refused')).toEqual(['keys.delete']);
    expect(actions('keys.delete')).toEqual(['keys.delete', 'keys.delete']);
    expect([...db.iterateAudit({ text: 'Push an execution' })].map((e) => e.action)).toEqual(['executions.push']);
    db.close();
  });
});

describe('the jobs a window finds after a reload', () => {
  it('lists the 20 newest and every running or interrupted job, per profile', () => {
    const db = new LocalDb(':memory:');
    const at = (minute: number): string => new Date(Date.UTC(2026, 10, 23, 6, minute)).toISOString();
    const make = (id: string, minute: number, profileId = PROFILE): void => {
      db.createJob({ id, profileId, action: 'extend', params: '{"days":1}', createdAt: at(minute) }, { keyValues: ['K-1'] });
      db.setJobState(id, 'finished', null, at(minute));
    };
    make('old-interrupted', 0);
    make('old-running', 1);
    make('old-cancelled', 2);
    for (let i = 0; i < 25; i++) make(`finished-${String(i)}`, 10 + i);
    make('elsewhere', 3, 'another-profile');
    db.setJobState('old-interrupted', 'interrupted', 'Keydesk stopped while this job ran.', at(5));
    db.setJobState('old-running', 'running', null, null);
    db.setJobState('old-cancelled', 'cancelled', null, at(5));
    db.setJobState('elsewhere', 'interrupted', 'Keydesk stopped while this job ran.', at(5));

    const ids = db.jobs(PROFILE).map((j) => j.id);
    expect(ids).toEqual([...Array.from({ length: 20 }, (_, i) => `finished-${String(24 - i)}`), 'old-running', 'old-interrupted']);
    db.close();
  });
});

describe('a job Keydesk stopped under (a crash, a kill)', () => {
  const at = (minute: number): string => new Date(Date.UTC(2026, 10, 20, 14, minute)).toISOString();
  const answers = (jobId: string, seq: number, state: 'done' | 'pending'): SettleBatch => ({
    jobId,
    profileId: PROFILE,
    items: [{ seq, state, code: null, message: null }],
    seenKeys: [],
    deletedValues: [],
    audit: [],
  });
  const make = (db: LocalDb, id: string): void => {
    db.createJob({ id, profileId: PROFILE, action: 'delete', params: '{}', createdAt: at(0) }, { keyValues: ['K-1', 'K-2', 'K-3'] });
  };

  it("ends at its last answers written, else at its run's start", () => {
    const db = new LocalDb(':memory:');
    make(db, 'answered');
    db.beginJobRun('answered', at(1));
    db.jobStep(null, { jobId: 'answered', max: 3 });
    db.settleJobItems(answers('answered', 1, 'done'), at(2));
    db.settleJobItems(answers('answered', 2, 'done'), at(4));
    // A request refused unsent (put back pending) is no answer.
    db.settleJobItems(answers('answered', 3, 'pending'), at(5));
    make(db, 'silent');
    db.beginJobRun('silent', at(3));
    db.jobStep(null, { jobId: 'silent', max: 1 });
    // Created, never run: its creation is the last thing known.
    make(db, 'never-run');

    expect(db.interruptRunningJobs('Keydesk stopped while this job ran.').sort()).toEqual(['answered', 'never-run', 'silent']);
    expect(db.job('answered')).toMatchObject({ state: 'interrupted', finishedAt: at(4), answeredAt: at(4), runAt: at(1), endUnseen: true });
    expect(db.job('silent')).toMatchObject({ state: 'interrupted', finishedAt: at(3), answeredAt: null, runAt: at(3), endUnseen: true });
    expect(db.job('never-run')).toMatchObject({ state: 'interrupted', finishedAt: at(0), answeredAt: null, runAt: at(0), endUnseen: true });
    expect(db.jobItems('answered', 'unknown', 0, 10).total).toBe(0);
    expect(db.jobItems('silent', 'unknown', 0, 10).total).toBe(1);

    // A quit that records it says when it stopped, seen; a run begun again forgets the last one's answers.
    db.beginJobRun('answered', at(10));
    expect(db.job('answered')).toMatchObject({ state: 'running', finishedAt: null, answeredAt: null, runAt: at(10), endUnseen: false });
    db.interruptRunningJobs('Keydesk quit while this job ran.', at(11));
    expect(db.job('answered')).toMatchObject({ state: 'interrupted', finishedAt: at(11), endUnseen: false });
    db.close();
  });

  it("dates a quit's end no earlier than answers written in its grace", () => {
    const db = new LocalDb(':memory:');
    make(db, 'late-answers');
    db.beginJobRun('late-answers', at(1));
    db.jobStep(null, { jobId: 'late-answers', max: 2 });
    // The quit began at 14:10; an answer on the wire came back in its grace, at 14:11.
    db.settleJobItems(answers('late-answers', 1, 'done'), at(11));
    make(db, 'quiet');
    db.beginJobRun('quiet', at(1));
    db.settleJobItems(answers('quiet', 1, 'done'), at(5));
    // Ended (cancelled) on screen; its last answers are written, its end not yet.
    make(db, 'shown-cancelled');
    db.beginJobRun('shown-cancelled', at(1));
    db.jobStep(null, { jobId: 'shown-cancelled', max: 2 });
    db.settleJobItems(answers('shown-cancelled', 1, 'done'), at(7));
    const end = { jobId: 'shown-cancelled', state: 'cancelled' as const, reason: null, finishedAt: at(8) };

    expect(db.interruptRunningJobs('Keydesk quit while this job ran.', at(10), [end]).sort()).toEqual(['late-answers', 'quiet']);
    expect(db.job('late-answers')).toMatchObject({ state: 'interrupted', finishedAt: at(11), answeredAt: at(11), endUnseen: false });
    expect(db.job('quiet')).toMatchObject({ state: 'interrupted', finishedAt: at(10), endUnseen: false });
    expect(db.job('shown-cancelled')).toMatchObject({ state: 'cancelled', reason: null, finishedAt: at(8), endUnseen: false });
    expect(db.jobCounts('shown-cancelled')).toMatchObject({ done: 1, unknown: 1, pending: 1, sent: 0 });
    // An end already written (by the job writer, late) is not written again.
    db.interruptRunningJobs('Keydesk quit while this job ran.', at(12), [{ ...end, state: 'finished' }]);
    expect(db.job('shown-cancelled')).toMatchObject({ state: 'cancelled' });
    db.close();
  });

  /**
   * A job of six keys whose first run left K-5 and K-6 unknown; its second run (begun at(4), the user chose to send
   * those again) claimed all six ahead of its requests: 1 was answered, 2 and 5 went out with no answer recorded,
   * 3, 4 and 6 were never sent.
   */
  const claimedAheadByARetryRun = (): LocalDb => {
    const db = new LocalDb(':memory:');
    db.createJob(
      { id: 'j', profileId: PROFILE, action: 'delete', params: '{}', createdAt: at(0) },
      { keyValues: ['K-1', 'K-2', 'K-3', 'K-4', 'K-5', 'K-6'] },
    );
    db.beginJobRun('j', at(1));
    db.jobStep(null, { jobId: 'j', max: 6 });
    db.settleJobItems(
      {
        ...answers('j', 5, 'done'),
        items: [5, 6].map((seq) => ({ seq, state: 'unknown' as const, code: 'OUTCOME_UNKNOWN' as const, message: 'No answer.' })),
      },
      at(2),
    );
    db.settleJobItems(
      { ...answers('j', 1, 'pending'), items: [1, 2, 3, 4].map((seq) => ({ seq, state: 'pending' as const, code: null, message: null })) },
      at(2),
    );
    db.endJobRun('j', 'interrupted', 'stopped', at(3));
    db.beginJobRun('j', at(4));
    db.approveUnknownJobItems('j');
    expect(db.jobStep(null, { jobId: 'j', max: 6, retry: true }).map((i) => i.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    db.settleJobItems(answers('j', 1, 'done'), at(5));
    return db;
  };

  it('shows claimed, unsent items as before the claim while running', () => {
    const db = claimedAheadByARetryRun();
    // While it runs, the screen's view: what went out is sent, what did not is as before the claim.
    const shown = (state: 'pending' | 'sent' | 'unknown' | 'done'): number[] =>
      db.jobItems('j', state, 0, 10, false, [3, 4, 6]).items.map((i) => i.seq);
    expect({ pending: shown('pending'), sent: shown('sent'), unknown: shown('unknown'), done: shown('done') }).toEqual({
      pending: [3, 4],
      sent: [2, 5],
      unknown: [6],
      done: [1],
    });
    expect(db.jobItems('j', undefined, 0, 10, false, [3, 4, 6]).items.map((i) => i.state)).toEqual([
      'done',
      'sent',
      'pending',
      'pending',
      'sent',
      'unknown',
    ]);
    // Without the run's list (the file alone), every claimed item reads sent.
    expect(db.jobItems('j', 'sent', 0, 10).total).toBe(5);
    db.close();
  });

  it("never applies another run's send log to this run's claims", () => {
    const db = claimedAheadByARetryRun();
    // Killed here; the next start reads the log (1, 2 and 5: logged before each went out).
    // A log another run left (an older one) is never applied to this run's claims.
    const run = db.job('j')?.runAt ?? null;
    expect(run).toBe(at(4));
    db.interruptRunningJobs('Keydesk stopped while this job ran.', undefined, [], new Map([['j', { run: at(1), sent: new Set([1]) }]]));
    expect(db.jobItems('j', 'unknown', 0, 10).items.map((i) => i.seq)).toEqual([2, 3, 4, 5, 6]);
    db.close();
  });

  it("applies its own run's send log: logged claims unknown, the rest kept", () => {
    const db = claimedAheadByARetryRun();
    db.interruptRunningJobs(
      'Keydesk stopped while this job ran.',
      undefined,
      [],
      new Map([['j', { run: at(4), sent: new Set([1, 2, 5]) }]]),
    );
    const items = db.jobItems('j', undefined, 0, 10).items;
    expect(items.map((i) => [i.seq, i.state, i.code])).toEqual([
      [1, 'done', null],
      [2, 'unknown', 'OUTCOME_UNKNOWN'],
      [3, 'pending', null],
      [4, 'pending', null],
      [5, 'unknown', 'OUTCOME_UNKNOWN'],
      [6, 'unknown', 'OUTCOME_UNKNOWN'],
    ]);
    // The one re-sent with no answer says so; the one the run never re-sent keeps its earlier words.
    expect(items[4]?.message).toBe('Sent when Keydesk stopped; no answer was recorded. It may or may not have taken effect.');
    expect(items[5]?.message).toBe('No answer.');
    db.close();
  });
});

describe('a row marked not read back', () => {
  const key = (): Key => ({
    id: '1',
    value: 'K-MARKED',
    note: '',
    status: 'active',
    isPremium: false,
    expire: null,
    expiresByDaysKey: false,
    daysKey: null,
    expiresAt: '2030-01-01T00:00:00.000Z',
    hwid: 'HW-OLD',
    createdAt: '2026-01-01T00:00:00.000Z',
    activatedAt: null,
    lastResetAt: null,
    serviceId: 's',
  });
  const marks = (db: LocalDb) => {
    const r = ledgerOf(db).find((row) => row.value === 'K-MARKED');
    return { expiry: r?.expiryStale === true, hwid: r?.hwidStale === true, status: r?.statusStale === true };
  };

  it('any nonzero mark reads as marked; a description clears it', () => {
    const file = join(tempDir('keydesk-localdb-'), 'keydesk.db');
    const db = new LocalDb(file);
    db.recordKeys(PROFILE, [key()], '2026-11-20T10:00:00.000Z');
    for (const what of ['expiry', 'hwid', 'status'] as const) db.markStale(PROFILE, what, ['K-MARKED']);
    const raw = new DatabaseSync(file);
    const stored = () =>
      raw.prepare("SELECT expiry_stale AS e, hwid_stale AS h, status_stale AS s FROM ledger WHERE value = 'K-MARKED'").get();
    expect(stored()).toEqual({ e: 1, h: 1, s: 1 });
    // A file from before holds when each row was marked, in ms since the epoch.
    const markedAt = Date.parse('2026-11-20T10:00:05.000Z');
    raw.exec(
      `UPDATE ledger SET expiry_stale = ${markedAt}, hwid_stale = ${markedAt + 1}, status_stale = ${markedAt + 2} WHERE value = 'K-MARKED'`,
    );
    expect(marks(db)).toEqual({ expiry: true, hwid: true, status: true });
    // Seen before those times, and it clears them all the same: the one writer commits in the order called.
    db.recordKeys(PROFILE, [key()], '2026-11-20T10:00:01.000Z');
    expect(marks(db)).toEqual({ expiry: false, hwid: false, status: false });
    expect(stored()).toEqual({ e: 0, h: 0, s: 0 });
    raw.close();
    db.close();
    rmSync(file, { force: true });
  });
});
