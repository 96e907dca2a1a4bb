// SQLite's own SQLITE_FULL for tests: a write past the pages a connection may use (PRAGMA max_page_count).
import { DatabaseSync } from 'node:sqlite';

export function sqliteFull(): Error & { errcode: number } {
  const db = new DatabaseSync(':memory:');
  db.exec('CREATE TABLE t (x)');
  const pages = (db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count;
  db.exec(`PRAGMA max_page_count = ${pages}`);
  try {
    db.exec('INSERT INTO t SELECT randomblob(8000) FROM (SELECT 1 UNION ALL SELECT 2)');
  } catch (error) {
    return error as Error & { errcode: number };
  } finally {
    db.close();
  }
  throw new Error('SQLite allowed a write past max_page_count');
}
