// Rows whose text entries are written later (the writer thread's way): a text filter finds them exactly, before,
// during and after their indexing, through note and HWID changes, as the plain model says.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { LocalDb, type LedgerFilter } from '../../src/main/store/local-db.ts';
import type { Key } from '../../src/shared/domain.ts';
import { ledgerOf, makeKeys, modelQuery, PROFILE, rng } from '../support/ledger-model.ts';
import { tempDir } from '../support/temp-dir.ts';

const SORT = { field: 'value', dir: 'asc' } as const;

/** Every filter of `terms` (alone and with a status) gives the model's page, count and job targets. */
function expectModel(db: LocalDb, terms: readonly string[], step: string): void {
  const all = ledgerOf(db);
  for (const term of terms) {
    for (const filter of [{ text: term }, { text: term.toUpperCase(), status: 'active' as const }] satisfies LedgerFilter[]) {
      const at = `${step}: ${JSON.stringify(filter)}`;
      const want = modelQuery(all, filter, 'value', 'asc', 0, 30);
      const got = db.queryLedger(PROFILE, filter, SORT, 0, 30, { exact: true });
      expect(got.total, at).toBe(want.total);
      expect(
        got.rows.map((r) => r.value),
        at,
      ).toEqual(want.values);
      const capped = db.queryLedger(PROFILE, filter, SORT, 0, 30, { cap: 3 });
      expect(capped.total, `${at} capped`).toBe(Math.min(want.total, 3));
      expect(capped.rows.map((r) => r.value)).toEqual(want.values);
      const targets = all.filter(
        (r) => (filter.status !== undefined || r.status !== 'deleted') && modelQuery([r], filter, 'value', 'asc', 0, 1).total,
      );
      expect(db.ledgerValues(PROFILE, filter, 10_000).total, `${at} targets`).toBe(targets.length);
    }
  }
}

/** Pieces of the ledger's value, note and HWID texts: terms of 1 to 6 characters, with matches. */
function termsOf(db: LocalDb, seed: number, n: number): string[] {
  const r = rng(seed);
  const texts = ledgerOf(db).map((x) => Array.from(`${x.value}\n${x.note}\n${x.hwid ?? ''}`.replace(/\n+$/, '')));
  return Array.from({ length: n }, () => {
    const source = texts[Math.floor(r() * texts.length)] ?? [];
    const start = Math.floor(r() * source.length);
    return source.slice(start, start + 1 + Math.floor(r() * 6)).join('');
  }).filter((t) => t !== '' && !t.includes('\n'));
}

describe('rows not yet in the text index', () => {
  it('are found by every text filter before, during and after their indexing', () => {
    const db = new LocalDb(join(tempDir('keydesk-backlog-'), 'keydesk.db'), { deferText: true });
    const keys = makeKeys(1_200, 5).map((k, i) => ({ ...k, hwid: k.hwid === null ? null : `HW-${i % 37}-Ω` }));
    db.recordKeys(PROFILE, keys.slice(0, 600), '2026-11-22T10:00:00.000Z');
    expect(db.unindexed()).toBe(600);
    const terms = [...termsOf(db, 6, 40), 'Ω', 'hw', 'hw-3', 'launch', 'no such text'];
    expectModel(db, terms, 'none indexed');

    // Half indexed, then the rest written: a text filter reads the index and scans the rows after it.
    expect(db.indexText(300)).toBe(300);
    db.recordKeys(PROFILE, keys.slice(600), '2026-11-22T11:00:00.000Z');
    // Rows on both sides of the indexed mark change note and HWID: the index follows those it holds.
    const changed = [keys[10], keys[400], keys[1_000]].map((k, i) => ({ ...(k as Key), note: `moved ${i} Ж`, hwid: `NEW-${i}` }));
    db.recordKeys(PROFILE, changed, '2026-11-22T12:00:00.000Z');
    db.markHwidCleared(PROFILE, [keys[20]?.value ?? '', keys[900]?.value ?? ''], '2026-11-22T12:00:00.000Z');
    expectModel(db, [...terms, ...termsOf(db, 7, 30), 'moved', 'Ж', 'new-', 'mo'], 'partly indexed');

    while (db.indexText(250) > 0);
    expect(db.unindexed()).toBe(0);
    expectModel(db, [...terms, ...termsOf(db, 8, 30), 'moved', 'Ж', 'new-', 'mo'], 'all indexed');
    db.close();
  }, 120_000);

  it('end in the same text index as rows indexed on write', () => {
    const dir = tempDir('keydesk-backlog-');
    const later = new LocalDb(join(dir, 'later.db'), { deferText: true });
    const now = new LocalDb(join(dir, 'now.db'));
    const keys = makeKeys(500, 9).map((k, i) => ({ ...k, hwid: k.hwid === null ? null : `HW-${i}` }));
    for (const db of [later, now]) {
      db.recordKeys(PROFILE, keys.slice(0, 250), '2026-11-22T10:00:00.000Z');
      db.recordKeys(PROFILE, keys.slice(200), '2026-11-22T11:00:00.000Z');
    }
    while (later.indexText(100) > 0);
    later.close();
    now.close();
    const trigrams = (file: string): unknown[] => {
      const raw = new DatabaseSync(file, { readOnly: true });
      try {
        return raw.prepare('SELECT term, doc FROM ledger_trigrams ORDER BY term').all();
      } finally {
        raw.close();
      }
    };
    expect(trigrams(join(dir, 'later.db'))).toEqual(trigrams(join(dir, 'now.db')));
  });
});
