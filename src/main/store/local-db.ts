// The app's own records in node:sqlite (userData/keydesk.db): the ledger of keys this app generated or has
// seen, execution samples for the history chart, and the audit log of mutating operations. No secrets.
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import type { ParsedInput } from '../../shared/contract.ts';
import { LEDGER_COUNT_CAP } from '../../shared/rules.ts';
import type { AuditEntry, HistoryBucket, JobAction, JobItem, JobItemState, JobState, Key, LedgerRow, LedgerSortField } from '../../shared/domain.ts';

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
CREATE INDEX IF NOT EXISTS samples_by_time_count ON samples (profile_id, at, count);
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
  // 2: bulk work as persisted jobs (see src/main/jobs/), and a per-profile ceiling on requests in flight.
  `CREATE TABLE jobs (
     id          TEXT PRIMARY KEY,
     profile_id  TEXT NOT NULL,
     action      TEXT NOT NULL,
     params      TEXT NOT NULL,             -- JSON: days, or generate's parameters
     state       TEXT NOT NULL,
     reason      TEXT,
     created_at  TEXT NOT NULL,
     finished_at TEXT,
     total       INTEGER NOT NULL
   );
   CREATE INDEX jobs_by_profile ON jobs (profile_id, created_at);
   CREATE TABLE job_items (
     job_id  TEXT NOT NULL,
     seq     INTEGER NOT NULL,
     target  TEXT NOT NULL,
     size    INTEGER NOT NULL,
     state   TEXT NOT NULL,
     code    TEXT,
     message TEXT,
     PRIMARY KEY (job_id, seq)
   ) WITHOUT ROWID;
   CREATE INDEX job_items_by_state ON job_items (job_id, state, seq);
   CREATE TABLE profile_settings (profile_id TEXT PRIMARY KEY, bulk_ceiling INTEGER);`,
  // 3: the history reads min and max count per time range from the index alone (SCHEMA creates the new one).
  'DROP INDEX IF EXISTS samples_by_time;',
];

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/**
 * How samples are thinned (see "samples" below): samples older than `olderThanMs`, within `spanMs` before that,
 * keep per profile and per time slot (the ISO time's first `prefix` characters: 16 = the minute, 13 = the hour)
 * only the lowest and the highest count.
 */
export const SAMPLE_RETENTION = [
  { olderThanMs: DAY_MS, spanMs: 29 * DAY_MS, prefix: 16 },
  { olderThanMs: 30 * DAY_MS, spanMs: 100 * 365 * DAY_MS, prefix: 13 },
] as const;

/** A stretch of time the retention rule thins, and the time slot it keeps a min and a max for. */
export interface SampleWindow {
  profileId: string;
  from: string;
  to: string;
  prefix: number;
}

const SORT_COLUMNS: Record<LedgerSortField, string> = {
  createdAt: 'created_at',
  expiresAt: 'expires_at',
  value: 'value',
  note: 'note',
  status: 'status',
  lastSeenAt: 'last_seen_at',
};

/** A ledger filter as the contract's ledger.query checks it. */
export type LedgerFilter = ParsedInput<'ledger.query'>['filter'];
/** A row's place in a sort: its sort key (null sorts first ascending) and its value, the unique tiebreaker. */
export interface LedgerCursor {
  key: string | null;
  value: string;
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

/** A job as stored: its parameters stay JSON, read by the job service that wrote them. */
export interface StoredJob {
  id: string;
  profileId: string;
  action: JobAction;
  params: string;
  state: JobState;
  reason: string | null;
  createdAt: string;
  finishedAt: string | null;
  total: number;
}
/** How one sent item ended, with what the ledger and the audit log learn from it; written in one transaction. */
export interface ItemSettlement {
  seq: number;
  state: Exclude<JobItemState, 'sent'>;
  code: string | null;
  message: string | null;
}
export interface SettleBatch {
  jobId: string;
  profileId: string;
  items: readonly ItemSettlement[];
  seenKeys: readonly Key[];
  /** Keys described in part (no status): their reported fields update existing rows; the status stays. */
  reportedKeys?: readonly Key[];
  /** Values whose HWID a reset cleared (the service described nothing more): the rest of the row stays. */
  hwidCleared?: readonly string[];
  deletedValues: readonly string[];
  audit: readonly Omit<AuditEntry, 'id' | 'at'>[];
}
const JOB_SELECT = 'SELECT id, profile_id AS profileId, action, params, state, reason, created_at AS createdAt, finished_at AS finishedAt, total FROM jobs';

const AUDIT_SELECT = 'SELECT id, at, profile_id AS profileId, profile_name AS profileName, action, target, outcome, message FROM audit';


const likeTerm = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export class LocalDb {
  private readonly db: DatabaseSync;
  private readonly ledgerSizes = new Map<string, number>();
  /** Statements a running job repeats every step, compiled once: compiling costs more than running them. */
  private readonly jobStatements = new Map<string, StatementSync>();

  /**
   * `cacheKiB`: the connection's page cache (default 32 MiB: a 100,000-key ledger's pages stay in memory between
   * keystrokes); the ledger writer's own connection takes less. `busyTimeoutMs`: how long a statement waits for
   * the other connection's write lock (the ledger writer holds it one chunk at a time) before it fails.
   */
  constructor(file: string, options: { cacheKiB?: number; busyTimeoutMs?: number } = {}) {
    this.db = new DatabaseSync(file, { timeout: options.busyTimeoutMs ?? 5_000 });
    const { user_version: from } = this.db.prepare('PRAGMA user_version').get() as { user_version: number };
    if (from > MIGRATIONS.length) {
      this.db.close();
      throw new Error(`keydesk.db was written by a newer Keydesk (schema ${from}); update Keydesk to open it.`);
    }
    this.db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -${Math.round(options.cacheKiB ?? 32_768)};`);
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

  /** Runs `fn` in one transaction: all of it, or none. */
  private tx<T>(fn: () => T): T {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const r = fn();
      this.db.exec('COMMIT');
      return r;
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  /** A job statement, compiled on first use. */
  private jobStatement(sql: string): StatementSync {
    let st = this.jobStatements.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.jobStatements.set(sql, st);
    }
    return st;
  }

  // ---- ledger --------------------------------------------------------------------------------------------

  /** Records keys as the service last described them. */
  recordKeys(profileId: string, keys: readonly Key[], seenAt = new Date().toISOString()): void {
    if (keys.length === 0) return;
    this.tx(() => {
      this.upsertKeys(profileId, keys, seenAt);
    });
  }

  /**
   * One statement for the whole batch: the rows go in as one JSON array read by json_each, so 100,000 keys cost
   * one call into SQLite rather than 100,000. The search text is lower-cased here, as the filter term is.
   */
  private upsertKeys(profileId: string, keys: readonly Key[], seenAt: string): void {
    this.ledgerSizes.delete(profileId);
    // In key order: every index this touches leads with the value (or a column the batch shares), so sorted rows
    // walk each B-tree once, front to back, rather than landing on random pages of a table larger than the cache.
    const sorted = [...keys].sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    const rows = sorted.map((k) => [
      k.value, k.note, k.status, k.isPremium ? 1 : 0, k.expiresAt, k.hwid, k.createdAt || null,
      `${k.value}\n${k.note}\n${k.hwid ?? ''}`.toLowerCase(), k.expiresByDaysKey ? k.daysKey : null,
    ]);
    this.db
      .prepare(
        `INSERT INTO ledger (profile_id, value, note, status, is_premium, expires_at, hwid, created_at, last_seen_at, search, days_key)
         SELECT ?1, v ->> '$[0]', v ->> '$[1]', v ->> '$[2]', v ->> '$[3]', v ->> '$[4]', v ->> '$[5]', v ->> '$[6]', ?2, v ->> '$[7]', v ->> '$[8]'
         FROM (SELECT value AS v FROM json_each(?3)) WHERE true
         ON CONFLICT (profile_id, value) DO UPDATE SET note = excluded.note, status = excluded.status, is_premium = excluded.is_premium,
           expires_at = excluded.expires_at, hwid = excluded.hwid, created_at = coalesce(excluded.created_at, ledger.created_at),
           last_seen_at = excluded.last_seen_at, search = excluded.search, days_key = excluded.days_key`,
      )
      .run(profileId, seenAt, JSON.stringify(rows));
  }

  /**
   * A key the service described only in part (no status: the real dialect's extend answer, when it could not be
   * read back). Updates the ledger row's fields that came back and nothing else: the status is never guessed, and
   * a key not in the ledger yet is not added (a row needs a status). Like the job service, which records no
   * key whose status is unreported.
   */
  recordReportedFields(profileId: string, key: Key, seenAt = new Date().toISOString()): void {
    const unreported = new Set(key.unreported ?? []);
    const sets = ['note = ?', 'is_premium = ?', 'expires_at = ?', 'hwid = ?', 'search = ?', 'last_seen_at = ?'];
    const params: SQLInputValue[] = [key.note, key.isPremium ? 1 : 0, key.expiresAt, key.hwid, `${key.value}\n${key.note}\n${key.hwid ?? ''}`.toLowerCase(), seenAt];
    if (!unreported.has('daysKey')) {
      sets.push('days_key = ?');
      params.push(key.expiresByDaysKey ? key.daysKey : null);
    }
    if (!unreported.has('createdAt') && key.createdAt) {
      sets.push('created_at = ?');
      params.push(key.createdAt);
    }
    this.db.prepare(`UPDATE ledger SET ${sets.join(', ')} WHERE profile_id = ? AND value = ?`).run(...params, profileId, key.value);
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

  /**
   * The keys a filter names as a job's targets: as the ledger shows them, less those it knows are deleted unless
   * the filter asks for deleted keys (sending them again would only fail, or extend nothing).
   */
  private targetWhere(profileId: string, filter: LedgerFilter): { sql: string; params: SQLInputValue[] } {
    const where = this.ledgerWhere(profileId, filter);
    return filter.status ? where : { sql: `${where.sql} AND +status <> 'deleted'`, params: where.params };
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
   * One page of the ledger and how many rows the filter matches. Counting every match of a filter over a large
   * ledger costs a pass over all of it, so the count stops at `cap` (as mail clients say "more than 10,000"):
   * `totalCapped` says more than `total` rows match; `exact` counts them all. Two plans for the page:
   * - few rows ("sparse"): one pass collects each match's key and sort value, stopping past the cap; under it,
   *   those are every match, giving the count, and the page is taken from the small pairs, only its rows read
   *   whole. Walking the sort index instead would read a table row for nearly every row in it (a WITHOUT ROWID
   *   table cannot defer that read).
   * - more than the cap: walk the sort column's index, testing each row, until the page is full; a page costs
   *   about its size divided by the share of rows that match.
   * Both plans return the same rows.
   */
  queryLedger(
    profileId: string,
    filter: LedgerFilter,
    sort: { field: LedgerSortField; dir: 'asc' | 'desc' },
    offset: number,
    limit: number,
    count: { exact?: boolean; cap?: number } = {},
  ): { rows: LedgerRow[]; total: number; totalCapped: boolean } {
    const where = this.ledgerWhere(profileId, filter);
    const dir = sort.dir === 'asc' ? 'ASC' : 'DESC';
    const column = SORT_COLUMNS[sort.field];
    const size = this.ledgerSize(profileId);
    const cap = count.cap ?? LEDGER_COUNT_CAP;
    const unfiltered = !filter.text && !filter.status && filter.premium === undefined;
    let total: number;
    let totalCapped = false;
    if (unfiltered) total = size;
    else {
      // One pass collects the matches' keys and sort values, stopping at the cap's next match (all of them with
      // `exact` while under half the ledger). Under the cap, they are every match: the count, and the page
      // taken from them. Past it, the dense walk below makes the page.
      const most = count.exact === true ? Math.ceil(size / 2) : cap + 1;
      const rows = this.db
        .prepare(
          `WITH hits AS MATERIALIZED (SELECT value, ${column} AS k FROM ledger WHERE ${where.sql} LIMIT ?),
             page AS MATERIALIZED (SELECT value, k FROM hits ORDER BY k ${dir}, value ${dir} LIMIT ? OFFSET ?)
           SELECT ledger.*, (SELECT count(*) FROM hits) AS total
           FROM page CROSS JOIN ledger ON ledger.profile_id = ? AND ledger.value = page.value
           ORDER BY page.k ${dir}, page.value ${dir}`,
        )
        .all(...where.params, most, limit, offset, profileId) as unknown as (LedgerDbRow & { total: number })[];
      // With no row on the page, the matches are known to be none only on the first page.
      const hits = rows[0]?.total ?? (offset === 0 ? 0 : this.countLedger(where, most));
      if (hits < most) return { rows: rows.map(toLedgerRow), total: hits, totalCapped: false };
      if (count.exact === true) total = this.countLedger(where);
      else {
        total = cap;
        totalCapped = true;
      }
    }

    const walk = this.ledgerWhere(profileId, filter, true);
    if (offset > 0 && !filter.text && !filter.status && filter.premium === undefined) {
      // A jump deep into the whole ledger: skip `offset` entries of the sort column's index, which holds the
      // sort key and the value (the key) and nothing else, so no row is read until the page's first; then seek.
      const at = this.db
        .prepare(`SELECT ${column} AS k, value FROM ledger WHERE profile_id = ? ORDER BY ${column} ${dir}, value ${dir} LIMIT 1 OFFSET ?`)
        .get(profileId, offset) as { k: string | null; value: string } | undefined;
      if (!at) return { rows: [], total, totalCapped };
      const first = this.db.prepare('SELECT * FROM ledger WHERE profile_id = ? AND value = ?').get(profileId, at.value) as unknown as LedgerDbRow;
      const rest = limit > 1 ? this.seekLedger(profileId, filter, sort, { after: { key: at.k, value: at.value } }, limit - 1) : [];
      return { rows: [toLedgerRow(first), ...rest], total, totalCapped };
    }
    const rows = this.db
      .prepare(`SELECT * FROM ledger WHERE ${walk.sql} ORDER BY ${column} ${dir}, value ${dir} LIMIT ? OFFSET ?`)
      .all(...walk.params, limit, offset) as unknown as LedgerDbRow[];
    return { rows: rows.map(toLedgerRow), total, totalCapped };
  }

  /**
   * The page next to a row already shown: seek paging on (sort key, value), so a page costs about its own size
   * at any depth, where OFFSET costs the depth. `after` continues in the sort's direction from the cursor row,
   * `before` goes back from it (rows still come in the sort's order). NULL sort keys come first ascending and last
   * descending, as ORDER BY puts them; each side of that boundary is its own index range.
   */
  seekLedger(
    profileId: string,
    filter: LedgerFilter,
    sort: { field: LedgerSortField; dir: 'asc' | 'desc' },
    cursor: { after: LedgerCursor } | { before: LedgerCursor },
    limit: number,
  ): LedgerRow[] {
    const back = 'before' in cursor;
    const at = 'before' in cursor ? cursor.before : cursor.after;
    // Going back is going forward in the other direction, then turning the rows round.
    const asc = (sort.dir === 'asc') !== back;
    const column = SORT_COLUMNS[sort.field];
    const walk = this.ledgerWhere(profileId, filter, true);
    const dir = asc ? 'ASC' : 'DESC';
    const segments: { sql: string; params: SQLInputValue[]; order: string }[] = [];
    const cmp = asc ? '>' : '<';
    if (at.key === null) {
      segments.push({ sql: `${column} IS NULL AND value ${cmp} ?`, params: [at.value], order: `value ${dir}` });
      // Ascending, the non-NULL keys follow the NULLs; descending, nothing follows them.
      if (asc) segments.push({ sql: `${column} IS NOT NULL`, params: [], order: `${column} ${dir}, value ${dir}` });
    } else {
      segments.push({ sql: `(${column}, value) ${cmp} (?, ?)`, params: [at.key, at.value], order: `${column} ${dir}, value ${dir}` });
      if (!asc) segments.push({ sql: `${column} IS NULL`, params: [], order: `value ${dir}` });
    }
    const rows: LedgerDbRow[] = [];
    for (const seg of segments) {
      if (rows.length >= limit) break;
      const got = this.db
        .prepare(`SELECT * FROM ledger WHERE ${walk.sql} AND ${seg.sql} ORDER BY ${seg.order} LIMIT ?`)
        .all(...walk.params, ...seg.params, limit - rows.length) as unknown as LedgerDbRow[];
      rows.push(...got);
    }
    if (back) rows.reverse();
    return rows.map(toLedgerRow);
  }

  /** How many rows match, or `most` when at least that many do. */
  private countLedger(where: { sql: string; params: SQLInputValue[] }, most?: number): number {
    if (most === undefined) return (this.db.prepare(`SELECT count(*) AS n FROM ledger WHERE ${where.sql}`).get(...where.params) as { n: number }).n;
    return (this.db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM ledger WHERE ${where.sql} LIMIT ?)`).get(...where.params, most) as { n: number }).n;
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

  // ---- jobs ----------------------------------------------------------------------------------------------

  /**
   * Creates a job and its items, all pending, in one transaction. Items are key values given, the keys a ledger
   * filter matches now (resolved here, in one statement, never shipped through the renderer), or a generate
   * job's batches. Returns the number of keys the job covers.
   */
  createJob(
    job: Omit<StoredJob, 'total' | 'finishedAt' | 'reason' | 'state'>,
    items: { keyValues: readonly string[] } | { filter: LedgerFilter } | { batches: readonly number[] },
  ): number {
    return this.tx(() => {
      this.db
        .prepare("INSERT INTO jobs (id, profile_id, action, params, state, created_at, total) VALUES (?, ?, ?, ?, 'running', ?, 0)")
        .run(job.id, job.profileId, job.action, job.params, job.createdAt);
      if ('filter' in items) {
        const where = this.targetWhere(job.profileId, items.filter);
        this.db
          .prepare(`INSERT INTO job_items (job_id, seq, target, size, state) SELECT ?, row_number() OVER (ORDER BY value), value, 1, 'pending' FROM ledger WHERE ${where.sql}`)
          .run(job.id, ...where.params);
      } else if ('batches' in items) {
        this.db
          .prepare("INSERT INTO job_items (job_id, seq, target, size, state) SELECT ?, key + 1, 'batch ' || (key + 1), value, 'pending' FROM json_each(?)")
          .run(job.id, JSON.stringify(items.batches));
      } else {
        // A value given twice is one item: sending it twice would extend twice.
        this.db
          .prepare("INSERT INTO job_items (job_id, seq, target, size, state) SELECT ?, min(key) + 1, value, 1, 'pending' FROM json_each(?) GROUP BY value")
          .run(job.id, JSON.stringify(items.keyValues));
      }
      const { total } = this.db.prepare('SELECT coalesce(sum(size), 0) AS total FROM job_items WHERE job_id = ?').get(job.id) as { total: number };
      this.db.prepare('UPDATE jobs SET total = ? WHERE id = ?').run(total, job.id);
      return total;
    });
  }

  job(jobId: string): StoredJob | null {
    const row = this.db.prepare(`${JOB_SELECT} WHERE id = ?`).get(jobId) as StoredJob | undefined;
    return row ? { ...row } : null;
  }

  /** A profile's most recent jobs, newest first. */
  jobs(profileId: string, limit = 20): StoredJob[] {
    return (this.db.prepare(`${JOB_SELECT} WHERE profile_id = ? ORDER BY created_at DESC, id LIMIT ?`).all(profileId, limit) as unknown as StoredJob[]).map((j) => ({ ...j }));
  }

  setJobState(jobId: string, state: JobState, reason: string | null, finishedAt: string | null): void {
    this.db.prepare('UPDATE jobs SET state = ?, reason = ?, finished_at = ? WHERE id = ?').run(state, reason, finishedAt, jobId);
  }

  /** Keys per item state (a generate batch counts for its size). */
  jobCounts(jobId: string): Record<JobItemState, number> {
    const counts: Record<JobItemState, number> = { pending: 0, sent: 0, done: 0, failed: 0, unknown: 0 };
    for (const r of this.db.prepare('SELECT state, sum(size) AS n FROM job_items WHERE job_id = ? GROUP BY state').all(jobId) as { state: JobItemState; n: number }[]) {
      counts[r.state] = r.n;
    }
    return counts;
  }

  /**
   * Marks up to `max` pending items sent, lowest first, and returns them: committed before any of them goes on
   * the wire, so a crash from here on leaves them "sent", which the next start turns into "unknown".
   */
  claimJobItems(jobId: string, max: number): { seq: number; target: string; size: number }[] {
    const rows = this.jobStatement(
      `UPDATE job_items SET state = 'sent' WHERE job_id = ?1 AND seq IN
         (SELECT seq FROM job_items WHERE job_id = ?1 AND state = 'pending' ORDER BY seq LIMIT ?2)
       RETURNING seq, target, size`,
    ).all(jobId, max) as { seq: number; target: string; size: number }[];
    return rows.map((r) => ({ seq: r.seq, target: r.target, size: r.size })).sort((a, b) => a.seq - b.seq);
  }

  /**
   * One step of a running job, in one transaction: what settled since the last step (item outcomes, the keys
   * they changed, their audit entries), then up to `claim` more items marked sent. One commit per step, not
   * one per item: at hundreds of items a second the commits are what cost.
   */
  jobStep(batch: SettleBatch | null, claim: { jobId: string; max: number } | null, at = new Date().toISOString()): { seq: number; target: string; size: number }[] {
    if (batch === null && claim === null) return [];
    return this.tx(() => {
      if (batch !== null) this.settleInTx(batch, at);
      return claim === null || claim.max <= 0 ? [] : this.claimJobItems(claim.jobId, claim.max);
    });
  }

  /** Item outcomes, the keys they changed and their audit entries, in one transaction. */
  settleJobItems(batch: SettleBatch, at = new Date().toISOString()): void {
    this.tx(() => {
      this.settleInTx(batch, at);
    });
  }

  private settleInTx(batch: SettleBatch, at: string): void {
    // One keyed update per item: a join against json_each here may scan the job's items once per batch.
    const setItem = this.jobStatement('UPDATE job_items SET state = ?, code = ?, message = ? WHERE job_id = ? AND seq = ?');
    for (const i of batch.items) setItem.run(i.state, i.code, i.message, batch.jobId, i.seq);
    if (batch.seenKeys.length > 0) this.upsertKeys(batch.profileId, batch.seenKeys, at);
    for (const k of batch.reportedKeys ?? []) this.recordReportedFields(batch.profileId, k, at);
    if (batch.hwidCleared && batch.hwidCleared.length > 0) {
      this.jobStatement(
        `UPDATE ledger SET hwid = NULL, search = lower(value || char(10) || note || char(10)), last_seen_at = ?
         WHERE profile_id = ? AND value IN (SELECT value FROM json_each(?))`,
      ).run(at, batch.profileId, JSON.stringify(batch.hwidCleared));
    }
    if (batch.deletedValues.length > 0) {
      this.ledgerSizes.delete(batch.profileId);
      this.jobStatement(
        "UPDATE ledger SET status = 'deleted', last_seen_at = ? WHERE profile_id = ? AND value IN (SELECT value FROM json_each(?))",
      ).run(at, batch.profileId, JSON.stringify(batch.deletedValues));
    }
    if (batch.audit.length > 0) {
      this.jobStatement(
        `INSERT INTO audit (at, profile_id, profile_name, action, target, outcome, message)
         SELECT ?, value ->> '$[0]', value ->> '$[1]', value ->> '$[2]', value ->> '$[3]', value ->> '$[4]', value ->> '$[5]' FROM json_each(?)`,
      ).run(at, JSON.stringify(batch.audit.map((e) => [e.profileId, e.profileName, e.action, e.target, e.outcome, e.message])));
    }
  }

  /** Puts items back to pending (the user chose to send items again, or they were refused unsent). */
  requeueJobItems(jobId: string, from: 'unknown' | 'failed'): number {
    return Number(this.db.prepare("UPDATE job_items SET state = 'pending', code = NULL, message = NULL WHERE job_id = ? AND state = ?").run(jobId, from).changes);
  }

  /**
   * After a crash or quit (no job runs in this process any more): every job still marked running is
   * interrupted, and every item still marked sent, whatever its job's state, is unknown (it may or may not have
   * taken effect). Returns the ids of the jobs it interrupted.
   */
  interruptRunningJobs(reason: string, at = new Date().toISOString()): string[] {
    return this.tx(() => {
      this.db
        .prepare("UPDATE job_items SET state = 'unknown', code = 'OUTCOME_UNKNOWN', message = ? WHERE job_id IN (SELECT id FROM jobs) AND state = 'sent'")
        .run('Sent when Keydesk stopped; no answer was recorded. It may or may not have taken effect.');
      const ids = (this.db.prepare("SELECT id FROM jobs WHERE state = 'running'").all() as { id: string }[]).map((r) => r.id);
      for (const id of ids) this.setJobState(id, 'interrupted', reason, at);
      return ids;
    });
  }

  jobItems(jobId: string, state: JobItemState | undefined, offset: number, limit: number): { items: JobItem[]; total: number } {
    const where = state === undefined ? 'job_id = ?' : 'job_id = ? AND state = ?';
    const params: SQLInputValue[] = state === undefined ? [jobId] : [jobId, state];
    const total = (this.db.prepare(`SELECT count(*) AS n FROM job_items WHERE ${where}`).get(...params) as { n: number }).n;
    const items = this.db.prepare(`SELECT seq, target, size, state, code, message FROM job_items WHERE ${where} ORDER BY seq LIMIT ? OFFSET ?`).all(...params, limit, offset) as unknown as JobItem[];
    return { items: items.map((i) => ({ ...i })), total };
  }

  *iterateJobItems(jobId: string): Generator<JobItem> {
    for (const i of this.db.prepare('SELECT seq, target, size, state, code, message FROM job_items WHERE job_id = ? ORDER BY seq').iterate(jobId)) yield { ...(i as unknown as JobItem) };
  }

  bulkCeiling(profileId: string): number | null {
    const row = this.db.prepare('SELECT bulk_ceiling AS c FROM profile_settings WHERE profile_id = ?').get(profileId) as { c: number | null } | undefined;
    return row?.c ?? null;
  }

  setBulkCeiling(profileId: string, ceiling: number | null): void {
    this.db
      .prepare('INSERT INTO profile_settings (profile_id, bulk_ceiling) VALUES (?, ?) ON CONFLICT (profile_id) DO UPDATE SET bulk_ceiling = excluded.bulk_ceiling')
      .run(profileId, ceiling);
  }

  // ---- samples -------------------------------------------------------------------------------------------
  // Retention (SAMPLE_RETENTION): every sample of the last 24 hours; from 24 hours to 30 days, per profile and
  // minute, only the samples with the lowest and highest count; older, the same per hour. Sampling every 5 s,
  // a year stays under about 120,000 rows per profile, and a chart drawn from min and max per bucket looks
  // the same as one drawn from every sample.

  recordSample(profileId: string, count: number, at = new Date().toISOString()): void {
    this.db.prepare('INSERT INTO samples (profile_id, at, count) VALUES (?, ?, ?)').run(profileId, at, count);
  }

  /**
   * The history from `since` (null: all of it) as at most `points` buckets of equal time, each with the time of
   * its last sample and the lowest and highest count in it; fewer samples than `points` come back one per
   * bucket. Each bucket is one range read of the (profile, time, count) index, so the answer's size never
   * depends on how many samples there are, and the work is one pass over the range's index entries.
   */
  history(profileId: string, since: string | null, points: number): { buckets: HistoryBucket[]; samples: number } {
    const from = since ?? '';
    const span = this.db
      .prepare('SELECT count(*) AS n, min(at) AS first, max(at) AS last FROM samples WHERE profile_id = ? AND at >= ?')
      .get(profileId, from) as { n: number; first: string | null; last: string | null };
    if (span.n === 0 || span.first === null || span.last === null) return { buckets: [], samples: 0 };
    if (span.n <= points) {
      const rows = this.db
        .prepare('SELECT at, count FROM samples WHERE profile_id = ? AND at >= ? ORDER BY at')
        .all(profileId, from) as { at: string; count: number }[];
      return { buckets: rows.map((r) => ({ at: r.at, min: r.count, max: r.count })), samples: span.n };
    }
    // Bucket i covers [first + i * width, first + (i + 1) * width); the last one also takes the last sample.
    const first = Date.parse(span.first);
    const width = Math.max(1, (Date.parse(span.last) - first) / points);
    const bucket = this.db.prepare(
      'SELECT max(at) AS at, min(count) AS min, max(count) AS max FROM samples WHERE profile_id = ? AND at >= ? AND at < ?',
    );
    const buckets: HistoryBucket[] = [];
    for (let i = 0; i < points; i++) {
      const lo = i === 0 ? span.first : new Date(first + i * width).toISOString();
      const hi = i === points - 1 ? `${span.last}\u{10FFFF}` : new Date(first + (i + 1) * width).toISOString();
      const r = bucket.get(profileId, lo, hi) as { at: string | null; min: number | null; max: number | null };
      if (r.at !== null && r.min !== null && r.max !== null) buckets.push({ at: r.at, min: r.min, max: r.max });
    }
    return { buckets, samples: span.n };
  }

  /**
   * The one-day windows (UTC days) the retention rule covers at `now`, oldest first, each with its time slot:
   * apply them with thinSampleWindow, one at a time, so the work can be spread out.
   */
  sampleThinningWindows(now = Date.now()): SampleWindow[] {
    // Each profile with samples, found by index seeks (no scan), then its oldest sample.
    const profiles = this.db
      .prepare(
        `WITH RECURSIVE p(id) AS (SELECT min(profile_id) FROM samples
           UNION ALL SELECT (SELECT min(profile_id) FROM samples WHERE profile_id > p.id) FROM p WHERE p.id IS NOT NULL)
         SELECT id FROM p WHERE id IS NOT NULL`,
      )
      .all() as { id: string }[];
    const oldestOf = this.db.prepare('SELECT min(at) AS at FROM samples WHERE profile_id = ?');
    const windows: SampleWindow[] = [];
    const dayStart = (ms: number) => ms - (ms % DAY_MS);
    for (const { id } of profiles) {
      const oldest = (oldestOf.get(id) as { at: string }).at;
      // Tiers from the oldest (coarsest) to the newest; each covers [now - olderThan - span, now - olderThan).
      for (const tier of [...SAMPLE_RETENTION].reverse()) {
        const end = now - tier.olderThanMs;
        const begin = Math.max(Date.parse(oldest), end - tier.spanMs);
        for (let from = dayStart(begin); from < end; from += DAY_MS) {
          windows.push({ profileId: id, from: new Date(from).toISOString(), to: new Date(Math.min(from + DAY_MS, end)).toISOString(), prefix: tier.prefix });
        }
      }
    }
    return windows;
  }

  /** Keeps, in the window's time slots, only the profile's samples with the lowest and highest count. */
  thinSampleWindow(w: SampleWindow): number {
    const range = 'profile_id = ? AND at >= ? AND at < ?';
    // SQLite fills a bare column (rowid) from the row that holds the min() or max() of its group.
    const keep = (agg: 'min' | 'max') => `SELECT id FROM (SELECT rowid AS id, ${agg}(count) FROM samples WHERE ${range} GROUP BY substr(at, 1, ${w.prefix}))`;
    const args = [w.profileId, w.from, w.to];
    const r = this.db.prepare(`DELETE FROM samples WHERE ${range} AND rowid NOT IN (${keep('min')} UNION ${keep('max')})`).run(...args, ...args, ...args);
    return Number(r.changes);
  }

  /** Applies the retention rule to every window at once; returns how many samples went. Idempotent. */
  thinSamples(now = Date.now()): number {
    let removed = 0;
    for (const w of this.sampleThinningWindows(now)) removed += this.thinSampleWindow(w);
    return removed;
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
      // The text finds an operation by its name ("generate") as well as by its target, message or service.
      clauses.push("(action LIKE ? ESCAPE '\\' OR target LIKE ? ESCAPE '\\' OR message LIKE ? ESCAPE '\\' OR profile_name LIKE ? ESCAPE '\\')");
      const t = likeTerm(filter.text);
      params.push(t, t, t, t);
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
