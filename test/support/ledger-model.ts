// The ledger as a plain model for the store's tests: seeded keys whose notes land on both sides of the query plans'
// thresholds, the model's order and page for any filter and sort, and the check that seeks agree with it.
import { expect } from 'vitest';
import type { LedgerFilter, LocalDb } from '../../src/main/store/local-db.ts';
import type { Key, LedgerRow, LedgerSortField } from '../../src/shared/domain.ts';

export const PROFILE = 'profile-under-test';
export const OTHER = 'another-profile';
// Note labels with known shares of the ledger, so terms land on both sides of the plans' thresholds.
const NOTES: [string, number][] = [
  ['alpha launch', 0.6],
  ['gamma resellers', 0.3],
  ['beta testers', 0.08],
  ['', 0.02],
];
export const SORTS: LedgerSortField[] = ['createdAt', 'expiresAt', 'value', 'note', 'status', 'lastSeenAt'];

/** A key just generated, with `note`: what a writer test records. */
export const generatedKey = (value: string, note: string): Key => ({
  id: '',
  value,
  note,
  status: 'generated',
  isPremium: false,
  expire: '2099-01-01',
  expiresByDaysKey: false,
  daysKey: null,
  expiresAt: null,
  hwid: null,
  createdAt: '2026-11-23T00:00:00.000Z',
  activatedAt: null,
  lastResetAt: null,
  serviceId: 'svc',
});

/** A deterministic pseudo-random sequence, so a failure reproduces. */
export function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

export function makeKeys(count: number, seed: number): Key[] {
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

export const COLUMN: Record<LedgerSortField, (r: LedgerRow) => string | null> = {
  createdAt: (r) => r.createdAt,
  expiresAt: (r) => r.expiresAt,
  value: (r) => r.value,
  note: (r) => r.note,
  status: (r) => r.status,
  lastSeenAt: (r) => r.lastSeenAt,
};

/** SQLite's order: NULL before any text, text by its bytes (all ASCII here), ties broken by value. */
export function modelQuery(
  rows: LedgerRow[],
  filter: LedgerFilter,
  field: LedgerSortField,
  dir: 'asc' | 'desc',
  offset: number,
  limit: number,
) {
  const text = filter.text?.toLowerCase();
  const matching = rows.filter(
    (r) =>
      (!text || `${r.value}\n${r.note}\n${r.hwid ?? ''}`.toLowerCase().includes(text)) &&
      (!filter.status || r.status === filter.status) &&
      (filter.premium === undefined || r.isPremium === filter.premium) &&
      modelDates(filter, r, Math.floor(Date.now() / 60_000) * 60_000),
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
export function expectSeeksAround(
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

export function ledgerOf(db: LocalDb): LedgerRow[] {
  return db.queryLedger(PROFILE, {}, { field: 'value', dir: 'asc' }, 0, 1_000_000).rows;
}

const DAY = 86_400_000;
const dayStart = (d: string): number => Date.parse(`${d}T00:00:00.000Z`);

/** The expiry and creation filters as plain date arithmetic, `now` to the minute as the store takes it. */
export function modelDates(filter: LedgerFilter, r: LedgerRow, now: number): boolean {
  const expires = r.expiresAt === null ? null : Date.parse(r.expiresAt);
  const created = r.createdAt === null ? null : Date.parse(r.createdAt);
  const within = (t: number | null, from: number, to: number): boolean => t !== null && t >= from && t <= to;
  if (filter.expired && !within(expires, -Infinity, now - 1)) return false;
  if (filter.expiresWithin !== undefined && !within(expires, now, now + filter.expiresWithin * DAY)) return false;
  const expiryFrom = filter.expiresFrom === undefined ? -Infinity : dayStart(filter.expiresFrom);
  const expiryTo = filter.expiresTo === undefined ? Infinity : dayStart(filter.expiresTo) + DAY - 1;
  if ((filter.expiresFrom ?? filter.expiresTo) !== undefined && !within(expires, expiryFrom, expiryTo)) return false;
  const madeFrom = filter.createdFrom === undefined ? -Infinity : dayStart(filter.createdFrom);
  const madeTo = filter.createdTo === undefined ? Infinity : dayStart(filter.createdTo) + DAY - 1;
  if ((filter.createdFrom ?? filter.createdTo) !== undefined && !within(created, madeFrom, madeTo)) return false;
  return !filter.unactivated || (r.daysKey !== null && r.expiresAt === null);
}
