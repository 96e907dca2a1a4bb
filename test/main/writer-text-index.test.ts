// The ledger writer's thread writes new rows' text entries once its queue is quiet, and stays until they are all
// in; a text filter finds the rows before and after. A real worker on a real file; no timing is asserted.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalDb } from '../../src/main/store/local-db.ts';
import { LEDGER_CHUNK, Writer } from '../../src/main/store/writer.ts';
import { makeKeys } from '../support/ledger-model.ts';
import { tempDir } from '../support/temp-dir.ts';

describe("the writer thread's text index", () => {
  it('indexes the rows it wrote once idle, then lets its thread go', async () => {
    const file = join(tempDir('keydesk-writer-text-'), 'keydesk.db');
    const db = new LocalDb(file);
    const writer = new Writer({ file, idleMs: 50 });
    const count = LEDGER_CHUNK + 2_345;
    const keys = makeKeys(count, 3).map((k, i) => ({
      ...k,
      value: `KD-TEXT-${String(i).padStart(6, '0')}`,
      note: i % 2 ? 'odd Ω' : 'even',
      hwid: null,
    }));
    expect(await writer.recordKeys('p', keys)).toEqual({ written: count, failed: 0, failure: null });
    // Found by text whether or not the thread has indexed them yet.
    const found = () => db.queryLedger('p', { text: 'd ω' }, { field: 'value', dir: 'asc' }, 0, 3, { exact: true });
    expect(found().total).toBe(Math.floor(count / 2));
    await expect.poll(() => db.unindexed(), { timeout: 60_000 }).toBe(0);
    await expect.poll(() => writer.threadRunning, { timeout: 10_000 }).toBe(false);
    expect(found()).toMatchObject({
      total: Math.floor(count / 2),
      rows: [{ value: 'KD-TEXT-000001' }, { value: 'KD-TEXT-000003' }, { value: 'KD-TEXT-000005' }],
    });
    await writer.close();
    db.close();
  }, 90_000);

  it('indexes rows a thread before it left unindexed', async () => {
    const file = join(tempDir('keydesk-writer-backlog-'), 'keydesk.db');
    // A writer that quit mid-way leaves rows after ledger_indexed.upto; a later thread finds them at its start.
    const earlier = new LocalDb(file, { deferText: true });
    earlier.recordKeys(
      'p',
      makeKeys(500, 7).map((k, i) => ({ ...k, value: `KD-LEFT-${String(i).padStart(4, '0')}`, hwid: null })),
    );
    earlier.close();
    const db = new LocalDb(file);
    expect(db.unindexed()).toBe(500);
    const writer = new Writer({ file, idleMs: 50 });
    // A deletion mark of a key the ledger lacks writes no row: only the thread's start can index the 500.
    await writer.markDeleted('p', 'KD-NOT-THERE');
    await expect.poll(() => db.unindexed(), { timeout: 60_000 }).toBe(0);
    expect(db.queryLedger('p', { text: 'LEFT-04' }, { field: 'value', dir: 'asc' }, 0, 1, { exact: true }).total).toBe(100);
    await writer.close();
    db.close();
  }, 90_000);
});
