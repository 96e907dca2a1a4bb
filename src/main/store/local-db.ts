// The app's own records in node:sqlite (userData/keydesk.db): the ledger of keys this app generated or has
// seen, execution samples for the history chart, and the audit log of mutating operations. No secrets.
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import type { AuditEntry, ExecutionSample, Key, LedgerRow, LedgerSortField } from '../../shared/domain.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS ledger (
  profile_id   TEXT NOT NULL,
  value        TEXT NOT NULL,
  note         TEXT NOT NULL,
  status       TEXT NOT NULL,
  is_premium   INTEGER NOT NULL,
  expires_at   TEXT,
  hwid         TEXT,
  created_at   TEXT,
  last_seen_at TEXT NOT NULL,
  search       TEXT NOT NULL,             -- lower(value, note, hwid): one column for the text filter
  PRIMARY KEY (profile_id, value)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS ledger_created ON ledger (profile_id, created_at);
CREATE INDEX IF NOT EXISTS ledger_seen ON ledger (profile_id, last_seen_at);
CREATE INDEX IF NOT EXISTS ledger_expires ON ledger (profile_id, expires_at);
CREATE INDEX IF NOT EXISTS ledger_note ON ledger (profile_id, note);
CREATE INDEX IF NOT EXISTS ledger_status ON ledger (profile_id, status);
-- Narrow copy of the text the filter reads: counting matches scans this, not the wide rows.
CREATE INDEX IF NOT EXISTS ledger_search ON ledger (profile_id, search);
CREATE TABLE IF NOT EXISTS samples (
  profile_id TEXT NOT NULL,
  at         TEXT NOT NULL,
  count      INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS samples_by_time ON samples (profile_id, at);
CREATE TABLE IF NOT EXISTS audit (
  id           INTEGER PRIMARY KEY,
  at           TEXT NOT NULL,
  profile_id   TEXT NOT NULL,
  profile_name TEXT NOT NULL,
  action       TEXT NOT NULL,
  target       TEXT NOT NULL,
  outcome      TEXT NOT NULL,
  message      TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS audit_by_time ON audit (at);
`;

/**
 * Changes to SCHEMA once it shipped, in order: entry i takes a file from user_version i to i + 1. A new file
 * gets SCHEMA and then every entry, so old and new files end the same. Append only; never edit an entry.
 */
const MIGRATIONS: readonly string[] = [
  // 1: a days key's term, shown until activation gives it an expiry.
  'ALTER TABLE ledger ADD COLUMN days_key INTEGER;',
];

const SORT_COLUMNS: Record<LedgerSortField, string> = {
  createdAt: 'created_at',
  expiresAt: 'expires_at',
  value: 'value',
  note: 'note',
  status: 'status',
  lastSeenAt: 'last_seen_at',
};

export interface LedgerFilter {
  text?: string | undefined;
  status?: 'generated' | 'active' | 'deleted' | undefined;
  premium?: boolean | undefined;
}
export interface AuditFilter {
  text?: string | undefined;
  outcome?: 'ok' | 'failed' | undefined;
  action?: string | undefined;
}

interface LedgerDbRow {
  value: string;
  note: string;
  status: string;
  is_premium: number;
  expires_at: string | null;
  hwid: string | null;
  created_at: string | null;
  last_seen_at: string;
  days_key: number | null;
}

const AUDIT_SELECT = 'SELECT id, at, profile_id AS profileId, profile_name AS profileName, action, target, outcome, message FROM audit';

/** Rows read to guess how many rows a ledger filter matches. */
const SAMPLE_ROWS = 1_000;

const likeTerm = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export class LocalDb {
  private readonly db: DatabaseSync;
  private readonly ledgerSizes = new Map<string, number>();

  constructor(file: string) {
    this.db = new DatabaseSync(file, { timeout: 5_000 });
    const { user_version: from } = this.db.prepare('PRAGMA user_version').get() as { user_version: number };
    if (from > MIGRATIONS.length) {
      this.db.close();
      throw new Error(`keydesk.db was written by a newer Keydesk (schema ${from}); update Keydesk to open it.`);
    }
    // 32 MiB of page cache: a 100,000-key ledger's pages stay in memory between keystrokes.
    this.db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -32768;');
    this.db.exec(SCHEMA);
    this.migrate(from);
  }

  private migrate(from: number): void {
    if (from === MIGRATIONS.length) return;
    this.db.exec('BEGIN IMMEDIATE');
    try {
      for (const step of MIGRATIONS.slice(from)) this.db.exec(step);
      this.db.exec(`PRAGMA user_version = ${MIGRATIONS.length}`);
      this.db.exec('COMMIT');
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }

  // ---- ledger --------------------------------------------------------------------------------------------

  /** Records keys as the service last described them. */
  recordKeys(profileId: string, keys: readonly Key[], seenAt = new Date().toISOString()): void {
    if (keys.length === 0) return;
    this.ledgerSizes.delete(profileId);
    const upsert = this.db.prepare(`INSERT INTO ledger (profile_id, value, note, status, is_premium, expires_at, hwid, created_at, last_seen_at, search, days_key)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (profile_id, value) DO UPDATE SET note = excluded.note, status = excluded.status, is_premium = excluded.is_premium,
        expires_at = excluded.expires_at, hwid = excluded.hwid, created_at = coalesce(excluded.created_at, ledger.created_at),
        last_seen_at = excluded.last_seen_at, search = excluded.search, days_key = excluded.days_key`);
    this.db.exec('BEGIN');
    try {
      for (const k of keys) {
        const search = `${k.value}\n${k.note}\n${k.hwid ?? ''}`.toLowerCase();
        upsert.run(profileId, k.value, k.note, k.status, k.isPremium ? 1 : 0, k.expiresAt, k.hwid, k.createdAt || null, seenAt, search, k.expiresByDaysKey ? k.daysKey : null);
      }
      this.db.exec('COMMIT');
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  markDeleted(profileId: string, value: string, seenAt = new Date().toISOString()): void {
    this.db.prepare("UPDATE ledger SET status = 'deleted', last_seen_at = ? WHERE profile_id = ? AND value = ?").run(seenAt, profileId, value);
  }

  /**
   * The WHERE clause for a filter. The unary + keeps SQLite off the status index where reading through it would
   * cost a table lookup per row: with a text term, which one pass over ledger_search or the table answers, and
   * when walking the sort column's index (`walk`), which must stay the way rows are read.
   */
  private ledgerWhere(profileId: string, filter: LedgerFilter, walk = false): { sql: string; params: SQLInputValue[] } {
    const clauses = ['profile_id = ?'];
    const params: SQLInputValue[] = [profileId];
    const plus = walk || filter.text ? '+' : '';
    if (filter.text) {
      clauses.push('instr(search, ?) > 0');
      params.push(filter.text.toLowerCase());
    }
    if (filter.status) {
      clauses.push(`${plus}status = ?`);
      params.push(filter.status);
    }
    if (filter.premium !== undefined) {
      clauses.push(`${plus}is_premium = ?`);
      params.push(filter.premium ? 1 : 0);
    }
    return { sql: clauses.join(' AND '), params };
  }

  /** How many rows a profile's ledger holds, counted once and kept until the next write. */
  private ledgerSize(profileId: string): number {
    let n = this.ledgerSizes.get(profileId);
    if (n === undefined) {
      n = (this.db.prepare('SELECT count(*) AS n FROM ledger WHERE profile_id = ?').get(profileId) as { n: number }).n;
      this.ledgerSizes.set(profileId, n);
    }
    return n;
  }

  /**
   * One page of the ledger and the number of rows the filter matches. Two plans, chosen by how many rows match:
   * - most rows ("dense"): count the matches, then walk the sort column's index, testing each row, until the
   *   page is full; a page costs about its own size.
   * - few rows ("sparse"): one pass over the table collects each match's key and sort value, which give the
   *   count; the page is taken from those small pairs and only its rows are read whole. Walking the sort index
   *   instead would read a table row for nearly every row in it (a WITHOUT ROWID table cannot defer that read),
   *   and reading every match whole to sort it costs a lookup per match.
   * Which plan is guessed from the first SAMPLE_ROWS rows in key order (random for generated keys). A sparse
   * guess runs the sparse plan at once; a dense guess counts first and the count decides. A wrong guess only
   * costs time: both plans return the same rows.
   */
  queryLedger(
    profileId: string,
    filter: LedgerFilter,
    sort: { field: LedgerSortField; dir: 'asc' | 'desc' },
    offset: number,
    limit: number,
  ): { rows: LedgerRow[]; total: number } {
    const where = this.ledgerWhere(profileId, filter);
    const dir = sort.dir === 'asc' ? 'ASC' : 'DESC';
    const column = SORT_COLUMNS[sort.field];
    const size = this.ledgerSize(profileId);
    let total: number | null = null;
    if (!filter.text && !filter.status && filter.premium === undefined) total = size;
    else {
      const sample = this.db
        .prepare(`SELECT count(*) AS sampled, coalesce(sum(${where.sql}), 0) AS matches FROM (SELECT * FROM ledger WHERE profile_id = ? LIMIT ?)`)
        .get(...where.params, profileId, SAMPLE_ROWS) as { sampled: number; matches: number };
      if (sample.sampled === size) total = sample.matches;
      else if (sample.matches * 4 >= sample.sampled) total = this.countLedger(where);
    }

    if (total === null || total * 2 < size) {
      const rows = this.db
        .prepare(
          `WITH hits AS MATERIALIZED (SELECT value, ${column} AS k FROM ledger WHERE ${where.sql}),
             page AS MATERIALIZED (SELECT value, k FROM hits ORDER BY k ${dir}, value ${dir} LIMIT ? OFFSET ?)
           SELECT ledger.*, (SELECT count(*) FROM hits) AS total
           FROM page CROSS JOIN ledger ON ledger.profile_id = ? AND ledger.value = page.value
           ORDER BY page.k ${dir}, page.value ${dir}`,
        )
        .all(...where.params, limit, offset, profileId) as unknown as (LedgerDbRow & { total: number })[];
      // With no row on the page, the count is known to be 0 only on the first page.
      total ??= rows[0]?.total ?? (offset === 0 ? 0 : this.countLedger(where));
      return { rows: rows.map(toLedgerRow), total };
    }

    const walk = this.ledgerWhere(profileId, filter, true);
    const rows = this.db
      .prepare(`SELECT * FROM ledger WHERE ${walk.sql} ORDER BY ${column} ${dir}, value ${dir} LIMIT ? OFFSET ?`)
      .all(...walk.params, limit, offset) as unknown as LedgerDbRow[];
    return { rows: rows.map(toLedgerRow), total };
  }

  private countLedger(where: { sql: string; params: SQLInputValue[] }): number {
    return (this.db.prepare(`SELECT count(*) AS n FROM ledger WHERE ${where.sql}`).get(...where.params) as { n: number }).n;
  }

  /**
   * The key values a filter matches, at most `max` of them (in key order), and how many match in all: one pass,
   * reading the narrow ledger_search index when there is a text term.
   */
  ledgerValues(profileId: string, filter: LedgerFilter, max: number): { values: string[]; total: number } {
    const where = this.ledgerWhere(profileId, filter);
    const values = (this.db.prepare(`SELECT value FROM ledger WHERE ${where.sql} LIMIT ?`).all(...where.params, max) as { value: string }[]).map((r) => r.value);
    return { values, total: values.length < max ? values.length : this.countLedger(where) };
  }

  /** The rows of the given keys, in the order given; keys the ledger does not hold are left out. */
  *iterateLedgerKeys(profileId: string, values: readonly string[]): Generator<LedgerRow> {
    const rows = this.db
      .prepare('SELECT ledger.* FROM json_each(?) AS j CROSS JOIN ledger ON ledger.profile_id = ? AND ledger.value = j.value ORDER BY j.key')
      .iterate(JSON.stringify(values), profileId);
    for (const row of rows) yield toLedgerRow(row as unknown as LedgerDbRow);
  }

  *iterateLedger(profileId: string, filter: LedgerFilter): Generator<LedgerRow> {
    const where = this.ledgerWhere(profileId, filter);
    for (const row of this.db.prepare(`SELECT * FROM ledger WHERE ${where.sql} ORDER BY created_at DESC, value`).iterate(...where.params)) {
      yield toLedgerRow(row as unknown as LedgerDbRow);
    }
  }

  // ---- samples -------------------------------------------------------------------------------------------

  recordSample(profileId: string, count: number, at = new Date().toISOString()): void {
    this.db.prepare('INSERT INTO samples (profile_id, at, count) VALUES (?, ?, ?)').run(profileId, at, count);
  }

  samples(profileId: string, since: string | null): ExecutionSample[] {
    return (
      this.db
        .prepare('SELECT at, count FROM samples WHERE profile_id = ? AND at >= ? ORDER BY at')
        .all(profileId, since ?? '') as unknown as ExecutionSample[]
    ).map((s) => ({ at: s.at, count: s.count }));
  }

  // ---- audit ---------------------------------------------------------------------------------------------

  audit(entry: Omit<AuditEntry, 'id' | 'at'> & { at?: string }): void {
    this.db
      .prepare('INSERT INTO audit (at, profile_id, profile_name, action, target, outcome, message) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(entry.at ?? new Date().toISOString(), entry.profileId, entry.profileName, entry.action, entry.target, entry.outcome, entry.message);
  }

  private auditWhere(filter: AuditFilter): { sql: string; params: SQLInputValue[] } {
    const clauses = ['1 = 1'];
    const params: SQLInputValue[] = [];
    if (filter.text) {
      clauses.push("(target LIKE ? ESCAPE '\\' OR message LIKE ? ESCAPE '\\' OR profile_name LIKE ? ESCAPE '\\')");
      const t = likeTerm(filter.text);
      params.push(t, t, t);
    }
    if (filter.outcome) {
      clauses.push('outcome = ?');
      params.push(filter.outcome);
    }
    if (filter.action) {
      clauses.push('action = ?');
      params.push(filter.action);
    }
    return { sql: clauses.join(' AND '), params };
  }

  listAudit(filter: AuditFilter, offset: number, limit: number): { entries: AuditEntry[]; total: number } {
    const where = this.auditWhere(filter);
    const total = (this.db.prepare(`SELECT count(*) AS n FROM audit WHERE ${where.sql}`).get(...where.params) as { n: number }).n;
    const entries = this.db.prepare(`${AUDIT_SELECT} WHERE ${where.sql} ORDER BY id DESC LIMIT ? OFFSET ?`).all(...where.params, limit, offset) as unknown as AuditEntry[];
    return { entries: entries.map((e) => ({ ...e })), total };
  }

  /** Every entry the filter matches, newest first, one at a time (for exports). */
  *iterateAudit(filter: AuditFilter): Generator<AuditEntry> {
    const where = this.auditWhere(filter);
    for (const e of this.db.prepare(`${AUDIT_SELECT} WHERE ${where.sql} ORDER BY id DESC`).iterate(...where.params)) yield { ...(e as unknown as AuditEntry) };
  }
}

function toLedgerRow(r: LedgerDbRow): LedgerRow {
  return {
    value: r.value,
    note: r.note,
    status: r.status === 'active' || r.status === 'deleted' ? r.status : 'generated',
    isPremium: r.is_premium === 1,
    expiresAt: r.expires_at,
    daysKey: r.days_key,
    hwid: r.hwid,
    createdAt: r.created_at,
    lastSeenAt: r.last_seen_at,
  };
}
