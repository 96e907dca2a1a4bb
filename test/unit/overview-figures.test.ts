// Overview's figures, keys per day and closed spans against a plain model of a seeded ledger, and each figure's
// All keys filter counting the same keys.
import { describe, expect, it } from 'vitest';
import { LocalDb, type LedgerFilter } from '../../src/main/store/local-db.ts';
import type { Key, OverviewFigures } from '../../src/shared/domain.ts';
import { OTHER, PROFILE, rng } from '../support/ledger-model.ts';

const NOW = Date.parse('2026-11-29T12:00:00.000Z');
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** A seeded key, and whether it is deleted since (the ledger marks it so; a lookup reports only live keys). */
type Seeded = Omit<Key, 'status'> & { status: Key['status'] | 'deleted' };

/** Keys spread around NOW: expiries 60 days either side (some none), activations in the last 60 days, some deleted. */
function seededKeys(count: number, seed: number): Seeded[] {
  const r = rng(seed);
  return Array.from({ length: count }, (_, i): Seeded => {
    const pick = r();
    const status = pick < 0.5 ? 'active' : pick < 0.85 ? 'generated' : 'deleted';
    const expiresAt = r() < 0.1 ? null : iso(NOW + Math.floor((r() - 0.5) * 120 * DAY));
    const activated = status !== 'generated' && r() < 0.9;
    return {
      id: String(i),
      value: `OV${i.toString(36).toUpperCase()}-${Math.floor(r() * 1e6)}`,
      note: '',
      status,
      isPremium: r() < 0.3,
      expire: null,
      expiresByDaysKey: false,
      daysKey: null,
      expiresAt,
      hwid: null,
      createdAt: iso(NOW - Math.floor(r() * 90 * DAY)),
      activatedAt: activated ? iso(NOW - Math.floor(r() * 60 * DAY)) : null,
      lastResetAt: null,
      serviceId: 's',
    };
  });
}

/** The figures worked out over the keys one by one. */
function model(keys: Seeded[]): Omit<OverviewFigures, 'windows' | 'newestSeenAt'> {
  return modelAt(keys, NOW);
}

function modelAt(keys: Seeded[], NOW: number): Omit<OverviewFigures, 'windows' | 'newestSeenAt'> {
  const live = keys.filter((k) => k.status !== 'deleted');
  const expiry = (k: Seeded) => (k.expiresAt === null ? null : Date.parse(k.expiresAt));
  const expiring = (days: number) =>
    live.filter((k) => {
      const e = expiry(k);
      return e !== null && e >= NOW && e < NOW + days * DAY;
    }).length;
  const activated = (days: number) => keys.filter((k) => k.activatedAt !== null && Date.parse(k.activatedAt) >= NOW - days * DAY).length;
  return {
    total: keys.length,
    active: keys.filter((k) => k.status === 'active').length,
    generated: keys.filter((k) => k.status === 'generated').length,
    deleted: keys.filter((k) => k.status === 'deleted').length,
    expired: live.filter((k) => {
      const e = expiry(k);
      return e !== null && e < NOW;
    }).length,
    expiring7: expiring(7),
    expiring30: expiring(30),
    activated7: activated(7),
    activated30: activated(30),
    premium: keys.filter((k) => k.isPremium).length,
  };
}

/** Records the keys as a lookup would (deleted ones as generated), then marks the deleted ones as a delete does. */
function record(db: LocalDb, profileId: string, keys: Seeded[], at: string): void {
  db.recordKeys(
    profileId,
    keys.map((k): Key => ({ ...k, status: k.status === 'deleted' ? 'active' : k.status })),
    at,
  );
  for (const k of keys) if (k.status === 'deleted') db.markDeleted(profileId, k.value, at);
}

function seeded(): { db: LocalDb; keys: Seeded[] } {
  const db = new LocalDb(':memory:');
  const first = seededKeys(3_000, 7);
  record(db, PROFILE, first, '2026-11-29T10:00:00.000Z');
  // A later read of some keys moves their expiry (an extend), activation and premium: the figures follow.
  const r = rng(9);
  const keys = first.map((k, i) =>
    i % 7 === 0 && k.status !== 'deleted'
      ? {
          ...k,
          expiresAt: iso(NOW + Math.floor((r() - 0.5) * 40 * DAY)),
          isPremium: !k.isPremium,
          activatedAt: iso(NOW - Math.floor(r() * 9 * DAY)),
        }
      : k,
  );
  record(
    db,
    PROFILE,
    keys.filter((_, i) => i % 7 === 0),
    '2026-11-29T11:00:00.000Z',
  );
  // Another profile's keys count for none of this one's figures.
  record(db, OTHER, seededKeys(500, 8), '2026-11-29T11:30:00.000Z');
  return { db, keys };
}

describe("Overview's figures", () => {
  it('match the plain model for every figure', () => {
    const { db, keys } = seeded();
    const { windows, newestSeenAt, ...figures } = db.overviewFigures(PROFILE, NOW);
    expect(figures).toEqual(model(keys));
    expect(newestSeenAt).toBe('2026-11-29T11:00:00.000Z');
    // At a day's start and a moment later: whole days and part-days add up the same.
    for (const at of [Date.parse('2026-11-29T00:00:00.000Z'), NOW + 1]) {
      // toEqual takes a property set to undefined as one left out: only the counts are compared.
      expect({ ...db.overviewFigures(PROFILE, at), windows: undefined, newestSeenAt: undefined }).toEqual(modelAt(keys, at));
    }
    expect(windows.now).toBe(iso(NOW));
    db.close();
  });

  it("each figure's All keys filter counts the same keys", () => {
    const { db } = seeded();
    const f = db.overviewFigures(PROFILE, NOW);
    const w = f.windows;
    const filters: [number, LedgerFilter][] = [
      [f.active, { status: 'active' }],
      [f.generated, { status: 'generated' }],
      [f.deleted, { status: 'deleted' }],
      [f.premium, { premium: true }],
      [f.expired, { span: { of: 'expiresAt', to: w.now } }],
      [f.expiring7, { span: { of: 'expiresAt', from: w.now, to: w.in7 } }],
      [f.expiring30, { span: { of: 'expiresAt', from: w.now, to: w.in30 } }],
      [f.activated7, { span: { of: 'activatedAt', from: w.ago7 } }],
      [f.activated30, { span: { of: 'activatedAt', from: w.ago30 } }],
    ];
    for (const [figure, filter] of filters) {
      const page = db.queryLedger(PROFILE, filter, { field: 'expiresAt', dir: 'asc' }, 0, 50, { exact: true });
      expect([JSON.stringify(filter), page.total]).toEqual([JSON.stringify(filter), figure]);
      // The page's rows are the filter's: an expiry span's rows lie in it and none is deleted.
      const span = filter.span;
      for (const row of page.rows) {
        if (span?.of !== 'expiresAt') continue;
        expect(row.status).not.toBe('deleted');
        expect(row.expiresAt !== null && row.expiresAt < (span.to ?? '~') && row.expiresAt >= (span.from ?? '')).toBe(true);
      }
    }
    db.close();
  });

  it('counts a later lookup that activates a key', () => {
    const db = new LocalDb(':memory:');
    const key: Key = { ...(seededKeys(1, 3)[0] as Seeded), status: 'generated', activatedAt: null, expiresAt: null };
    db.recordKeys(PROFILE, [key], '2026-11-29T10:00:00.000Z');
    expect(db.overviewFigures(PROFILE, NOW).activated7).toBe(0);
    db.recordKeys(PROFILE, [{ ...key, status: 'active', activatedAt: iso(NOW - DAY) }], '2026-11-29T11:00:00.000Z');
    expect(db.overviewFigures(PROFILE, NOW)).toMatchObject({ active: 1, generated: 0, activated7: 1, activated30: 1 });
    db.close();
  });
});

describe('activation times a service does not send', () => {
  /** A key as the real service describes it: no status of its own (the endpoint's), no activation time. */
  const real = (status: Key['status']): Key => ({
    ...(seededKeys(1, 4)[0] as Seeded),
    value: 'REAL-KEY',
    status,
    activatedAt: null,
    expiresAt: iso(NOW + 30 * DAY),
    unreported: ['activatedAt', 'createdAt'],
  });

  it('take the time Keydesk first saw a generated key active', () => {
    const db = new LocalDb(':memory:');
    db.recordKeys(PROFILE, [real('generated')], iso(NOW - 20 * DAY));
    db.recordKeys(PROFILE, [real('active')], iso(NOW - 2 * DAY));
    // Seen active again later: the first sight stays.
    db.recordKeys(PROFILE, [real('active')], iso(NOW - DAY));
    expect(db.overviewFigures(PROFILE, NOW)).toMatchObject({ active: 1, activated7: 1, activated30: 1 });
    expect(db.keyActivity(PROFILE, 3, NOW).map((d) => d.activated)).toEqual([1, 0, 0]);
    const rows = db.queryLedger(PROFILE, { span: { of: 'activatedAt', from: iso(NOW - 7 * DAY) } }, { field: 'value', dir: 'asc' }, 0, 10);
    expect(rows.rows.map((r) => r.value)).toEqual(['REAL-KEY']);
    db.close();
  });

  it('leave a key first seen already active uncounted', () => {
    const db = new LocalDb(':memory:');
    db.recordKeys(PROFILE, [real('active')], iso(NOW - DAY));
    expect(db.overviewFigures(PROFILE, NOW)).toMatchObject({ active: 1, activated7: 0, activated30: 0 });
    db.close();
  });

  it("keep the service's own activation time over the first sight", () => {
    const db = new LocalDb(':memory:');
    db.recordKeys(PROFILE, [real('generated')], iso(NOW - 20 * DAY));
    db.recordKeys(PROFILE, [{ ...real('active'), activatedAt: iso(NOW - 10 * DAY), unreported: [] }], iso(NOW - DAY));
    expect(db.overviewFigures(PROFILE, NOW)).toMatchObject({ activated7: 0, activated30: 1 });
    db.close();
  });
});

describe('keys per day', () => {
  it('match the plain model day by day, every day listed', () => {
    const { db, keys } = seeded();
    const days = db.keyActivity(PROFILE, 30, NOW);
    expect(days).toHaveLength(30);
    expect(days.at(-1)?.day).toBe('2026-11-29');
    for (const d of days) {
      const on = (at: string | null) => at !== null && at.slice(0, 10) === d.day;
      expect(d).toEqual({
        day: d.day,
        activated: keys.filter((k) => on(k.activatedAt)).length,
        generated: keys.filter((k) => on(k.createdAt)).length,
      });
    }
    db.close();
  });
});

describe("Keydesk's runs", () => {
  it('say where Keydesk was closed, and no more', () => {
    const db = new LocalDb(':memory:');
    db.runAlive('2026-11-29T08:00:00.000Z', '2026-11-29T09:00:00.000Z');
    // Started again within the gap a tick allows: it ran on.
    db.runAlive('2026-11-29T09:01:00.000Z', '2026-11-29T10:00:00.000Z');
    db.runAlive('2026-11-29T11:30:00.000Z', '2026-11-29T12:00:00.000Z');
    expect(db.closedSpans(null)).toEqual([{ from: '2026-11-29T10:00:00.000Z', to: '2026-11-29T11:30:00.000Z' }]);
    expect(db.closedSpans('2026-11-29T11:45:00.000Z')).toEqual([]);
    db.close();
  });
});

describe('first-run steps', () => {
  it('are kept per profile, each noted once', () => {
    const db = new LocalDb(':memory:');
    db.markFirstRunStep(PROFILE, 'validate', '2026-11-29T10:00:00.000Z');
    db.markFirstRunStep(PROFILE, 'generate', '2026-11-29T11:00:00.000Z');
    db.markFirstRunStep(PROFILE, 'validate', '2026-11-29T12:00:00.000Z');
    expect(db.firstRunSteps(PROFILE)).toEqual(['validate', 'generate']);
    expect(db.firstRunSteps(OTHER)).toEqual([]);
    db.close();
  });
});
