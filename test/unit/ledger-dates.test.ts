// The expiry and creation filters against a plain model: alone and with text, status and premium, in every sort,
// over both count plans, deep pages from anchors, seeks, exports, job targets, and through writes.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LocalDb, type LedgerFilter } from '../../src/main/store/local-db.ts';
import type { Key } from '../../src/shared/domain.ts';
import { expectSeeksAround, ledgerOf, makeKeys, modelQuery, PROFILE, SORTS } from '../support/ledger-model.ts';
import { tempDir } from '../support/temp-dir.ts';

// The seeded keys expire 2027-01-01 to 2027-01-30 and were made 2026-01-01 to 2026-02-09: "now" in the middle.
const NOW = Date.parse('2027-01-12T08:30:00.000Z');
const DATE_FILTERS: LedgerFilter[] = [
  { expired: true },
  { expiresWithin: 7 },
  { expiresWithin: 1 },
  { expiresFrom: '2027-01-05', expiresTo: '2027-01-11' },
  { expiresFrom: '2027-01-20' },
  { expiresTo: '2027-01-03' },
  { createdFrom: '2026-01-10', createdTo: '2026-01-20' },
  { createdTo: '2026-01-02' },
  { unactivated: true },
  { expiresWithin: 30, createdFrom: '2026-01-15' },
];

describe('the expiry and creation filters', () => {
  const file = join(tempDir('keydesk-dates-'), 'keydesk.db');
  let db: LocalDb;
  let keys: Key[];

  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    db = new LocalDb(file, { paging: { directOffset: 0, anchorStep: 7 } });
    keys = makeKeys(1_500, 47);
    db.recordKeys(PROFILE, keys.slice(0, 1_200), '2026-11-22T10:00:00.000Z');
  });
  afterAll(() => {
    db.close();
    rmSync(file, { force: true });
    vi.useRealTimers();
  });

  it("matches the model's page and count with any other filter and sort", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...DATE_FILTERS),
        fc.constantFrom(undefined, 'alpha', 'be'),
        fc.constantFrom(undefined, 'generated', 'active', 'deleted' as const),
        fc.constantFrom(undefined, true, false),
        fc.constantFrom(...SORTS),
        fc.constantFrom('asc' as const, 'desc' as const),
        fc.nat({ max: 400 }),
        fc.integer({ min: 1, max: 40 }),
        (dates, text, status, premium, field, dir, offset, limit) => {
          const filter: LedgerFilter = { ...dates, text, status, premium };
          const all = ledgerOf(db);
          const want = modelQuery(all, filter, field, dir, offset, limit);
          // A cap of 5 sends every filter with more matches down the walk along the sort index and its anchors.
          const capped = db.queryLedger(PROFILE, filter, { field, dir }, offset, limit, { cap: 5 });
          expect(capped.rows.map((r) => r.value)).toEqual(want.values);
          expect([capped.total, capped.totalCapped]).toEqual([Math.min(want.total, 5), want.total > 5]);
          const exact = db.queryLedger(PROFILE, filter, { field, dir }, offset, limit, { exact: true });
          expect([exact.total, exact.rows.map((r) => r.value)]).toEqual([want.total, want.values]);
          const order = modelQuery(all, filter, field, dir, 0, 1_000_000).values;
          expectSeeksAround(db, all, filter, { field, dir }, order, offset, limit);
          // Export and job targets: the same rows; a job leaves known deleted keys out unless asked for them.
          expect([...db.iterateLedger(PROFILE, filter, { field, dir })].map((r) => r.value)).toEqual(order);
          const targets = all.filter((r) => order.includes(r.value) && (status !== undefined || r.status !== 'deleted'));
          expect(db.ledgerValues(PROFILE, filter, 100_000).total).toBe(targets.length);
          expect(exact.targets).toBe(targets.length);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('follows writes and the clock', () => {
    const sort = { field: 'expiresAt' as const, dir: 'asc' as const };
    const check = (filter: LedgerFilter) => {
      const want = modelQuery(ledgerOf(db), filter, sort.field, sort.dir, 30, 20);
      const got = db.queryLedger(PROFILE, filter, sort, 30, 20, { cap: 5 });
      expect(got.rows.map((r) => r.value)).toEqual(want.values);
      // Each filter alone picks some keys and leaves others: none is checked against an empty or whole ledger.
      expect(want.total).toBeGreaterThan(0);
      expect(want.total).toBeLessThan(ledgerOf(db).length);
    };
    for (const filter of DATE_FILTERS) check(filter);
    // Keys extended past the window, new ones, a deleted one: the cached anchors of each filter must not be reused.
    const moved = keys.slice(0, 40).map((k) => ({ ...k, expiresAt: '2027-03-01T23:59:59.999Z' }));
    db.recordKeys(PROFILE, [...moved, ...keys.slice(1_200, 1_300)], '2026-11-23T10:00:00.000Z');
    db.markDeleted(PROFILE, keys[50]?.value ?? '', '2026-11-23T10:00:00.000Z');
    for (const filter of DATE_FILTERS) check(filter);
    // A day later, what expires within 7 days and what is expired are other keys.
    vi.setSystemTime(NOW + 86_400_000);
    for (const filter of DATE_FILTERS) check(filter);
    vi.setSystemTime(NOW);
  });
});
