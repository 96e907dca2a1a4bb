// Renewals' week counts against a plain model of a seeded ledger: live keys only, each week as the span filter
// Renewals lists it counts, another profile's keys in none.
import { describe, expect, it } from 'vitest';
import { LocalDb } from '../../src/main/store/local-db.ts';
import type { Key } from '../../src/shared/domain.ts';
import { renewalWeeks } from '../../src/shared/renewals.ts';
import { OTHER, PROFILE, rng } from '../support/ledger-model.ts';

const NOW = Date.parse('2026-12-02T10:00:00.000Z');
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** Keys expiring from 10 days ago to 100 days on (some at a week's first and last millisecond), a sixth deleted. */
function seeded(db: LocalDb, profileId: string, count: number, seed: number): { key: Key; deleted: boolean }[] {
  const r = rng(seed);
  const weeks = renewalWeeks(NOW);
  const keys = Array.from({ length: count }, (_, i) => {
    const edge = weeks[i % weeks.length];
    const expiresAt =
      i % 11 === 0 && edge
        ? `${edge.from}T00:00:00.000Z`
        : i % 13 === 0 && edge
          ? `${edge.to}T23:59:59.999Z`
          : iso(NOW + Math.floor((r() * 110 - 10) * DAY));
    const key: Key = {
      id: String(i),
      value: `RW-${profileId.length}-${i}`,
      note: '',
      status: r() < 0.5 ? 'active' : 'generated',
      isPremium: false,
      expire: expiresAt.slice(0, 10),
      expiresByDaysKey: false,
      daysKey: null,
      expiresAt,
      hwid: null,
      createdAt: iso(NOW - DAY),
      activatedAt: null,
      lastResetAt: null,
      serviceId: 's',
    };
    return { key, deleted: r() < 1 / 6 };
  });
  db.recordKeys(
    profileId,
    keys.map((k) => k.key),
    iso(NOW),
  );
  for (const k of keys) if (k.deleted) db.markDeleted(profileId, k.key.value, iso(NOW));
  return keys;
}

describe("Renewals' weeks", () => {
  it('counts the live keys expiring each week, as the plain model does', () => {
    const db = new LocalDb(':memory:');
    const keys = seeded(db, PROFILE, 2_000, 5);
    seeded(db, OTHER, 300, 6);
    const weeks = db.expiryWeeks(PROFILE, NOW);
    expect(weeks.map((w) => w.count)).toEqual(
      renewalWeeks(NOW).map(
        (w) =>
          keys.filter(
            (k) =>
              !k.deleted &&
              k.key.expiresAt !== null &&
              k.key.expiresAt >= `${w.from}T00:00:00.000Z` &&
              k.key.expiresAt <= `${w.to}T23:59:59.999Z`,
          ).length,
      ),
    );
    expect(keys.some((k) => k.deleted)).toBe(true);
    db.close();
  });

  it("each week's count is what its listed span filter counts", () => {
    const db = new LocalDb(':memory:');
    seeded(db, PROFILE, 2_000, 7);
    for (const w of db.expiryWeeks(PROFILE, NOW)) {
      const to = iso(Date.parse(`${w.to}T00:00:00.000Z`) + DAY);
      const page = db.queryLedger(
        PROFILE,
        { span: { of: 'expiresAt', from: `${w.from}T00:00:00.000Z`, to } },
        { field: 'expiresAt', dir: 'asc' },
        0,
        500,
        {
          exact: true,
        },
      );
      expect([w.from, page.total]).toEqual([w.from, w.count]);
      expect(page.rows.every((r) => r.status !== 'deleted')).toBe(true);
    }
    db.close();
  });
});
