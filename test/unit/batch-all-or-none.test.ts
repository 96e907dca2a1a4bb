// A generated batch is written 2,048 keys per statement inside one savepoint of one transaction: whatever a
// later statement meets, the attempt leaves nothing, and the error that stopped it is the one reported.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Keygen from '../../src/sandbox/keygen.ts';

const forced = vi.hoisted(() => ({ value: null as string | null, at: 0, attempts: 0, collideAttempts: 0 }));

vi.mock('../../src/sandbox/keygen.ts', async (importOriginal) => {
  const real = await importOriginal<typeof Keygen>();
  return {
    ...real,
    generateKeyBlock: (count: number) => {
      const block = real.generateKeyBlock(count);
      forced.attempts++;
      // Overwrite key `at` with a value already in the database: the statement holding it is refused.
      if (forced.value !== null && forced.attempts <= forced.collideAttempts)
        block.bytes.write(forced.value, forced.at * real.KEY_LENGTH, 'latin1');
      return block;
    },
  };
});

const { SandboxStore, batchKeys } = await import('../../src/sandbox/store.ts');

let store: InstanceType<typeof SandboxStore>;
let serviceId: number;
const params = (note: string, count = 5_000) => ({
  count,
  isPremium: false,
  note,
  expire: '2026-12-31',
  expiresByDaysKey: false,
  daysKey: null,
});
const rowsOf = (note: string) =>
  store.inspect('SELECT k.id, k.value FROM keys k JOIN notes n ON n.id = k.note_id WHERE n.text = ? ORDER BY k.id', note);
const keyCount = () => store.inspect('SELECT count(*) AS n FROM keys')[0]?.n;
const errorOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
};

beforeEach(() => {
  store = new SandboxStore(':memory:', { now: () => Date.UTC(2026, 10, 22, 12) });
  serviceId = store.createService('Parts', 'parts').service.id;
  forced.value = null;
  forced.attempts = 0;
  forced.collideAttempts = 0;
});

describe('a duplicate key in a later insert statement of a batch', () => {
  it('refused on every attempt: nothing of the batch is left', () => {
    const existing = batchKeys(store.generateKeys(serviceId, params('existing', 1)))[0];
    forced.value = existing?.value ?? null;
    forced.at = 3_000; // the second statement (2,048..4,095)
    forced.collideAttempts = 3;
    forced.attempts = 0;
    expect(errorOf(() => store.generateKeys(serviceId, params('parts')))).toMatch(/UNIQUE constraint failed/);
    expect(forced.attempts).toBe(3);
    expect(rowsOf('parts')).toEqual([]);
    expect(keyCount()).toBe(1);
  });

  it('refused once: the retry writes exactly the new batch', () => {
    const existing = store.generateKeys(serviceId, params('existing', 1));
    forced.value = existing.values.value(0);
    forced.at = 4_500; // the third statement
    forced.collideAttempts = 1;
    forced.attempts = 0;
    const batch = store.generateKeys(serviceId, params('parts'));
    expect(forced.attempts).toBe(2);
    const rows = rowsOf('parts');
    expect(rows).toHaveLength(5_000);
    expect(rows.map((r) => Number(r.id))).toEqual(batch.ids);
    expect(batch.ids[0]).toBe((existing.ids[0] ?? 0) + 1);
    expect(rows.map((r) => String(r.value))).toEqual(batch.ids.map((_, i) => batch.values.value(i)));
    expect(keyCount()).toBe(5_001);
  });
});

describe('an error in a later insert statement of a batch', () => {
  it('rolling the transaction back is reported as itself, leaving nothing', () => {
    // Stands in for the errors SQLite may end a transaction on (SQLITE_FULL, IOERR, NOMEM, BUSY;
    // lang_transaction.html): the 3,000th row of the batch, in its second statement, ends the transaction.
    store.db.exec(`CREATE TRIGGER boom AFTER INSERT ON keys WHEN (SELECT count(*) FROM keys) = 3000
                   BEGIN SELECT RAISE(ROLLBACK, 'disk I/O error (stand-in)'); END`);
    expect(errorOf(() => store.generateKeys(serviceId, params('parts')))).toMatch(/disk I\/O error \(stand-in\)/);
    expect(keyCount()).toBe(0);
    expect(store.db.inTransaction()).toBe(false);
    // The store goes on: the next batch is written whole.
    store.db.exec('DROP TRIGGER boom');
    expect(store.generateKeys(serviceId, params('after', 10)).ids).toHaveLength(10);
  });

  it('rolling back one statement is reported as itself, leaving nothing', () => {
    const pages = Number(store.inspect('PRAGMA page_count')[0]?.page_count);
    store.db.exec(`PRAGMA max_page_count = ${String(pages + 20)}`);
    expect(errorOf(() => store.generateKeys(serviceId, params('parts')))).toMatch(/full/);
    expect(keyCount()).toBe(0);
    expect(store.db.inTransaction()).toBe(false);
  });
});
