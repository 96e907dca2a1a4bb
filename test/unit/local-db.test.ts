// The app's ledger against a plain model: whichever plan queryLedger picks (dense walk, sparse pass, whole-ledger
// sample), every filter, sort, direction and page returns exactly the rows and count the model does.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalDb, type LedgerFilter } from '../../src/main/store/local-db.ts';
import type { Key, LedgerRow, LedgerSortField } from '../../src/shared/domain.ts';

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
    keys.push({
      id: String(i),
      value: `K${Math.floor(r() * 1e9).toString(36).toUpperCase()}-${i.toString(36).toUpperCase()}`,
      note,
      status,
      isPremium: r() < 0.25,
      expire: null,
      expiresByDaysKey: false,
      daysKey: null,
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
  });
  afterAll(() => {
    db.close();
  });

  it('holds every recorded key of the profile once', () => {
    expect(all).toHaveLength(size);
    expect(new Set(all.map((r) => r.value))).toEqual(new Set(keys.map((k) => k.value)));
    expect(all.filter((r) => r.status === 'deleted')).toHaveLength(20);
  });

  it('returns the model’s rows and count for every filter, sort and page', () => {
    const someKey = keys[123]?.value ?? '';
    const someHwid = keys.find((k) => k.hwid !== null)?.hwid ?? 'none';
    const terms = [undefined, 'a', 'alpha', 'ALPHA launch', 'gamma', 'beta', 'resellers', someKey, someKey.slice(1, 5).toLowerCase(), someHwid, 'no such text', '\n'];
    fc.assert(
      fc.property(
        fc.constantFrom(...terms),
        fc.constantFrom(undefined, 'generated', 'active', 'deleted' as const),
        fc.constantFrom(undefined, true, false),
        fc.constantFrom(...SORTS),
        fc.constantFrom('asc' as const, 'desc' as const),
        fc.nat({ max: size + 20 }),
        fc.integer({ min: 1, max: 250 }),
        (text, status, premium, field, dir, offset, limit) => {
          const filter: LedgerFilter = { text, status, premium };
          const got = db.queryLedger(PROFILE, filter, { field, dir }, offset, limit);
          const want = modelQuery(all, filter, field, dir, offset, limit);
          expect(got.total).toBe(want.total);
          expect(got.rows.map((r) => r.value)).toEqual(want.values);
        },
      ),
      { numRuns: 400, seed },
    );
  });

  it('answers the same whether a term matches most rows, a third of them or a handful', () => {
    // Over half (the dense walk), between a quarter and half (guessed dense, counted, then sparse), under a quarter.
    for (const [text, low, high] of [['alpha', 0.5, 1], ['gamma', 0.25, 0.5], ['beta', 0, 0.25]] as const) {
      const got = db.queryLedger(PROFILE, { text }, { field: 'createdAt', dir: 'desc' }, 0, 50);
      const want = modelQuery(all, { text }, 'createdAt', 'desc', 0, 50);
      expect(got.total / size).toBeGreaterThan(low);
      expect(got.total / size).toBeLessThan(high);
      expect(got.total).toBe(want.total);
      expect(got.rows.map((r) => r.value)).toEqual(want.values);
    }
  });
});

describe('ledger size', () => {
  it('counts keys recorded after an earlier query', () => {
    const db = new LocalDb(':memory:');
    const keys = makeKeys(1_500, 3);
    db.recordKeys(PROFILE, keys.slice(0, 1_000));
    expect(db.queryLedger(PROFILE, {}, { field: 'value', dir: 'asc' }, 0, 10).total).toBe(1_000);
    expect(db.queryLedger(PROFILE, { text: 'beta' }, { field: 'value', dir: 'asc' }, 0, 10).total).toBe(keys.slice(0, 1_000).filter((k) => k.note.includes('beta')).length);
    db.recordKeys(PROFILE, keys.slice(1_000));
    expect(db.queryLedger(PROFILE, {}, { field: 'value', dir: 'asc' }, 0, 10).total).toBe(1_500);
    expect(db.queryLedger(PROFILE, { text: 'beta' }, { field: 'value', dir: 'asc' }, 0, 10).total).toBe(keys.filter((k) => k.note.includes('beta')).length);
    db.close();
  });
});
