// Ledger writes: keys as the service described them (whole or in part), and the marks an act with no answer
// leaves on a row. Every write tells the filters the ledger changed (their caches are worked out again).
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { Key } from '../../shared/domain.ts';
import { keyOf, type KeyColumns } from '../../shared/key-batch.ts';
import { CHECKPOINT_PAGES, type Connection } from './connection.ts';
import { searchText, type LedgerRowTuple } from './rows.ts';
import { DEFERRABLE_INDEXES } from './schema.ts';

/** Rows in one batch from which dropIndexes drops the deferrable sort indexes. */
export const DEFER_ROWS = 50_000;
/** WAL pages after which a commit checkpoints while a large batch goes in (1 GiB): the checkpoint waits for idle. */
const BULK_CHECKPOINT_PAGES = 262_144;

/** What of a ledger row an act with no outcome read back leaves as seen before (LocalDb.markStale). */
export type StaleMark = 'expiry' | 'hwid' | 'status';
/** Each mark's column, and the rows it applies to: those where the act's outcome would change what is shown. */
const STALE: Record<StaleMark, { column: string; applies: string }> = {
  expiry: { column: 'expiry_stale', applies: 'true' },
  hwid: { column: 'hwid_stale', applies: "coalesce(hwid, '') <> ''" },
  status: { column: 'status_stale', applies: "status <> 'deleted'" },
};

/** A full description of a key clears its marks; readers take any nonzero mark as marked (older files hold times). */
const CLEAR_ALL = 'expiry_stale = 0, hwid_stale = 0, status_stale = 0';

/** A key recorded again takes the service's description; its first sight as active after generated is its activation. */
const UPSERT = `ON CONFLICT (profile_id, value) DO UPDATE SET note = excluded.note, status = excluded.status, is_premium = excluded.is_premium,
  expires_at = excluded.expires_at, hwid = excluded.hwid, created_at = coalesce(excluded.created_at, ledger.created_at),
  last_seen_at = excluded.last_seen_at, search = excluded.search, days_key = excluded.days_key, ${CLEAR_ALL},
  hwid_chars = excluded.hwid_chars,
  activated_at = coalesce(excluded.activated_at, ledger.activated_at,
    CASE WHEN ledger.status = 'generated' AND excluded.status = 'active' THEN excluded.last_seen_at END)`;

/** A key's fields as ledger columns hold them (premium as 0 or 1, no creation time as null, a days term only for a days key). */
function columnsOf(k: Key) {
  const daysKey = k.expiresByDaysKey ? k.daysKey : null;
  return { note: k.note, status: k.status, premium: k.isPremium ? (1 as const) : (0 as const), createdAt: k.createdAt || null, daysKey };
}

const LONE_SURROGATE = /\p{Surrogate}/u;

/** Any character past ASCII: SQLite's lower() folds only ASCII as JavaScript's toLowerCase does. */
const NOT_ASCII = /[^\p{ASCII}]/u;

export class LedgerWrites {
  private readonly conn: Connection;
  private readonly db: DatabaseSync;
  /** Tells the filters this connection wrote to the ledger (LedgerFilters.ledgerCaches). */
  private readonly wrote: () => void;
  /** New rows' text entries wait for indexText (the writer thread's idle time), rather than going in with the rows. */
  private readonly deferText: boolean;

  constructor(conn: Connection, wrote: () => void, deferText = false) {
    this.conn = conn;
    this.db = conn.db;
    this.wrote = wrote;
    this.deferText = deferText;
  }

  /**
   * Writes the text index's entries of rows not yet indexed (ledger_indexed), at most about `most` of them, in one
   * transaction; how many are left. Entries go in rowid order (HWID entries, -id, first), so FTS5 writes out
   * what it holds once, at the end. Inside a write already open, as part of it.
   */
  indexText(most = Number.POSITIVE_INFINITY): number {
    const index = (): number => {
      const { upto, last } = this.conn
        .statement('SELECT upto, (SELECT coalesce(max(id), 0) FROM ledger) AS last FROM ledger_indexed')
        .get() as { upto: number; last: number };
      if (last <= upto) return 0;
      const to = Math.min(last, upto + most);
      this.conn
        .statement(
          `INSERT INTO ledger_text (rowid, search) SELECT -id, substr(search, length(search) - hwid_chars + 1) || char(10, 10)
           FROM ledger WHERE id > ?1 AND id <= ?2 AND hwid_chars > 0 ORDER BY id DESC`,
        )
        .run(upto, to);
      this.conn
        .statement(
          `INSERT INTO ledger_text (rowid, search) SELECT id, substr(search, 1, length(search) - hwid_chars) || char(10, 10)
           FROM ledger WHERE id > ?1 AND id <= ?2 ORDER BY id`,
        )
        .run(upto, to);
      this.conn.statement('UPDATE ledger_indexed SET upto = ?').run(to);
      this.wrote();
      return last - to;
    };
    return this.db.isTransaction ? index() : this.conn.tx(index);
  }

  /** The deferrable sort indexes (schema.ts) not in the file now: dropped for a large batch, not yet built again. */
  droppedIndexes(): string[] {
    const present = new Set(
      (this.db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'ledger'").all() as { name: string }[]).map(
        (r) => r.name,
      ),
    );
    return Object.keys(DEFERRABLE_INDEXES).filter((name) => !present.has(name));
  }

  /**
   * Drops the deferrable sort indexes for a batch of `batchRows` new rows, inside the write open: each row would land
   * on a random page of each. A sort or filter on them still reads every row, from the table, until they are built
   * again (buildIndex). Whether it dropped them.
   */
  dropIndexes(batchRows: number): boolean {
    if (batchRows < DEFER_ROWS || this.droppedIndexes().length > 0) return false;
    // Only a batch that adds a quarter or more: building again is a pass over the whole ledger.
    const rows = (this.conn.statement('SELECT coalesce(sum(n), 0) AS n FROM ledger_counts').get() as { n: number }).n;
    if (batchRows * 4 < rows) return false;
    for (const name of Object.keys(DEFERRABLE_INDEXES)) this.db.exec(`DROP INDEX IF EXISTS ${name}`);
    // Each 64 MiB checkpoint would cost a third of a second among the batch's commits: the WAL grows instead.
    this.db.exec(`PRAGMA wal_autocheckpoint = ${BULK_CHECKPOINT_PAGES}`);
    this.checkpointDue = true;
    return true;
  }

  /** Whether a large batch put the WAL's checkpoint off (dropIndexes), for checkpoint to make once idle. */
  checkpointDue = false;

  /** The checkpoint a large batch put off, made now, and the usual one per 64 MiB again. */
  checkpoint(): void {
    if (!this.checkpointDue) return;
    this.db.exec(`PRAGMA wal_checkpoint(PASSIVE); PRAGMA wal_autocheckpoint = ${CHECKPOINT_PAGES}`);
    this.checkpointDue = false;
  }

  /** Builds the first dropped index again, in one pass over the ledger; how many are still dropped. */
  buildIndex(): number {
    const [first, ...rest] = this.droppedIndexes();
    if (first === undefined) return 0;
    this.conn.tx(() => {
      this.db.exec(DEFERRABLE_INDEXES[first] ?? '');
    });
    return rest.length;
  }

  /** Records keys as the service last described them. */
  recordKeys(profileId: string, keys: readonly Key[], seenAt = new Date().toISOString()): void {
    if (keys.length === 0) return;
    this.conn.tx(() => {
      this.upsertKeys(profileId, keys, seenAt);
    });
  }

  /**
   * Keys `from` to `to` of a batch alike but for id and value, as upsertKeys records them, with only the values
   * crossing into SQLite. False, nothing written, for other batches (upsertKeys records those).
   */
  recordShared(profileId: string, batch: KeyColumns, from: number, to: number, seenAt: string): boolean {
    if (Object.keys(batch.each).some((field) => field !== 'id') || from >= Math.min(to, batch.values.length)) return false;
    // Every key of the batch is this one but for its id and value.
    const k = keyOf(batch, from);
    // A HWID's text entry is ordered by upsertKeys; a lone surrogate binds unlike its JSON form there.
    if (k.hwid || [k.note, k.expiresAt, k.createdAt, k.activatedAt].some((t) => t !== null && LONE_SURROGATE.test(t))) return false;
    const c = columnsOf(k);
    const values = batch.values.slice(from, to).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const json = JSON.stringify(values);
    // searchText's `${value}\n${note}\n` lower-cased: the newline is neither cased nor case-ignorable, so each part
    // folds as it would alone.
    const lower = NOT_ASCII.test(json) ? 'js_lower' : 'lower';
    this.conn.tx(() => {
      this.wrote();
      this.conn
        .statement(
          `INSERT INTO ledger (profile_id, value, note, status, is_premium, expires_at, hwid, created_at, last_seen_at, search, days_key, hwid_chars, activated_at)
         SELECT ?1, j.value, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ${lower}(j.value) || ?9, ?10, 0, ?11 FROM json_each(?12) AS j WHERE true
         ${UPSERT}`,
        )
        .run(
          profileId,
          c.note,
          c.status,
          c.premium,
          k.expiresAt,
          k.hwid,
          c.createdAt,
          seenAt,
          `\n${k.note}\n`.toLowerCase(),
          c.daysKey,
          k.activatedAt,
          json,
        );
      if (!this.deferText) this.indexText();
    });
    return true;
  }

  /**
   * One statement per batch: the rows go in as one JSON array read by json_each (100,000 keys, one call into
   * SQLite); the search text is lower-cased here, as the filter term is. FTS5 writes out what it holds whenever an
   * entry comes at a rowid lower than the last, so rows in the ledger that gain or change a HWID (entry -id) go
   * last, by id descending (hwidEntriesLast). `known`: a job's answers, a few dozen keys already in the ledger.
   */
  upsertKeys(profileId: string, keys: readonly Key[], seenAt: string, known = false): void {
    this.wrote();
    // In key order: every index this touches leads with the value (or a column the batch shares), so sorted rows
    // walk each B-tree once, front to back, rather than landing on random pages of a table larger than the cache.
    const sorted = [...keys].sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    const rows = sorted.map((k): LedgerRowTuple => {
      const { search, hwid } = searchText(k);
      const c = columnsOf(k);
      return [k.value, c.note, c.status, c.premium, k.expiresAt, k.hwid, c.createdAt, search, c.daysKey, hwid, k.activatedAt];
    });
    const { first, hwidChanged } = known ? { first: rows, hwidChanged: [] } : this.hwidEntriesLast(profileId, rows);
    this.writeRows(profileId, first, seenAt, known);
    this.writeRows(profileId, hwidChanged, seenAt, known);
    if (!this.deferText) this.indexText();
  }

  /**
   * A lookup's rows split so their HWID entries go in ascending rowid (upsertKeys): `first`, in key order, new rows
   * and rows whose HWID entry is kept or removed; then `hwidChanged`, rows in the ledger given a HWID entry (added
   * or changed), by id descending. Only active keys have a HWID: a batch with none (a generate's) is not looked up.
   */
  private hwidEntriesLast(profileId: string, rows: LedgerRowTuple[]): { first: LedgerRowTuple[]; hwidChanged: LedgerRowTuple[] } {
    if (!rows.some((r) => r[9] !== '')) return { first: rows, hwidChanged: [] };
    const was = new Map<string, { id: number; hwid: string }>();
    const stored = this.conn
      .statement(
        `SELECT value, id, substr(search, length(search) - hwid_chars + 1) AS hwid FROM ledger
       WHERE profile_id = ?1 AND value IN (SELECT value FROM json_each(?2))`,
      )
      .all(profileId, JSON.stringify(rows.map((r) => r[0]))) as { value: string; id: number; hwid: string }[];
    for (const r of stored) was.set(r.value, { id: r.id, hwid: r.hwid });
    const first: LedgerRowTuple[] = [];
    const changed: { id: number; row: LedgerRowTuple }[] = [];
    for (const row of rows) {
      const old = was.get(row[0]);
      if (old !== undefined && row[9] !== '' && old.hwid !== row[9]) changed.push({ id: old.id, row });
      else first.push(row);
    }
    if (changed.length === 0) return { first: rows, hwidChanged: [] };
    changed.sort((a, b) => b.id - a.id);
    return { first, hwidChanged: changed.map((c) => c.row) };
  }

  /** Rows into the ledger in the order given (upsertKeys); `known`: a job's answers, keys in the ledger already. */
  private writeRows(profileId: string, given: LedgerRowTuple[], seenAt: string, known: boolean): void {
    let rows = given;
    if (rows.length === 0) return;
    if (known) {
      // An answer changes few columns, and a column set has its index entries rewritten even when unchanged: rows
      // whose note, status, premium and creation are as recorded get a narrower update, one keyed statement per
      // row (over json_each, SQLite would read the ledger in the outer loop). The rest take the full upsert below.
      const narrow = this.conn.statement(
        `UPDATE ledger SET expires_at = ?1, hwid = ?2, search = ?3, days_key = ?4, last_seen_at = ?5, ${CLEAR_ALL}, hwid_chars = length(?12),
           activated_at = coalesce(?13, activated_at)
         WHERE profile_id = ?6 AND value = ?7 AND note = ?8 AND status = ?9 AND is_premium = ?10 AND (?11 IS NULL OR created_at IS ?11)`,
      );
      rows = rows.filter(
        ([value, note, status, isPremium, expiresAt, hwid, createdAt, search, daysKey, hwidText, activatedAt]) =>
          narrow.run(expiresAt, hwid, search, daysKey, seenAt, profileId, value, note, status, isPremium, createdAt, hwidText, activatedAt)
            .changes === 0,
      );
      if (rows.length === 0) return;
    }
    // In the order given: json_each reads the array front to back, and the rows are inserted (or updated) so. A
    // service that sends no activation time (the real one) has a key's first sight as active after generated kept.
    this.conn
      .statement(
        `INSERT INTO ledger (profile_id, value, note, status, is_premium, expires_at, hwid, created_at, last_seen_at, search, days_key, hwid_chars, activated_at)
       SELECT ?1, v ->> '$[0]', v ->> '$[1]', v ->> '$[2]', v ->> '$[3]', v ->> '$[4]', v ->> '$[5]', v ->> '$[6]', ?2, v ->> '$[7]', v ->> '$[8]', length(v ->> '$[9]'), v ->> '$[10]'
       FROM (SELECT value AS v FROM json_each(?3)) WHERE true
       ${UPSERT}`,
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
    // The expiry and HWID always come back (only the fields UnreportedKeyField names may not): their marks go.
    const text = searchText(key);
    const sets = [
      'note = ?',
      'is_premium = ?',
      'expires_at = ?',
      'hwid = ?',
      'search = ?',
      'hwid_chars = length(?)',
      'last_seen_at = ?',
      'expiry_stale = 0',
      'hwid_stale = 0',
    ];
    const params: SQLInputValue[] = [key.note, key.isPremium ? 1 : 0, key.expiresAt, key.hwid, text.search, text.hwid, seenAt];
    if (!unreported.has('daysKey')) {
      sets.push('days_key = ?');
      params.push(key.expiresByDaysKey ? key.daysKey : null);
    }
    if (!unreported.has('activatedAt') && key.activatedAt) {
      sets.push('activated_at = ?');
      params.push(key.activatedAt);
    }
    if (!unreported.has('createdAt') && key.createdAt) {
      sets.push('created_at = ?');
      params.push(key.createdAt);
    }
    this.wrote();
    this.db.prepare(`UPDATE ledger SET ${sets.join(', ')} WHERE profile_id = ? AND value = ?`).run(...params, profileId, key.value);
  }

  /**
   * Keys acted on whose outcome never came back, their rows marked until a later description of the key: 'expiry',
   * an extend whose new expiry no lookup found; 'hwid', an HWID reset sent with no answer, on rows that show a HWID
   * (a row with none shows what a reset leaves, whichever way it went); 'status', a delete sent with no answer, on
   * rows not already deleted.
   */
  markStale(profileId: string, what: StaleMark, values: readonly string[]): void {
    if (values.length === 0) return;
    const { column, applies } = STALE[what];
    const r = this.conn
      .statement(`UPDATE ledger SET ${column} = 1 WHERE profile_id = ? AND value IN (SELECT value FROM json_each(?)) AND ${applies}`)
      .run(profileId, JSON.stringify(values));
    if (Number(r.changes) > 0) this.wrote();
  }

  /**
   * The keys of items still sent (about to become unknown: they may or may not have taken effect) in the jobs
   * `jobs` selects: an extend's row keeps the expiry seen before, a reset's the HWID, a delete's the status, each
   * marked as not read back.
   */
  markSentStale(jobs: string, ...params: string[]): void {
    let changes = 0;
    for (const [action, what] of [
      ['extend', 'expiry'],
      ['resetHwid', 'hwid'],
      ['delete', 'status'],
    ] as const) {
      const { column, applies } = STALE[what];
      const r = this.db
        .prepare(
          `UPDATE ledger SET ${column} = 1 WHERE ${column} = 0 AND ${applies} AND (profile_id, value) IN
             (SELECT j.profile_id, i.target FROM job_items i JOIN jobs j ON j.id = i.job_id
               WHERE i.job_id IN (${jobs.replaceAll('?', '?1')}) AND i.state = 'sent' AND j.action = '${action}')`,
        )
        .run(...params);
      changes += Number(r.changes);
    }
    if (changes > 0) this.wrote();
  }

  /**
   * Keys whose HWID reset the service answered as done without describing them (the real dialect's `{message}`),
   * nor could they be read back: the reset took, so they have no HWID now, and their rows say so (not the HWID seen
   * before, and no "not read back" mark: this is known).
   */
  markHwidCleared(profileId: string, values: readonly string[], seenAt = new Date().toISOString()): void {
    if (values.length === 0) return;
    this.wrote();
    this.conn
      .statement(
        `UPDATE ledger SET hwid = NULL, search = js_lower(value || char(10) || note || char(10)), hwid_chars = 0, hwid_stale = 0, last_seen_at = ?1
       WHERE profile_id = ?2 AND value IN (SELECT value FROM json_each(?3))`,
      )
      .run(seenAt, profileId, JSON.stringify(values));
  }

  markDeleted(profileId: string, value: string, seenAt = new Date().toISOString()): void {
    this.wrote();
    this.db
      .prepare(`UPDATE ledger SET status = 'deleted', status_stale = 0, last_seen_at = ?1 WHERE profile_id = ?2 AND value = ?3`)
      .run(seenAt, profileId, value);
  }

  /** Keys a job's answers say are deleted. */
  markDeletedValues(profileId: string, values: readonly string[], at: string): void {
    this.wrote();
    this.conn
      .statement(
        `UPDATE ledger SET status = 'deleted', status_stale = 0, last_seen_at = ?1 WHERE profile_id = ?2 AND value IN (SELECT value FROM json_each(?3))`,
      )
      .run(at, profileId, JSON.stringify(values));
  }
}
