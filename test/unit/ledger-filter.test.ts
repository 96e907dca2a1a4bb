// The ledger's text filter against a plain model: a term in value, note or HWID, any case and length, through HWID
// changes, whichever trigrams it holds, and counted past its cap only where the whole term is.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LocalDb, type LedgerFilter } from '../../src/main/store/local-db.ts';
import type { Key } from '../../src/shared/domain.ts';
import { ledgerOf, makeKeys, modelQuery, PROFILE, rng } from '../support/ledger-model.ts';
import { tempDir } from '../support/temp-dir.ts';

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
