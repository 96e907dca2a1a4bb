// A large generate answer written by the writer thread: its sort indexes dropped while the rows go in are all back
// once the thread is idle, with the same pages as before; a thread also builds those a thread before it left dropped.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { DEFER_ROWS } from '../../src/main/store/ledger-writes.ts';
import { LocalDb } from '../../src/main/store/local-db.ts';
import { Writer } from '../../src/main/store/writer.ts';
import { makeKeys } from '../support/ledger-model.ts';
import { tempDir } from '../support/temp-dir.ts';

const page = (db: LocalDb, field: 'note' | 'expiresAt' | 'status') =>
  db.queryLedger('p', { status: 'generated' }, { field, dir: 'asc' }, 1_000, 20, { exact: true });

describe("the writer thread's deferred sort indexes", () => {
  it('builds them again once a large answer is written', async () => {
    const file = join(tempDir('keydesk-writer-deferred-'), 'keydesk.db');
    const db = new LocalDb(file);
    const writer = new Writer({ file, idleMs: 50 });
    const schemaVersion = (): number => (raw.prepare('PRAGMA schema_version').get() as { schema_version: number }).schema_version;
    const raw = new DatabaseSync(file, { readOnly: true });
    const before = schemaVersion();
    const keys = makeKeys(DEFER_ROWS, 5).map((k, i) => ({ ...k, value: `KD-BULK-${String(i).padStart(6, '0')}`, hwid: null }));
    const intake = writer.intake();
    await intake.read(new TextEncoder().encode(JSON.stringify({ success: true, message: 'made', generatedKeys: keys })).buffer);
    expect(await intake.record('p')).toEqual({ written: DEFER_ROWS, failed: 0, failure: null });
    const shown = (['note', 'expiresAt', 'status'] as const).map((field) => page(db, field));
    expect(shown[0]?.total).toBe(keys.filter((k) => k.status === 'generated').length);
    await expect.poll(() => db.droppedIndexes(), { timeout: 60_000 }).toEqual([]);
    await expect.poll(() => writer.threadRunning, { timeout: 60_000 }).toBe(false);
    expect((['note', 'expiresAt', 'status'] as const).map((field) => page(db, field))).toEqual(shown);
    // Three dropped, three built again: each changes the schema once.
    expect(schemaVersion() - before).toBe(6);
    raw.close();
    await writer.close();
    db.close();
  }, 120_000);

  it('builds the indexes a thread before it left dropped', async () => {
    const file = join(tempDir('keydesk-writer-deferred-'), 'keydesk.db');
    const earlier = new LocalDb(file);
    earlier.recordKeys('p', makeKeys(300, 9));
    earlier.transaction(() => earlier.dropIndexes(DEFER_ROWS));
    earlier.close();
    const db = new LocalDb(file);
    expect(db.droppedIndexes()).toEqual(['ledger_expires', 'ledger_note', 'ledger_status']);
    const writer = new Writer({ file, idleMs: 50 });
    // A deletion mark of a key the ledger lacks writes no row: only the thread's start builds them.
    await writer.markDeleted('p', 'KD-NOT-THERE');
    await expect.poll(() => db.droppedIndexes(), { timeout: 60_000 }).toEqual([]);
    await writer.close();
    db.close();
  }, 90_000);
});
