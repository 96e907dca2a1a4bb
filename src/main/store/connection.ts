// The one connection to keydesk.db every room of the store goes through: opened at the schema with its pragmas,
// transactions, and a cache of compiled statements.
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { LOCAL_DB_VERSION, LocalDbRefused, MIGRATIONS, refusal, SCHEMA, versionOf } from './schema.ts';

/** WAL pages (4 KiB) after which a commit copies the WAL into the file: 64 MiB. */
export const CHECKPOINT_PAGES = 16_384;

/** How long a statement waits for a lock another process holds (the sqlite3 CLI, say) before it fails. */
const BUSY_TIMEOUT_MS = 5_000;

/**
 * keydesk.db opened as every connection uses it: the search text's lower-casing function, WAL, and the schema
 * (a new file gets it, an older one its migrations). A file of another schema is refused, untouched. `readOnly`: main's, which only reads (the
 * writer thread writes), on a file made already.
 */
function openLocalDb(file: string, cacheKiB: number, readOnly: boolean, busyMs: number): DatabaseSync {
  const db = new DatabaseSync(file, { timeout: busyMs, readOnly });
  // The search text is lower-cased by JavaScript's rules wherever it is written (SQLite's lower() folds ASCII only).
  db.function('js_lower', { deterministic: true }, (text) => (typeof text === 'string' ? text.toLowerCase() : text));
  const refused = refusal(db, readOnly);
  if (refused !== null) {
    db.close();
    throw new LocalDbRefused(refused);
  }
  db.exec(`PRAGMA cache_size = -${Math.round(cacheKiB)};`);
  if (readOnly) return db;
  // A checkpoint per 64 MiB of WAL, not SQLite's 4: a large write's pages are copied into the file once, not once
  // per chunk; the WAL is cut back to 4 MiB when it starts over.
  db.exec(
    `PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = ${CHECKPOINT_PAGES}; PRAGMA journal_size_limit = 4194304;`,
  );
  if (versionOf(db) !== LOCAL_DB_VERSION) {
    inTransaction(db, 'BEGIN IMMEDIATE', () => {
      // Read again under the write lock: another connection (a writer thread's) may have done it meanwhile.
      const from = versionOf(db);
      if (from === 0) db.exec(`${SCHEMA}\nPRAGMA user_version = ${LOCAL_DB_VERSION};`);
      else for (let v = from; v < LOCAL_DB_VERSION; v++) db.exec(`${MIGRATIONS[v] ?? ''}\nPRAGMA user_version = ${v + 1};`);
    });
  }
  return db;
}

/**
 * Runs `fn` in one transaction on `db`: all of it, or none. When `fn` fails, the error it threw is the one thrown:
 * SQLite may have ended the transaction itself (a full disk, an I/O error, a trigger's RAISE(ROLLBACK)), and a
 * ROLLBACK then would fail with "no transaction is active", hiding the cause.
 */
export function inTransaction<T>(db: DatabaseSync, begin: 'BEGIN' | 'BEGIN IMMEDIATE', fn: () => T): T {
  db.exec(begin);
  try {
    const r = fn();
    db.exec('COMMIT');
    return r;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

export class Connection {
  readonly db: DatabaseSync;
  /** The file this connection opened (':memory:' for none): a job's send log lives beside it (send-log.ts). */
  readonly file: string;
  /** Statements a running job repeats every step, compiled once: compiling costs more than running them. */
  private readonly statements = new Map<string, StatementSync>();

  private readonly readOnly: boolean;

  constructor(file: string, cacheKiB: number, readOnly = false, busyMs = BUSY_TIMEOUT_MS) {
    this.file = file;
    this.readOnly = readOnly;
    this.db = openLocalDb(file, cacheKiB, readOnly, busyMs);
  }

  close(): void {
    if (!this.db.isOpen) return;
    try {
      // What the WAL holds goes into the file now (readers still open keep theirs), not at the next 64 MiB.
      if (!this.readOnly) this.db.exec('PRAGMA wal_checkpoint(PASSIVE)');
    } catch {
      // A file that cannot take it now (full, damaged) keeps it in the WAL: SQLite reads it from there.
    }
    this.db.close();
  }

  /** Gives back the page cache's memory (SQLite's `shrink_memory`); the next read fills it again as needed. */
  releaseMemory(): void {
    if (this.db.isOpen) this.db.exec('PRAGMA shrink_memory');
  }

  /** Runs `fn` in one read transaction (one snapshot of the file), unless a transaction is open already. */
  read<T>(fn: () => T): T {
    return this.db.isTransaction ? fn() : this.transaction('BEGIN', fn);
  }

  /** Runs `fn` in one transaction: all of it, or none. Nested, it joins the outer one (the writer's, per command). */
  tx<T>(fn: () => T): T {
    return this.db.isTransaction ? fn() : this.transaction('BEGIN IMMEDIATE', fn);
  }

  private transaction<T>(begin: 'BEGIN' | 'BEGIN IMMEDIATE', fn: () => T): T {
    return inTransaction(this.db, begin, fn);
  }

  /** A statement run many times a second (a job's every step), compiled on first use. */
  statement(sql: string): StatementSync {
    let st = this.statements.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.statements.set(sql, st);
    }
    return st;
  }
}
