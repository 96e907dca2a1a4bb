// A generate answer's keys recorded from their batch (recordShared): the same ledger, text entries and counts as
// recording each key whole (recordKeys), and refused for a batch whose keys differ in more than id and value.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { LocalDb } from '../../src/main/store/local-db.ts';
import type { Key } from '../../src/shared/domain.ts';
import { KeyBatchBuilder, type KeyColumns } from '../../src/shared/key-batch.ts';
import { generatedKey, PROFILE } from '../support/ledger-model.ts';
import { tempDir } from '../support/temp-dir.ts';

const SEEN = '2026-11-30T02:00:00.000Z';

function columnsOf(keys: readonly Key[]): KeyColumns {
  const builder = new KeyBatchBuilder();
  for (const k of keys) builder.add(k);
  return builder.columns();
}

/** Every ledger column but the row id, each text entry's trigrams, and the per-status counts. */
function ledgerOf(db: LocalDb) {
  db.indexText();
  return {
    rows: read(db, 'SELECT * FROM ledger ORDER BY value').map((row) => ({ ...row, id: undefined })),
    counts: read(db, 'SELECT * FROM ledger_counts ORDER BY status'),
    days: read(db, 'SELECT * FROM ledger_days ORDER BY kind, day'),
    log: read(db, 'SELECT profile_id, value, was FROM ledger_log ORDER BY value, seq'),
    text: ['åsig-σ', 'oße k'].map((text) =>
      db.queryLedger(PROFILE, { text }, { field: 'value', dir: 'asc' }, 0, 50, { exact: true }).rows.map((r) => r.value),
    ),
  };
}

const files = new WeakMap<LocalDb, string>();
function newDb(): LocalDb {
  const file = join(tempDir('keydesk-shared-'), 'keydesk.db');
  const db = new LocalDb(file);
  files.set(db, file);
  return db;
}

/** Rows of the file behind `db`, read on a connection of their own. */
function read(db: LocalDb, sql: string): Record<string, unknown>[] {
  const raw = new DatabaseSync(files.get(db) ?? '', { readOnly: true });
  try {
    return raw.prepare(sql).all();
  } finally {
    raw.close();
  }
}

describe('recording a batch of keys alike but for their values', () => {
  const keys = [
    ...['KEY-3', 'KEY-1', 'KEY-2'].map((v, i) => ({ ...generatedKey(v, 'Große Kunden'), id: String(i) })),
    { ...generatedKey('ÅSIG-Σ', 'Große Kunden'), id: '9' },
  ];

  it('writes the rows, counts and text that recording each key gives', () => {
    const whole = newDb();
    whole.recordKeys(PROFILE, keys, SEEN);
    const shared = newDb();
    expect(shared.recordShared(PROFILE, columnsOf(keys), 0, 2, SEEN)).toBe(true);
    expect(shared.recordShared(PROFILE, columnsOf(keys), 2, 10, SEEN)).toBe(true);
    const got = ledgerOf(shared);
    expect(got).toEqual(ledgerOf(whole));
    expect(read(shared, 'SELECT search FROM ledger').map((r) => r.search)).toContain('åsig-σ\ngroße kunden\n');
    expect(got.text).toEqual([['ÅSIG-Σ'], ['KEY-1', 'KEY-2', 'KEY-3', 'ÅSIG-Σ']]);
    whole.close();
    shared.close();
  });

  it('takes a key already recorded as active as activated now', () => {
    const db = newDb();
    db.recordKeys(PROFILE, [{ ...keys[0]!, status: 'active' }], SEEN);
    db.recordKeys(PROFILE, [keys[0]!], SEEN);
    const active = { ...keys[1]!, status: 'active' as const, createdAt: '2026-11-23T00:00:00.000Z' };
    expect(db.recordShared(PROFILE, columnsOf([{ ...active, value: 'KEY-3' }, active]), 0, 2, SEEN)).toBe(true);
    const rows = read(db, "SELECT value, status, activated_at FROM ledger WHERE value = 'KEY-3'");
    expect(rows).toEqual([{ value: 'KEY-3', status: 'active', activated_at: SEEN }]);
    db.close();
  });

  it('refuses keys that differ in a field or carry a HWID', () => {
    const db = newDb();
    const notes = [keys[0]!, { ...keys[1]!, note: 'other' }];
    expect(db.recordShared(PROFILE, columnsOf(notes), 0, 2, SEEN)).toBe(false);
    const hwid = keys.slice(0, 2).map((k) => ({ ...k, status: 'active' as const, hwid: 'HW-1' }));
    expect(db.recordShared(PROFILE, columnsOf(hwid), 0, 2, SEEN)).toBe(false);
    const halfPair = keys.slice(0, 2).map((k) => ({ ...k, note: 'broken \ud800' }));
    expect(db.recordShared(PROFILE, columnsOf(halfPair), 0, 2, SEEN)).toBe(false);
    expect(read(db, 'SELECT count(*) AS n FROM ledger')).toEqual([{ n: 0 }]);
    db.close();
  });
});
