// The sort indexes a large generate's rows would land in at random: dropped only for a batch that adds a quarter
// or more, every sort and filter still giving the same rows without them, and built again one at a time.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { DEFER_ROWS } from '../../src/main/store/ledger-writes.ts';
import { LocalDb } from '../../src/main/store/local-db.ts';
import { makeKeys, PROFILE } from '../support/ledger-model.ts';
import { tempDir } from '../support/temp-dir.ts';

const SORTED = ['ledger_expires', 'ledger_note', 'ledger_status'];

describe('the deferrable sort indexes', () => {
  it('drops them for a large batch; sorts and filters stay the same', () => {
    const db = new LocalDb(join(tempDir('keydesk-deferred-'), 'keydesk.db'));
    db.recordKeys(PROFILE, makeKeys(2_000, 11));
    const pages = () =>
      (['note', 'expiresAt', 'status'] as const).map((field) => [
        db.queryLedger(PROFILE, {}, { field, dir: 'asc' }, 0, 50, { exact: true }),
        db.queryLedger(PROFILE, { status: 'active' }, { field, dir: 'desc' }, 100, 50, { exact: true }),
      ]);
    const before = pages();
    expect(db.transaction(() => db.dropIndexes(DEFER_ROWS - 1))).toBe(false);
    expect(db.droppedIndexes()).toEqual([]);
    expect(db.transaction(() => db.dropIndexes(DEFER_ROWS))).toBe(true);
    expect(db.droppedIndexes()).toEqual(SORTED);
    expect(pages()).toEqual(before);
    // The deep-page anchors leave those sorts for later, and the rest are found.
    while (db.prepareLedger(PROFILE, 1_000));
    expect(pages()).toEqual(before);
    expect([db.buildIndex(), db.buildIndex(), db.buildIndex(), db.buildIndex()]).toEqual([2, 1, 0, 0]);
    expect(db.droppedIndexes()).toEqual([]);
    expect(pages()).toEqual(before);
    db.close();
  });

  it('puts the WAL checkpoint off for a large batch until idle', () => {
    const file = join(tempDir('keydesk-deferred-'), 'keydesk.db');
    const db = new LocalDb(file);
    expect(db.transaction(() => db.dropIndexes(DEFER_ROWS))).toBe(true);
    expect(db.checkpointDue()).toBe(true);
    // Past the 64 MiB of WAL that would otherwise copy it into the file at a commit.
    for (let seed = 0; seed < 3; seed++) db.recordKeys(PROFILE, makeKeys(60_000, seed));
    const wal = statSync(`${file}-wal`).size;
    expect(wal).toBeGreaterThan(64 * 1024 * 1024);
    expect(statSync(file).size).toBeLessThan(wal / 8);
    db.checkpoint();
    expect(db.checkpointDue()).toBe(false);
    expect(statSync(file).size).toBeGreaterThan(wal / 4);
    db.close();
  });

  it('keeps them for a batch under a quarter of the ledger', () => {
    const file = join(tempDir('keydesk-deferred-'), 'keydesk.db');
    const db = new LocalDb(file);
    // The rule reads the per-status counts: a ledger of four batches and one row, without writing them all.
    const raw = new DatabaseSync(file);
    raw.prepare("INSERT INTO ledger_counts (profile_id, status, n) VALUES ('other', 'generated', ?)").run(4 * DEFER_ROWS + 1);
    raw.close();
    expect(db.transaction(() => db.dropIndexes(DEFER_ROWS))).toBe(false);
    expect(db.transaction(() => db.dropIndexes(DEFER_ROWS + 1))).toBe(true);
    expect(db.droppedIndexes()).toEqual(SORTED);
    db.close();
  });
});
