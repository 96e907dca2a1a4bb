// The sandbox's one SQLite connection: cached prepared statements, the transaction helper, and the WAL's upkeep.
import { DatabaseSync, type SQLInputValue, type StatementResultingChanges, type StatementSync } from 'node:sqlite';

export type SqlValue = SQLInputValue;

export interface DbOptions {
  /** A PASSIVE checkpoint runs after this many written rows, off the request path, so the WAL stays a few MiB. */
  checkpointEveryRows?: number;
  /** Once writes pause this long, the WAL is checkpointed and truncated to nothing. */
  idleMs?: number;
  /** Most page cache to keep, in KiB (default 256 MiB for serving load; the embedded sandbox passes less). */
  cacheSizeKiB?: number;
}

/** WAL file size kept after a checkpoint resets it (SQLite truncates it down to this). */
const WAL_SIZE_LIMIT = 4 * 1024 * 1024;

export class Db {
  private readonly conn: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  /** Statements run while plans() records, with their parameters. */
  private recorder: { sql: string; params: SqlValue[] }[] | null = null;
  private readonly checkpointEveryRows: number;
  private readonly idleMs: number;
  private rowsSinceCheckpoint = 0;
  private lastWriteAt = 0;
  private dirty = false;
  private checkpointQueued = false;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(file: string, options: DbOptions = {}) {
    this.checkpointEveryRows = options.checkpointEveryRows ?? 1_000;
    this.idleMs = options.idleMs ?? 1_000;
    this.conn = new DatabaseSync(file, { timeout: 5_000 });
    // 16 KiB pages: bulk inserts into the key indexes touch ~30% fewer pages. Takes effect on a new file only.
    this.conn.exec('PRAGMA page_size = 16384');
    this.conn.exec('PRAGMA journal_mode = WAL');
    // In WAL mode NORMAL loses nothing to a process crash (SIGKILL): committed frames are in the WAL file.
    this.conn.exec('PRAGMA synchronous = NORMAL');
    this.conn.exec('PRAGMA foreign_keys = ON');
    // Batch inserts land at random places in the unique value index; once its pages no longer fit, each batch
    // rereads them.
    this.conn.exec(`PRAGMA cache_size = -${Math.max(1_024, Math.floor(options.cacheSizeKiB ?? 262_144))}`);
    // SQLite's automatic checkpoint would run inside the COMMIT of whichever request crossed its threshold;
    // wrote() schedules them instead (see DbOptions).
    this.conn.exec('PRAGMA wal_autocheckpoint = 0');
    this.conn.exec(`PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT}`);
  }

  inTransaction(): boolean {
    return this.conn.isTransaction;
  }

  /** The prepared statement for `sql`, prepared once per distinct text. */
  statement(sql: string): StatementSync {
    let stmt = this.statements.get(sql);
    if (stmt === undefined) {
      stmt = this.conn.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  // The row type is the caller's reading of its own SELECT; SQLite cannot check it.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
  get<T>(sql: string, ...params: SqlValue[]): T | undefined {
    this.recorder?.push({ sql, params });
    return this.statement(sql).get(...params) as T | undefined;
  }

  all<T>(sql: string, ...params: SqlValue[]): T[] {
    this.recorder?.push({ sql, params });
    return this.statement(sql).all(...params) as T[];
  }

  run(sql: string, ...params: SqlValue[]): StatementResultingChanges {
    this.recorder?.push({ sql, params });
    return this.statement(sql).run(...params);
  }

  exec(sql: string): void {
    this.conn.exec(sql);
  }

  fn(name: string, impl: (...args: SqlValue[]) => SqlValue): void {
    this.conn.function(name, { deterministic: true }, impl);
  }

  /** Runs `fn` in one IMMEDIATE transaction (write lock at BEGIN): all its writes land, or none. Nested, it joins the outer one. */
  transaction<T>(fn: () => T): T {
    if (this.conn.isTransaction) return fn();
    this.conn.exec('BEGIN IMMEDIATE');
    try {
      const result = fn();
      this.conn.exec('COMMIT');
      return result;
    } catch (error) {
      // fn may have ended the transaction itself (SQLite rolls back on some errors).
      if (this.inTransaction()) this.conn.exec('ROLLBACK');
      throw error;
    }
  }

  /**
   * Runs `fn` in savepoint `name`, undoing its writes if it throws, unless the error already rolled back the whole
   * transaction (undoing then would fail and hide the cause).
   */
  savepoint<T>(name: string, fn: () => T): T {
    if (!/^[a-z_]+$/.test(name)) throw new Error(`Savepoint names are lower-case words joined by _, not '${name}'.`);
    this.conn.exec(`SAVEPOINT ${name}`);
    try {
      const result = fn();
      this.conn.exec(`RELEASE ${name}`);
      return result;
    } catch (error) {
      if (this.inTransaction()) {
        this.conn.exec(`ROLLBACK TO ${name}`);
        this.conn.exec(`RELEASE ${name}`);
      }
      throw error;
    }
  }

  /** SQLite's query plan for every statement `fn` runs, with its own parameters, so index tests prove the real path. */
  plans<T>(fn: () => T): { result: T; plans: string[][] } {
    const ran: { sql: string; params: SqlValue[] }[] = [];
    this.recorder = ran;
    let result: T;
    try {
      result = fn();
    } finally {
      this.recorder = null;
    }
    const plans = ran.map(({ sql, params }) =>
      (this.conn.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail),
    );
    return { result, plans };
  }

  // ---- the WAL ------------------------------------------------------------------------------------------

  /** Notes rows written: past the budget a PASSIVE checkpoint runs between requests (SQLite rewinds the WAL only then). */
  wrote(rows: number): void {
    this.rowsSinceCheckpoint += rows;
    this.lastWriteAt = performance.now();
    this.dirty = true;
    if (this.rowsSinceCheckpoint >= this.checkpointEveryRows && !this.checkpointQueued) {
      this.checkpointQueued = true;
      setImmediate(() => {
        this.checkpointQueued = false;
        this.checkpoint('PASSIVE');
      });
    }
    this.idleTimer ??= setTimeout(this.onIdleCheck, this.idleMs).unref();
  }

  private readonly onIdleCheck = (): void => {
    this.idleTimer = null;
    if (!this.dirty || !this.conn.isOpen) return;
    const quietFor = performance.now() - this.lastWriteAt;
    if (quietFor < this.idleMs) {
      this.idleTimer = setTimeout(this.onIdleCheck, this.idleMs - quietFor).unref();
      return;
    }
    // Another process may be writing: TRUNCATE must not wait for it on our event loop. If busy, try again later.
    if (!this.checkpoint('TRUNCATE')) this.idleTimer = setTimeout(this.onIdleCheck, this.idleMs).unref();
    // Writes have paused: the page cache's memory goes back too (an embedded sandbox idles in a desktop app).
    else this.conn.exec('PRAGMA shrink_memory');
  };

  /** Copies the WAL into the database (TRUNCATE also empties it; neither waits). False when another connection blocked it. */
  checkpoint(mode: 'PASSIVE' | 'TRUNCATE' = 'PASSIVE'): boolean {
    if (!this.conn.isOpen || this.conn.isTransaction) return false;
    this.rowsSinceCheckpoint = 0;
    if (mode === 'TRUNCATE') this.conn.exec('PRAGMA busy_timeout = 0');
    try {
      const row = this.conn.prepare(`PRAGMA wal_checkpoint(${mode})`).get() as
        { busy: number; log: number; checkpointed: number } | undefined;
      const complete = row !== undefined && row.busy === 0 && row.checkpointed === row.log;
      if (complete && mode === 'TRUNCATE') this.dirty = false;
      return complete;
    } catch {
      // SQLITE_BUSY or LOCKED from another process: the next checkpoint will do.
      return false;
    } finally {
      if (mode === 'TRUNCATE') this.conn.exec('PRAGMA busy_timeout = 5000');
    }
  }

  close(): void {
    if (!this.conn.isOpen) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.checkpoint('TRUNCATE');
    this.conn.close();
  }
}
