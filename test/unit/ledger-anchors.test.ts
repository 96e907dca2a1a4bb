// Deep ledger pages from anchors against a plain model: found ahead of need, in the background or not, and kept
// through writes from this connection, another one and the writer thread.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Writer } from '../../src/main/store/writer.ts';
import { LocalDb, type LedgerFilter } from '../../src/main/store/local-db.ts';
import type { Key } from '../../src/shared/domain.ts';
import { expectSeeksAround, ledgerOf, makeKeys, modelQuery, OTHER, PROFILE, SORTS } from '../support/ledger-model.ts';
import { tempDir } from '../support/temp-dir.ts';

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
