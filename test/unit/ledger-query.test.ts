// The ledger's queries against a plain model: whichever plan queryLedger picks (dense walk, sparse pass, deep jump),
// every filter, sort, direction and page returns exactly the model's rows, and its count up to the cap.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalDb, type LedgerFilter } from '../../src/main/store/local-db.ts';
import type { LedgerRow } from '../../src/shared/domain.ts';
import { LEDGER_COUNT_CAP } from '../../src/shared/rules.ts';
import { COLUMN, expectSeeksAround, ledgerOf, makeKeys, modelQuery, OTHER, PROFILE, SORTS } from '../support/ledger-model.ts';

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

describe("a term in a key's note and in its HWID", () => {
  it('finds each key once, whichever of its texts holds the term', () => {
    const db = new LocalDb(':memory:');
    const key = (value: string, note: string, hwid: string | null) => ({
      ...makeKeys(1, 5)[0]!,
      value,
      note,
      hwid,
      status: hwid === null ? ('generated' as const) : ('active' as const),
    });
    db.recordKeys(PROFILE, [
      key('K-BOTH', 'order abcde', 'HW-ABCDE'),
      // The note holds the term's trigrams apart; the HWID holds the term.
      key('K-APART', 'abcd bcde', 'HW-ABCDE-2'),
      key('K-NOTE', 'abcde', null),
      key('K-HWID', 'nothing', 'ABCDE-3'),
      key('K-NONE', 'abcd bcde', 'HW-0'),
      ...makeKeys(300, 9),
    ]);
    const found = ['K-APART', 'K-BOTH', 'K-HWID', 'K-NOTE'];
    for (const count of [{}, { exact: true }, { cap: 10 }]) {
      const got = db.queryLedger(PROFILE, { text: 'ABCDE' }, { field: 'value', dir: 'asc' }, 0, 50, count);
      expect(got.rows.map((r) => r.value)).toEqual(found);
      expect([got.total, got.targets]).toEqual([4, 4]);
    }
    const capped = db.queryLedger(PROFILE, { text: 'abcde' }, { field: 'value', dir: 'asc' }, 0, 50, { cap: 3 });
    expect([capped.total, capped.totalCapped, capped.rows.length]).toEqual([3, true, 4]);
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
