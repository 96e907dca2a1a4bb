// When a write of keydesk.db fails, the real cause is thrown: SQLite may end the transaction itself (a full disk,
// an I/O error, a trigger's RAISE(ROLLBACK)), and a ROLLBACK after that would throw "no transaction is active".
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/main/store/local-db.ts';

/** A real SQLite error: `sql` run on `db`, caught. */
function errorOf(db: DatabaseSync, fn: () => void): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error(`expected SQLite to refuse (${db.isOpen ? 'open' : 'closed'})`);
}

describe('a failed transaction keeps its cause', () => {
  it("throws the trigger's own words when SQLite rolled back, writing nothing", () => {
    const db = new DatabaseSync(':memory:');
    db.exec(`CREATE TABLE t (v INTEGER);
             CREATE TRIGGER refuse BEFORE INSERT ON t WHEN new.v = 2 BEGIN SELECT RAISE(ROLLBACK, 'two is refused'); END;`);
    const error = errorOf(db, () => {
      inTransaction(db, 'BEGIN IMMEDIATE', () => {
        db.exec('INSERT INTO t VALUES (1)');
        db.exec('INSERT INTO t VALUES (2)');
      });
    });
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain('two is refused');
    expect((error as Error).message).not.toContain('no transaction is active');
    expect(db.isTransaction).toBe(false);
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 0 });
  });

  it('throws SQLITE_FULL and rolls back what came before it', () => {
    const db = new DatabaseSync(':memory:');
    db.exec('CREATE TABLE t (v TEXT)');
    const pages = (db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count;
    db.exec(`PRAGMA max_page_count = ${pages + 2}`);
    const error = errorOf(db, () => {
      inTransaction(db, 'BEGIN', () => {
        db.exec("INSERT INTO t VALUES ('kept only if all of it fits')");
        for (let i = 0; i < 100; i++) db.prepare('INSERT INTO t VALUES (?)').run('x'.repeat(4000));
      });
    });
    expect((error as { errcode?: unknown }).errcode).toBe(13);
    expect(db.isTransaction).toBe(false);
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 0 });
  });

  it('commits and answers what fn returns when nothing fails', () => {
    const db = new DatabaseSync(':memory:');
    db.exec('CREATE TABLE t (v INTEGER)');
    const answer = inTransaction(db, 'BEGIN', () => {
      db.exec('INSERT INTO t VALUES (7)');
      return 'written';
    });
    expect(answer).toBe('written');
    expect(db.prepare('SELECT v FROM t').all()).toEqual([{ v: 7 }]);
  });
});
