// The app's own records in node:sqlite (userData/keydesk.db): the ledger of keys this app generated or has
// seen, execution samples for the history chart, and the audit log of mutating operations. No secrets.
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import type { ParsedInput } from '../../shared/contract.ts';
import type { JsonText } from '../../shared/key-batch.ts';
import { LEDGER_COUNT_CAP, SAMPLE_RETENTION } from '../../shared/rules.ts';
import { OPERATION_WORDS, RETIRED_WORDS } from '../../shared/operation-words.ts';
import type {
  AuditEntry,
  HistoryBucket,
  JobAction,
  JobItem,
  JobItemState,
  JobState,
  Key,
  LedgerRow,
  LedgerSortField,
} from '../../shared/domain.ts';
import { LOCAL_DB_VERSION, refusal, SCHEMA, versionOf } from './schema.ts';

export { LOCAL_DB_VERSION };

// The three marks (expiry_stale, hwid_stale, status_stale) hold when the row was marked, in ms since the epoch;
// 0 is not marked. A description clears a mark only if it was seen at or after that moment: one seen before it
// (a lookup waiting in the ledger writer's queue while the act went unknown) lands with the old fields and leaves
// them marked. A mark written before they kept their time is 1, which any description clears.

/** What of a ledger row an act with no outcome read back leaves as seen before (LocalDb.markStale). */
export type StaleMark = 'expiry' | 'hwid' | 'status';
/** Each mark's column, and the rows it applies to: those where the act's outcome would change what is shown. */
const STALE: Record<StaleMark, { column: string; applies: string }> = {
  expiry: { column: 'expiry_stale', applies: 'true' },
  hwid: { column: 'hwid_stale', applies: "coalesce(hwid, '') <> ''" },
  status: { column: 'status_stale', applies: "status <> 'deleted'" },
};

/**
 * SQL for a mark column as a description seen at `seenMs` (a parameter, ms since the epoch) leaves it: cleared,
 * unless it was marked after that description was seen.
 */
const clearedBy = (column: string, seenMs: string, table = ''): string =>
  `${column} = CASE WHEN ${table}${column} > ${seenMs} THEN ${table}${column} ELSE 0 END`;
const CLEAR_ALL = (seenMs: string, table = ''): string =>
  ['expiry_stale', 'hwid_stale', 'status_stale'].map((c) => clearedBy(c, seenMs, table)).join(', ');

/** An ISO time as a mark's time (ms since the epoch); an unreadable one counts as now. */
function markMs(iso: string): number {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? Date.now() : ms;
}

/**
 * Whether SQLite refused because another connection holds keydesk.db's lock past this one's busy timeout
 * (SQLITE_BUSY, SQLITE_LOCKED and their extended codes): the same write succeeds once the lock is let go.
 */
export function isSqliteBusy(error: unknown): boolean {
  const errcode = (error as { errcode?: unknown } | null)?.errcode;
  return typeof errcode === 'number' && ((errcode & 0xff) === 5 || (errcode & 0xff) === 6);
}

/**
 * keydesk.db opened as every connection uses it: the search text's lower-casing function, WAL, and the schema
 * (a new file gets it). A file of another schema is refused, untouched.
 */
function openLocalDb(file: string, busyTimeoutMs: number, cacheKiB: number): DatabaseSync {
  const db = new DatabaseSync(file, { timeout: busyTimeoutMs });
  // The search text is lower-cased by JavaScript's rules wherever it is written (SQLite's lower() folds ASCII only).
  db.function('js_lower', { deterministic: true }, (text) => (typeof text === 'string' ? text.toLowerCase() : text));
  const refused = refusal(db);
  if (refused !== null) {
    db.close();
    throw new Error(refused);
  }
  db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -${Math.round(cacheKiB)};`);
  if (versionOf(db) !== LOCAL_DB_VERSION) {
    inTransaction(db, 'BEGIN IMMEDIATE', () => {
      // Read again under the write lock: another connection (a writer thread's) may have created it meanwhile.
      if (versionOf(db) !== LOCAL_DB_VERSION) db.exec(`${SCHEMA}\nPRAGMA user_version = ${LOCAL_DB_VERSION};`);
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

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** How samples are thinned (shared/rules.ts: the history chart reads it too). */
export { SAMPLE_RETENTION };

/** A stretch of time the retention rule thins, and the time slot it keeps a min and a max for. */
export interface SampleWindow {
  profileId: string;
  from: string;
  to: string;
  prefix: number;
}

/**
 * How deep pages and text terms are found (tests make them small, so every path runs over a small ledger):
 * - directOffset: a page this close to the start of its order is a plain OFFSET, cheaper than anchors;
 * - anchorStep: rows between two anchors, so a page at any depth skips fewer than this many rows;
 * - logCatchUp: ledger_log entries a reader applies to its anchors; further behind, it finds them again
 *   (ledger_log keeps about 32,768);
 * - rareTrigram, knownTrigram: a longer term's candidates come from its rarest trigrams (an index query
 *   intersecting a trigram every row holds reads all its entries: tens of milliseconds at 1,000,000 rows). Up
 *   to TERM_PROBES of its trigrams have their rows counted, each count stopping past rareTrigram (well under a
 *   millisecond); when none is under it, TERM_TRIGRAMS of them are counted again up to knownTrigram (about
 *   2 ms each at most).
 */
export interface LedgerPaging {
  directOffset: number;
  anchorStep: number;
  logCatchUp: number;
  rareTrigram: number;
  knownTrigram: number;
}
const PAGING: LedgerPaging = {
  directOffset: 2_000,
  anchorStep: 1_024,
  logCatchUp: 16_384,
  rareTrigram: LEDGER_COUNT_CAP,
  knownTrigram: 40_000,
};
/** Filtered anchor lists kept at once (one per profile, filter, sort column and direction): about 1,000 small pairs at 1,000,000 rows. */
const ANCHOR_CACHE = 6;
/** Unfiltered anchor lists kept at once: every sort column of the last two profiles (a descending page uses the ascending list). */
const ORDER_ANCHOR_CACHE = 12;
/** A block grown past this many anchor steps (rows written into one stretch of the order) is cut again. */
const SPLIT_BLOCK = 4;
/**
 * With `background`, the anchors of every sort are found ahead of need, in slices of at most WARM_SLICE_MS on
 * main's loop, WARM_GAP_MS apart, starting WARM_DELAY_MS after the ledger was last read.
 */
const WARM_DELAY_MS = 250;
const WARM_SLICE_MS = 8;
const WARM_GAP_MS = 15;
/**
 * Trigrams a term of 3 characters or more is looked up by, at most. Every row holding the term holds them all;
 * more of them narrow the candidates less than each one costs to read.
 */
const TERM_TRIGRAMS = 6;
/** Trigrams of a longer term whose rows are counted to find its rarest (see LedgerPaging). */
const TERM_PROBES = 8;
/** A term's candidates are all read for its page when they are at most this many times the count's cap. */
const ALL_CANDIDATES = 2;
/**
 * A term of 1 or 2 characters starting more distinct trigrams than this is common (a letter of the key
 * alphabet starts about a thousand): a scan finds the count's cap of matches within its first rows.
 */
const SHORT_TERM_TRIGRAMS = 200;

/**
 * A page of the ledger and its counts, each exact unless capped (more than the number given): `total`, the rows
 * the filter matches; `targets`, those of them a bulk job over "all matching" acts on (targetWhere: known deleted
 * keys left out unless the filter asks for deleted keys).
 */
export interface LedgerPage {
  rows: LedgerRow[];
  total: number;
  totalCapped: boolean;
  targets: number;
  targetsCapped: boolean;
}

/**
 * A filter's order in one direction cut into blocks: block j holds the rows from keys[j] (keys[0], null, is the
 * start of the order) up to keys[j + 1], and counts[j] says how many. Found paging.anchorStep rows at a time,
 * so each block holds that many when found; after writes (ledger_log), the counts move and the keys stay, and a
 * block grown past SPLIT_BLOCK steps is cut again when a page lands in it. Until `complete`, the rows from the
 * last key on are not counted yet (counts has one entry fewer than keys).
 */
interface Anchors {
  profileId: string;
  filter: LedgerFilter;
  column: string;
  asc: boolean;
  keys: (LedgerCursor | null)[];
  /** keys as `ordered` writes them, to compare places in JavaScript. */
  order: (LedgerCursor | null)[];
  counts: number[];
  complete: boolean;
}

/** A ledger row's columns that place it in a sort, a status or a premium filter (as ledger_log keeps them). */
interface PlacedRow {
  value: string;
  note: string;
  status: string;
  is_premium: number;
  expires_at: string | null;
  created_at: string | null;
  last_seen_at: string;
}
/** A key ledger_log names since the anchors last moved: the row as its first entry found it (`was`: 1 when it was there), and the row now (`present`: 1 when it still is). */
type ChangedKey = { profile_id: string; was: number; present: number } & PlacedRow & {
    now_note: string;
    now_status: string;
    now_is_premium: number;
    now_expires_at: string | null;
    now_created_at: string | null;
    now_last_seen_at: string;
  };

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
  outcome?: AuditEntry['outcome'] | undefined;
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
  expiry_stale: number;
  hwid_stale: number;
  status_stale: number;
}

/** A run's end as the job service saw it (LocalDb.endJobRun; the job writer's JobRunEnd is this type). */
export interface RunEndRecord {
  jobId: string;
  state: JobState;
  reason: string | null;
  finishedAt: string;
  batches: readonly SettleBatch[];
  /**
   * The end of a start or resume cancelled before it ran (it sent nothing): written whatever state the job stopped in
   * (a resume's file still says that state), not only over "running".
   */
  anyState?: true;
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
  /** When the job's current (or last) run began. */
  runAt: string | null;
  /** When that run's last answers were written; null when none was. */
  answeredAt: string | null;
  /**
   * Keydesk stopped while the job ran (a crash, a kill), so its end was not seen: finishedAt is the last moment it
   * was known at work (answeredAt, else runAt, else createdAt), not when it stopped.
   */
  endUnseen: boolean;
}
/** How one sent item ended, with what the ledger and the audit log learn from it; written in one transaction. */
export interface ItemSettlement {
  seq: number;
  /** 'retry': an unknown item the user chose to send again, put back unsent (ClaimedJobItem.retry). */
  state: Exclude<JobItemState, 'sent'> | 'retry';
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
  /** Values extended whose new expiry could not be read back: their rows are marked (markExpiryStale). */
  expiryStale?: readonly string[];
  /** Values whose HWID reset was sent with no answer (unknown): their rows' HWID is marked (markStale). */
  hwidStale?: readonly string[];
  /** Values whose delete was sent with no answer (unknown): their rows' status is marked (markStale). */
  statusStale?: readonly string[];
  deletedValues: readonly string[];
  /** Values a generate job made, kept with the job for its export: per answer one JSON list of them (a KeyBatch's `values` as it came). */
  generatedValues?: readonly JsonText<string[]>[];
  audit: readonly Omit<AuditEntry, 'id' | 'at'>[];
}
/**
 * An item claimed for sending (committed as sent). `retry`: it was unknown and the user chose to send it again;
 * its earlier evidence (kept on the row while it is sent), to put back if it goes unsent.
 */
export interface ClaimedJobItem {
  seq: number;
  target: string;
  size: number;
  retry?: { code: string | null; message: string | null };
}
/**
 * An item's state as the file holds it: a JobItemState, or 'retry', an unknown item the user chose to send again,
 * only while the run that was given that yes goes on (it ends, or the next start, puts it back to unknown). Read
 * as 'unknown' everywhere: its outcome is unknown until it is sent again.
 */
const ITEM_STATE = "CASE state WHEN 'retry' THEN 'unknown' ELSE state END";
/**
 * An item's state as shown while its job runs: one claimed and not sent yet (its number in the JSON list bound as
 * `param`, from the run: send-log.ts) is as it was before the claim, pending, or unknown for one the user chose to
 * send again (claimed with its earlier code kept). Sent in the file means claimed; only the run knows what went out.
 */
function shownItemState(param: string, table = ''): string {
  return `CASE WHEN ${table}state = 'sent' AND ${table}seq IN (SELECT value FROM json_each(${param})) THEN (CASE WHEN ${table}code IS NULL THEN 'pending' ELSE 'unknown' END) WHEN ${table}state = 'retry' THEN 'unknown' ELSE ${table}state END`;
}
const JOB_SELECT =
  'SELECT id, profile_id AS profileId, action, params, state, reason, created_at AS createdAt, finished_at AS finishedAt, total, run_at AS runAt, answered_at AS answeredAt, end_unseen AS endUnseen FROM jobs';
/** What a run's send log says (send-log.ts): the run it is for (jobs.run_at) and the items it sent. */
export interface SendLogRecord {
  run: string | null;
  sent: ReadonlySet<number>;
}
/** A job's row as JOB_SELECT reads it. */
type JobRow = Omit<StoredJob, 'endUnseen'> & { endUnseen: number };
const storedJob = (row: JobRow): StoredJob => ({ ...row, endUnseen: row.endUnseen !== 0 });

const AUDIT_SELECT = 'SELECT id, at, profile_id AS profileId, profile_name AS profileName, action, target, outcome, message FROM audit';

/**
 * A key as upsertKeys writes it: value, note, status, premium (0/1), expiry, HWID, creation, search text, days
 * (a days key's), and the HWID as the search text ends with it (lower-cased; '' for none).
 */
type LedgerRowTuple = [string, string, Key['status'], 0 | 1, string | null, string | null, string | null, string, number | null, string];

/**
 * A key's search text (value, note and HWID, lower-cased, each part after a newline) and its HWID part, whose
 * length in characters is stored with it (hwid_chars) so its trigrams are indexed apart (schema.ts).
 */
function searchText(k: Pick<Key, 'value' | 'note' | 'hwid'>): { search: string; hwid: string } {
  const hwid = (k.hwid ?? '').toLowerCase();
  return { search: `${k.value}\n${k.note}\n`.toLowerCase() + hwid, hwid };
}

/** A filter's text as the stored search text holds it (lower-cased), or null for no text. */
const textTerm = (filter: LedgerFilter): string | null => (filter.text ? filter.text.toLowerCase() : null);

const isUnfiltered = (filter: LedgerFilter): boolean => !filter.text && !filter.status && filter.premium === undefined;

/** A string as one quoted FTS5 token: nothing in it is read as query syntax. */
const ftsString = (text: string): string => `"${text.replaceAll('"', '""')}"`;

/**
 * A place in a sort as SQL conditions over a sort key column `k` and the value `v` (the tiebreaker): the rows
 * from `at` on in the direction asked (with `at` itself when `inclusive`; null: from the start), as one or two
 * ranges read in turn.
 * NULL keys come first ascending and last descending, as ORDER BY puts them.
 */
function cursorSegments(
  k: string,
  v: string,
  asc: boolean,
  at: LedgerCursor | null,
  inclusive: boolean,
): { sql: string; params: SQLInputValue[]; order: string }[] {
  const dir = asc ? 'ASC' : 'DESC';
  // No place: the whole order from its start.
  if (at === null) return [{ sql: 'true', params: [], order: `${k} ${dir}, ${v} ${dir}` }];
  const cmp = `${asc ? '>' : '<'}${inclusive ? '=' : ''}`;
  if (at.key === null) {
    const first = { sql: `${k} IS NULL AND ${v} ${cmp} ?`, params: [at.value], order: `${v} ${dir}` };
    // Ascending, the non-NULL keys follow the NULLs; descending, nothing follows them.
    return asc ? [first, { sql: `${k} IS NOT NULL`, params: [], order: `${k} ${dir}, ${v} ${dir}` }] : [first];
  }
  const first = { sql: `(${k}, ${v}) ${cmp} (?, ?)`, params: [at.key, at.value], order: `${k} ${dir}, ${v} ${dir}` };
  return asc ? [first] : [first, { sql: `${k} IS NULL`, params: [], order: `${v} ${dir}` }];
}

/** Up to `n` items evenly spread over `items`, first and last included. */
function spread<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  const last = items.length - 1;
  return Array.from({ length: n }, (_, j) => items[Math.round((j * last) / (n - 1))] as T);
}

const HIGH_UNIT = /[\uD800-\uFFFF]/;
const HIGH_UNITS = /[\uD800-\uFFFF]/g;
/**
 * A string whose UTF-16 order (JavaScript's <) is SQLite's order of `text` (its UTF-8 bytes: code point order):
 * the text itself unless it holds a surrogate pair or a character from U+E000, which are moved so that code
 * points from U+E000 sort below those written as surrogate pairs (from U+10000).
 */
function ordered(text: string): string {
  if (!HIGH_UNIT.test(text)) return text;
  return text.replace(HIGH_UNITS, (c) => {
    const x = c.charCodeAt(0);
    return String.fromCharCode(x >= 0xe000 ? x - 0x800 : x + 0x2000);
  });
}
const orderedPlace = (place: LedgerCursor): LedgerCursor => ({
  key: place.key === null ? null : ordered(place.key),
  value: ordered(place.value),
});

/** Two places (as `ordered` writes them) in an ascending sort, as ORDER BY key, value puts them (NULL keys first). */
function comparePlaces(a: LedgerCursor, b: LedgerCursor): number {
  if (a.key !== b.key) {
    if (a.key === null) return -1;
    if (b.key === null) return 1;
    return a.key < b.key ? -1 : 1;
  }
  return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
}

/** Whether a row passes a filter with no text (the filters whose anchors follow the log). */
const passes = (filter: LedgerFilter, row: PlacedRow): boolean =>
  (!filter.status || row.status === filter.status) && (filter.premium === undefined || (row.is_premium === 1) === filter.premium);

const likeTerm = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export class LocalDb {
  private readonly db: DatabaseSync;
  /** Statements a running job repeats every step, compiled once: compiling costs more than running them. */
  private readonly statements = new Map<string, StatementSync>();
  /** Anchor lists, most recently used last: of filters (ANCHOR_CACHE), and of the whole ledger (ORDER_ANCHOR_CACHE). */
  private readonly anchorCache = new Map<string, Anchors>();
  private readonly orderAnchors = new Map<string, Anchors>();
  /** Per term: its ledger_text query (null: scanned), and at most how many rows that query names, when known. */
  private readonly textMatches = new Map<string, { match: string | null; rows: number | null }>();
  private dataVersion = -1;
  /** This connection wrote to the ledger since it last read it (data_version tells only of other connections' writes). */
  private wroteLedger = false;
  /** The last ledger_log entry the anchors count (-1: none read yet). */
  private logSeq = -1;
  private readonly background: boolean;
  private warmProfile: string | null = null;
  /** The file this connection opened (':memory:' for none): a job's send log lives beside it (send-log.ts). */
  readonly file: string;
  private warmTimer: NodeJS.Timeout | undefined;
  /** The warming under way follows the ledger writer's commits: its pages go back when it is done. */
  private releaseAfterWarm = false;

  private readonly paging: LedgerPaging;

  /**
   * `cacheKiB`: the connection's page cache (default 32 MiB: a 100,000-key ledger's pages stay in memory between
   * keystrokes); the ledger writer's own connection takes less. `busyTimeoutMs`: how long a statement waits for
   * the other connection's write lock (the ledger writer holds it one chunk at a time) before it fails.
   * `paging`: how deep pages are found (see LedgerPaging). `background`: after the ledger is read, the anchors
   * of every sort of that profile are found ahead of need, in short slices on this thread's event loop (main's
   * connection; see prepareLedger).
   */
  constructor(
    file: string,
    options: { cacheKiB?: number; busyTimeoutMs?: number; paging?: Partial<LedgerPaging>; background?: boolean } = {},
  ) {
    this.file = file;
    this.paging = { ...PAGING, ...options.paging };
    this.background = options.background === true;
    this.db = openLocalDb(file, options.busyTimeoutMs ?? 5_000, options.cacheKiB ?? 32_768);
  }

  close(): void {
    clearTimeout(this.warmTimer);
    this.warmTimer = undefined;
    if (this.db.isOpen) this.db.close();
  }

  /**
   * Runs `fn` with this connection waiting at most `ms` for another writer's lock (0: not at all), then waiting as
   * before: a quit that has a budget of its own (JobService.close) does not give a write the usual 5 s.
   */
  withBusyTimeout<T>(ms: number, fn: () => T): T {
    const { timeout } = this.db.prepare('PRAGMA busy_timeout').get() as { timeout: number };
    this.db.exec(`PRAGMA busy_timeout = ${String(Math.max(0, Math.floor(ms)))}`);
    try {
      return fn();
    } finally {
      this.db.exec(`PRAGMA busy_timeout = ${String(timeout)}`);
    }
  }

  /** Gives back the page cache's memory (SQLite's `shrink_memory`); the next read fills it again as needed. */
  releaseMemory(): void {
    if (this.db.isOpen) this.db.exec('PRAGMA shrink_memory');
  }

  /** Runs `fn` in one read transaction (one snapshot of the file), unless a transaction is open already. */
  private read<T>(fn: () => T): T {
    return this.db.isTransaction ? fn() : this.transaction('BEGIN', fn);
  }

  /** Runs `fn` in one transaction: all of it, or none. */
  private tx<T>(fn: () => T): T {
    return this.transaction('BEGIN IMMEDIATE', fn);
  }

  private transaction<T>(begin: 'BEGIN' | 'BEGIN IMMEDIATE', fn: () => T): T {
    return inTransaction(this.db, begin, fn);
  }

  /** A statement run many times a second (a job's every step), compiled on first use. */
  private statement(sql: string): StatementSync {
    let st = this.statements.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.statements.set(sql, st);
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
   *
   * A row's HWID has its own text-index entry at rowid -id (schema.ts). FTS5 keeps what one statement writes in
   * memory until an entry comes at a rowid lower than the last, and then writes out what it holds: HWID entries
   * inserted by ascending id (descending rowid) are written out one at a time. So a lookup's rows in the ledger
   * that gain a HWID or change it (activated keys) are written last, in one statement, by id descending: the
   * trigger inserts their entries in ascending rowid (bench ledger-hwid: 0.6–0.7 of the time at 2,000 and 10,000).
   * The rest stay in key order: a new row's two entries (id, then -id) alternate whatever the order; entries
   * removed (a HWID cleared) cost the same in either order (measured); and a job's answers (`known`), a few dozen
   * at a time, go a row per statement and are not looked up.
   */
  private upsertKeys(profileId: string, keys: readonly Key[], seenAt: string, known = false): void {
    this.ledgerCaches(true);
    // In key order: every index this touches leads with the value (or a column the batch shares), so sorted rows
    // walk each B-tree once, front to back, rather than landing on random pages of a table larger than the cache.
    const sorted = [...keys].sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    const rows = sorted.map((k): LedgerRowTuple => {
      const { search, hwid } = searchText(k);
      return [
        k.value,
        k.note,
        k.status,
        k.isPremium ? 1 : 0,
        k.expiresAt,
        k.hwid,
        k.createdAt || null,
        search,
        k.expiresByDaysKey ? k.daysKey : null,
        hwid,
      ];
    });
    const { first, hwidChanged } = known ? { first: rows, hwidChanged: [] } : this.hwidEntriesLast(profileId, rows);
    this.writeRows(profileId, first, seenAt, known);
    this.writeRows(profileId, hwidChanged, seenAt, known);
  }

  /**
   * A lookup's rows split so their HWID entries go in ascending rowid (upsertKeys): `first`, in key order, new rows
   * and rows whose HWID entry is kept or removed; then `hwidChanged`, rows in the ledger given a HWID entry (added
   * or changed), by id descending. Only active keys have a HWID: a batch with none (a generate's) is not looked up.
   */
  private hwidEntriesLast(profileId: string, rows: LedgerRowTuple[]): { first: LedgerRowTuple[]; hwidChanged: LedgerRowTuple[] } {
    if (!rows.some((r) => r[9] !== '')) return { first: rows, hwidChanged: [] };
    const was = new Map<string, { id: number; hwid: string }>();
    const stored = this.statement(
      `SELECT value, id, substr(search, length(search) - hwid_chars + 1) AS hwid FROM ledger
       WHERE profile_id = ?1 AND value IN (SELECT value FROM json_each(?2))`,
    ).all(profileId, JSON.stringify(rows.map((r) => r[0]))) as { value: string; id: number; hwid: string }[];
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
    const seenMs = markMs(seenAt);
    if (known) {
      // Keys a job's answers describe are in the ledger already, and an answer (an extend, a reset) changes few
      // of their columns. A column a statement sets has its index entries rewritten even when the value is the
      // same, so rows whose note, status, premium flag and creation are as recorded get a narrower update: no
      // write to those four indexes, and none to the text index either unless the search text changed (its
      // trigger looks). Whatever else (a new key, a changed note) goes through the full upsert below.
      // One keyed statement per row: as one statement over json_each, SQLite reads the ledger in the outer loop.
      const narrow = this.statement(
        `UPDATE ledger SET expires_at = ?1, hwid = ?2, search = ?3, days_key = ?4, last_seen_at = ?5, ${CLEAR_ALL('?13')}, hwid_chars = length(?12)
         WHERE profile_id = ?6 AND value = ?7 AND note = ?8 AND status = ?9 AND is_premium = ?10 AND (?11 IS NULL OR created_at IS ?11)`,
      );
      rows = rows.filter(
        ([value, note, status, isPremium, expiresAt, hwid, createdAt, search, daysKey, hwidText]) =>
          narrow.run(expiresAt, hwid, search, daysKey, seenAt, profileId, value, note, status, isPremium, createdAt, hwidText, seenMs)
            .changes === 0,
      );
      if (rows.length === 0) return;
    }
    // In the order given: json_each reads the array front to back, and the rows are inserted (or updated) so.
    this.statement(
      `INSERT INTO ledger (profile_id, value, note, status, is_premium, expires_at, hwid, created_at, last_seen_at, search, days_key, hwid_chars)
       SELECT ?1, v ->> '$[0]', v ->> '$[1]', v ->> '$[2]', v ->> '$[3]', v ->> '$[4]', v ->> '$[5]', v ->> '$[6]', ?2, v ->> '$[7]', v ->> '$[8]', length(v ->> '$[9]')
       FROM (SELECT value AS v FROM json_each(?3)) WHERE true
       ON CONFLICT (profile_id, value) DO UPDATE SET note = excluded.note, status = excluded.status, is_premium = excluded.is_premium,
         expires_at = excluded.expires_at, hwid = excluded.hwid, created_at = coalesce(excluded.created_at, ledger.created_at),
         last_seen_at = excluded.last_seen_at, search = excluded.search, days_key = excluded.days_key, ${CLEAR_ALL('?4', 'ledger.')},
         hwid_chars = excluded.hwid_chars`,
    ).run(profileId, seenAt, JSON.stringify(rows), seenMs);
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
    const seenMs = markMs(seenAt);
    const sets = [
      'note = ?',
      'is_premium = ?',
      'expires_at = ?',
      'hwid = ?',
      'search = ?',
      'hwid_chars = length(?)',
      'last_seen_at = ?',
      clearedBy('expiry_stale', '?'),
      clearedBy('hwid_stale', '?'),
    ];
    const params: SQLInputValue[] = [
      key.note,
      key.isPremium ? 1 : 0,
      key.expiresAt,
      key.hwid,
      text.search,
      text.hwid,
      seenAt,
      seenMs,
      seenMs,
    ];
    if (!unreported.has('daysKey')) {
      sets.push('days_key = ?');
      params.push(key.expiresByDaysKey ? key.daysKey : null);
    }
    if (!unreported.has('createdAt') && key.createdAt) {
      sets.push('created_at = ?');
      params.push(key.createdAt);
    }
    this.ledgerCaches(true);
    this.db.prepare(`UPDATE ledger SET ${sets.join(', ')} WHERE profile_id = ? AND value = ?`).run(...params, profileId, key.value);
  }

  /**
   * Keys extended on the service whose new expiry never came back (no key in the answer, and no lookup found
   * it): their rows keep the expiry seen before, marked as such until a later full description of the key.
   */
  markExpiryStale(profileId: string, values: readonly string[], at = new Date().toISOString()): void {
    this.markStale(profileId, 'expiry', values, at);
  }

  /**
   * Keys acted on whose outcome never came back, their rows marked until a later full description of the key:
   * 'expiry', an extend (markExpiryStale); 'hwid', an HWID reset sent with no answer, on rows that show a HWID (a
   * row with none shows what a reset leaves, whichever way it went); 'status', a delete sent with no answer, on
   * rows not already deleted. `at`: when (a description seen before it does not clear it); a row marked later
   * keeps that later time.
   */
  markStale(profileId: string, what: StaleMark, values: readonly string[], at = new Date().toISOString()): void {
    if (values.length === 0) return;
    const { column, applies } = STALE[what];
    const r = this.statement(
      `UPDATE ledger SET ${column} = max(${column}, ?) WHERE profile_id = ? AND value IN (SELECT value FROM json_each(?)) AND ${applies}`,
    ).run(markMs(at), profileId, JSON.stringify(values));
    if (Number(r.changes) > 0) this.ledgerCaches(true);
  }

  /**
   * The keys of items still sent (about to become unknown: they may or may not have taken effect) in the jobs
   * `jobs` selects: an extend's row keeps the expiry seen before, a reset's the HWID, a delete's the status, each
   * marked as not read back.
   */
  private markSentStale(jobs: string, ...params: string[]): void {
    let changes = 0;
    const now = Date.now();
    for (const [action, what] of [
      ['extend', 'expiry'],
      ['resetHwid', 'hwid'],
      ['delete', 'status'],
    ] as const) {
      const { column, applies } = STALE[what];
      const r = this.db
        .prepare(
          `UPDATE ledger SET ${column} = ?1 WHERE ${column} < ?1 AND ${applies} AND (profile_id, value) IN
             (SELECT j.profile_id, i.target FROM job_items i JOIN jobs j ON j.id = i.job_id
               WHERE i.job_id IN (${jobs.replaceAll('?', '?2')}) AND i.state = 'sent' AND j.action = '${action}')`,
        )
        .run(now, ...params);
      changes += Number(r.changes);
    }
    if (changes > 0) this.ledgerCaches(true);
  }

  /**
   * Keys whose HWID reset the service answered as done without describing them (the real dialect's `{message}`),
   * nor could they be read back: the reset took, so they have no HWID now, and their rows say so (not the HWID seen
   * before, and no "not read back" mark: this is known).
   */
  markHwidCleared(profileId: string, values: readonly string[], seenAt = new Date().toISOString()): void {
    if (values.length === 0) return;
    this.ledgerCaches(true);
    this.statement(
      `UPDATE ledger SET hwid = NULL, search = js_lower(value || char(10) || note || char(10)), hwid_chars = 0, ${clearedBy('hwid_stale', '?4')}, last_seen_at = ?1
       WHERE profile_id = ?2 AND value IN (SELECT value FROM json_each(?3))`,
    ).run(seenAt, profileId, JSON.stringify(values), markMs(seenAt));
  }

  markDeleted(profileId: string, value: string, seenAt = new Date().toISOString()): void {
    this.ledgerCaches(true);
    this.db
      .prepare(
        `UPDATE ledger SET status = 'deleted', ${clearedBy('status_stale', '?4')}, last_seen_at = ?1 WHERE profile_id = ?2 AND value = ?3`,
      )
      .run(seenAt, profileId, value, markMs(seenAt));
  }

  /**
   * A filter as SQL over `ledger` (its columns prefixed with `t`, a table alias and a dot, or nothing):
   * - 'walk' tests each row read along a sort index: the unary + keeps SQLite off the status index, which would
   *   change the order rows are read in, and the text is a substring test of the row's own search text;
   * - 'set' names every match at once (a job's targets, an export, a count): a term of 3 characters or more is
   *   looked up in ledger_text (its candidates then tested, which also keeps the exact substring meaning), and
   *   status and premium may use their index.
   */
  private ledgerWhere(profileId: string, filter: LedgerFilter, mode: 'walk' | 'set', t = ''): { sql: string; params: SQLInputValue[] } {
    const clauses = [`${t}profile_id = ?`];
    const params: SQLInputValue[] = [profileId];
    const term = textTerm(filter);
    const plus = mode === 'walk' || term !== null ? '+' : '';
    if (term !== null) {
      const match = mode === 'set' ? this.textMatch(term) : null;
      if (match !== null) {
        // A row's value and note are entry id, its HWID entry -id.
        clauses.push(`${t}id IN (SELECT abs(rowid) FROM ledger_text WHERE ledger_text MATCH ?)`);
        params.push(match);
      }
      clauses.push(`instr(${t}search, ?) > 0`);
      params.push(term);
    }
    if (filter.status) {
      clauses.push(`${plus}${t}status = ?`);
      params.push(filter.status);
    }
    if (filter.premium !== undefined) {
      if (!filter.status && mode === 'set' && term === null) {
        // Premium alone, collected as a set: named with every status this profile's keys have (ledger_counts),
        // so SQLite reads the status index, which holds is_premium, where otherwise it reads a row per entry
        // to test it (a premium key in seven: 70,000 rows to count 10,000).
        clauses.push(`${t}status IN (SELECT status FROM ledger_counts WHERE profile_id = ? AND n > 0)`);
        params.push(profileId);
      }
      clauses.push(`${plus}${t}is_premium = ?`);
      params.push(filter.premium ? 1 : 0);
    }
    return { sql: clauses.join(' AND '), params };
  }

  /**
   * The ledger_text query for the rows that may hold `term` (lower-cased), or null when a scan finds them
   * sooner. The index keeps no positions (detail=none), so its rows are candidates that the caller's substring
   * test narrows to the exact meaning; they always include every row holding the term:
   * - 3 characters or more: its two rarest trigrams held by at most the count's cap of rows, or when all are
   *   common, up to TERM_TRIGRAMS of them; all required (a row holding the term holds them all);
   * - 1 or 2: any trigram starting with it (every character of the indexed text starts one); null when so many
   *   do that the term is common; and no row holds a term no trigram starts with.
   * Kept until the ledger changes: typing a term asks for it several times.
   */
  private textMatch(term: string): string | null {
    return this.textLookup(term).match;
  }

  /** textMatch's query, and at most how many rows it names when the trigram counts tell (null: unknown). */
  private textLookup(term: string): { match: string | null; rows: number | null } {
    this.ledgerCaches();
    const known = this.textMatches.get(term);
    if (known !== undefined) return known;
    const chars = Array.from(term);
    let match: string | null;
    let rows: number | null = null;
    if (term.includes('\n')) {
      // A row's value and note, and its HWID, are indexed apart: a term with a newline may span them. Scanned.
      match = null;
    } else if (chars.length >= 3) {
      const grams = [...new Set(chars.slice(0, -2).map((_, i) => chars.slice(i, i + 3).join('')))];
      const probe = this.statement('SELECT count(*) AS n FROM (SELECT 1 FROM ledger_text WHERE ledger_text MATCH ? LIMIT ?)');
      const rarest = (candidates: readonly string[], limit: number): { g: string; n: number }[] => {
        // The two with the fewest rows, each counted no further than the second fewest so far.
        const best: { g: string; n: number }[] = [];
        for (const g of candidates) {
          const most = best.length < 2 ? limit : (best[1]?.n ?? limit);
          const n = (probe.get(ftsString(g), most) as { n: number }).n;
          if (n >= most) continue;
          best.push({ g, n });
          best.sort((x, y) => x.n - y.n);
          best.length = Math.min(best.length, 2);
        }
        return best;
      };
      // The two rarest of those held by at most rareTrigram rows, or else by at most knownTrigram; when every
      // one is common, up to TERM_TRIGRAMS of them evenly spread over the term, which together cover most of it.
      let chosen = rarest(spread(grams, TERM_PROBES), this.paging.rareTrigram + 1);
      if (chosen.length === 0) chosen = rarest(spread(grams, TERM_TRIGRAMS), this.paging.knownTrigram + 1);
      rows = chosen[0]?.n ?? null;
      match = (chosen.length > 0 ? chosen.map((c) => c.g) : spread(grams, TERM_TRIGRAMS)).map(ftsString).join(' AND ');
    } else {
      // Code points sort as their UTF-8 bytes do: every trigram starting with the term lies below this bound.
      const starting = this.db
        .prepare('SELECT term FROM ledger_trigrams WHERE term >= ? AND term < ? LIMIT ?')
        .all(term, `${term}\u{10FFFF}\u{10FFFF}\u{10FFFF}`, SHORT_TERM_TRIGRAMS + 1) as { term: string }[];
      if (starting.length > SHORT_TERM_TRIGRAMS) match = null;
      // A term under 3 characters matches no row as a query of its own.
      else if (starting.length === 0) match = ftsString(term);
      else match = starting.map((r) => ftsString(r.term)).join(' OR ');
    }
    const lookup = { match, rows };
    this.textMatches.set(term, lookup);
    return lookup;
  }

  /**
   * The ledger_text query whose candidates are exactly the filter's matches, or null: a text-only filter, in a
   * ledger holding no other profile's keys, whose term has no newline (the indexed text ends in two) and is
   * found by trigrams that each hold it whole (a term of 1 or 2 characters by the trigrams starting with it, one
   * of 3 by itself). Longer terms' trigrams may lie apart in a row, so their candidates need the substring test.
   */
  private exactCandidates(profileId: string, filter: LedgerFilter): string | null {
    const term = textTerm(filter);
    if (term === null || filter.status || filter.premium !== undefined || term.includes('\n') || Array.from(term).length > 3) return null;
    return this.onlyProfile(profileId) ? this.textMatch(term) : null;
  }

  /** The ledger holds no other profile's keys. */
  private onlyProfile(profileId: string): boolean {
    return this.db.prepare('SELECT 1 FROM ledger_counts WHERE profile_id <> ? AND n > 0 LIMIT 1').get(profileId) === undefined;
  }

  /**
   * The matches of a filter as (value, k) pairs, k the sort column, read the cheapest way and stopping after
   * `most`: a term of 3 characters or more streams ledger_text's candidates (so the LIMIT stops the index read
   * itself); other filters read the table or the status index.
   */
  private hitsSource(
    profileId: string,
    filter: LedgerFilter,
    column: string,
    targetsOnly = false,
  ): { sql: string; params: SQLInputValue[] } {
    const term = textTerm(filter);
    const match = term === null ? null : this.textMatch(term);
    // Only what a job would target (see targetWhere): known deleted keys out, unless the filter asks for them.
    const targets = (t: string) => (targetsOnly && !filter.status ? ` AND +${t}status <> 'deleted'` : '');
    if (match === null) {
      const where = this.ledgerWhere(profileId, filter, 'set');
      // A common short term scanned in a ledger of one profile: in table order, which reads each page once,
      // where an index on the profile would read a row at a time.
      const from = term !== null && this.onlyProfile(profileId) ? 'ledger NOT INDEXED' : 'ledger';
      return {
        sql: `SELECT value, ${column} AS k, status AS st FROM ${from} WHERE ${where.sql}${targets('')} LIMIT ?`,
        params: where.params,
      };
    }
    const where = this.ledgerWhere(profileId, filter, 'walk', 'l.');
    return {
      // A key whose value or note and whose HWID both hold the term is found twice (entries id and -id): once here.
      sql: `SELECT DISTINCT l.value AS value, l.${column} AS k, l.status AS st FROM ledger_text CROSS JOIN ledger AS l ON l.id = abs(ledger_text.rowid)
            WHERE ledger_text MATCH ? AND ${where.sql}${targets('l.')} LIMIT ?`,
      params: [match, ...where.params],
    };
  }

  /**
   * The keys a filter names as a job's targets, and the ones "select all matching" counts: as the ledger shows
   * them, less those it knows are deleted unless the filter asks for deleted keys (sending them again would only
   * fail, or extend nothing).
   */
  private targetWhere(profileId: string, filter: LedgerFilter): { sql: string; params: SQLInputValue[] } {
    const where = this.ledgerWhere(profileId, filter, 'set');
    return filter.status ? where : { sql: `${where.sql} AND +status <> 'deleted'`, params: where.params };
  }

  /**
   * Brings what was worked out from the ledger up to date when it may have changed: after this connection's own
   * writes (`wrote`: noted, and done at the next read), and when another connection (a writer thread, another
   * process) committed, which PRAGMA data_version tells. Text matches are dropped; anchors follow ledger_log.
   * Called inside a read transaction, so the log and the rows it names are read as of one moment.
   */
  private ledgerCaches(wrote = false): void {
    if (wrote) {
      this.wroteLedger = true;
      return;
    }
    const { data_version: version } = this.statement('PRAGMA data_version').get() as { data_version: number };
    if (!this.wroteLedger && version === this.dataVersion) return;
    this.wroteLedger = false;
    this.dataVersion = version;
    this.textMatches.clear();
    // Its statements read as of one moment even when the caller (an export, a count) holds no read transaction:
    // otherwise a commit from the writer's thread between them would move some rows twice.
    this.read(() => {
      this.followLog();
    });
  }

  private anchorLists(): Map<string, Anchors>[] {
    return [this.orderAnchors, this.anchorCache];
  }

  /**
   * Moves the anchors' row counts by the ledger_log entries since they were last moved: per key changed, -1 in
   * the block of its place before the first of them (none when it was inserted), +1 in the block of its place
   * now (none when it is gone), in each list whose filter it passed or passes. A text filter's lists are
   * dropped (the log holds no search text), and so is every list when the log has lost entries they need.
   */
  private followLog(): void {
    const { lo, hi } = this.statement('SELECT min(seq) AS lo, max(seq) AS hi FROM ledger_log').get() as {
      lo: number | null;
      hi: number | null;
    };
    const head = hi ?? 0;
    const from = this.logSeq;
    if (head === from) return;
    this.logSeq = head;
    if (this.orderAnchors.size + this.anchorCache.size === 0) return;
    if (from < 0 || head < from || (lo !== null && lo > from + 1) || head - from > this.paging.logCatchUp) {
      this.orderAnchors.clear();
      this.anchorCache.clear();
      return;
    }
    // One row per key changed, in the order of its first entry since then: the row as that entry found it (the
    // anchors counted it so) beside the row now. Read row by row, not as arrays and maps of every key: a writer's
    // commit can log thousands, and keeping them all alive at once across scavenges grew main's young generation.
    const changes = this.statement(`
      SELECT f.profile_id, f.value, f.was, f.note, f.status, f.is_premium, f.expires_at, f.created_at, f.last_seen_at,
        l.value IS NOT NULL AS present, l.note AS now_note, l.status AS now_status, l.is_premium AS now_is_premium,
        l.expires_at AS now_expires_at, l.created_at AS now_created_at, l.last_seen_at AS now_last_seen_at
      FROM (
        SELECT min(seq) AS first, profile_id, value, was, note, status, is_premium, expires_at, created_at, last_seen_at
        FROM ledger_log WHERE seq > ? AND seq <= ? GROUP BY profile_id, value
      ) AS f
      LEFT JOIN ledger AS l ON l.profile_id = f.profile_id AND l.value = f.value
      ORDER BY f.first`);
    // Per profile changed, its lists and whether each still holds (a text filter's does not: the log holds no search text).
    const followed = new Map<string, { lists: Map<string, Anchors>; id: string; list: Anchors; kept: boolean }[]>();
    const listsOf = (profileId: string) => {
      let found = followed.get(profileId);
      if (!found) {
        found = [];
        for (const lists of this.anchorLists()) {
          for (const [id, list] of lists) if (list.profileId === profileId) found.push({ lists, id, list, kept: !list.filter.text });
        }
        followed.set(profileId, found);
      }
      return found;
    };
    for (const e of changes.iterate(from, head) as Iterable<unknown> as Iterable<ChangedKey>) {
      const was: PlacedRow | null = e.was === 1 ? e : null;
      const is: PlacedRow | undefined =
        e.present === 1
          ? {
              value: e.value,
              note: e.now_note,
              status: e.now_status,
              is_premium: e.now_is_premium,
              expires_at: e.now_expires_at,
              created_at: e.now_created_at,
              last_seen_at: e.now_last_seen_at,
            }
          : undefined;
      for (const followedList of listsOf(e.profile_id)) {
        if (!followedList.kept) continue;
        const { list } = followedList;
        const column = list.column as keyof PlacedRow;
        const wasIn = was !== null && passes(list.filter, was);
        const isIn = is !== undefined && passes(list.filter, is);
        // Most writes move a row in one order only (a key seen again: the last-seen one).
        if (wasIn && isIn && was[column] === is[column]) continue;
        let kept = true;
        if (wasIn) kept = this.countMove(list, was, -1);
        if (kept && isIn) kept = this.countMove(list, is, 1);
        followedList.kept = kept;
      }
    }
    for (const found of followed.values()) {
      for (const { lists, id, kept } of found) if (!kept) lists.delete(id);
    }
  }

  /** Adds `delta` to the count of the block holding `row`'s place (none while that block is not counted yet); false if a count would go below zero. */
  private countMove(list: Anchors, row: PlacedRow, delta: number): boolean {
    const place = orderedPlace({ key: row[list.column as keyof PlacedRow] as string | null, value: row.value });
    const j = this.blockOf(list, place);
    const n = list.counts[j];
    if (n === undefined) return true;
    list.counts[j] = n + delta;
    return n + delta >= 0;
  }

  /** The block a place (as `ordered` writes it) falls in: the last whose first key is at or before it in the list's direction. */
  private blockOf(list: Anchors, place: LedgerCursor): number {
    const sign = list.asc ? 1 : -1;
    let lo = 0;
    let hi = list.order.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      const key = list.order[mid];
      if (key && sign * comparePlaces(key, place) <= 0) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** How many rows a profile's ledger holds (with a status: of that status), as ledger_counts keeps them. */
  ledgerSize(profileId: string, status?: LedgerRow['status']): number {
    const row = (
      status === undefined
        ? this.db.prepare('SELECT coalesce(sum(n), 0) AS n FROM ledger_counts WHERE profile_id = ?').get(profileId)
        : this.db.prepare('SELECT coalesce(sum(n), 0) AS n FROM ledger_counts WHERE profile_id = ? AND status = ?').get(profileId, status)
    ) as { n: number };
    return row.n;
  }

  /**
   * One page of the ledger and how many rows the filter matches. Counting every match of a filter over a large
   * ledger costs a pass over all of it, so the count stops at `cap` (as mail clients say "more than 10,000"):
   * `totalCapped` says more than `total` rows match; `exact` counts them all. Two plans for the page:
   * - few rows ("sparse"): one pass collects each match's key and sort value (a text term through ledger_text),
   *   stopping past the cap; under it, those are every match, giving the count, and the page is taken from the
   *   small pairs, only its rows read whole.
   * - more than the cap: the page is read along the sort column's index, testing each row (see pageAt); a page
   *   costs about its size divided by the share of rows that match.
   * Both plans return the same rows.
   */
  queryLedger(
    profileId: string,
    filter: LedgerFilter,
    sort: { field: LedgerSortField; dir: 'asc' | 'desc' },
    offset: number,
    limit: number,
    count: { exact?: boolean; cap?: number } = {},
  ): LedgerPage {
    const page = this.read(() => this.queryLedgerNow(profileId, filter, sort, offset, limit, count));
    this.warmSoon(profileId);
    return page;
  }

  private queryLedgerNow(
    profileId: string,
    filter: LedgerFilter,
    sort: { field: LedgerSortField; dir: 'asc' | 'desc' },
    offset: number,
    limit: number,
    count: { exact?: boolean; cap?: number },
  ): LedgerPage {
    this.ledgerCaches();
    const dir = sort.dir === 'asc' ? 'ASC' : 'DESC';
    const column = SORT_COLUMNS[sort.field];
    const size = this.ledgerSize(profileId);
    const cap = count.cap ?? LEDGER_COUNT_CAP;
    if (isUnfiltered(filter)) {
      return {
        rows: this.pageAt(profileId, filter, sort, offset, limit),
        total: size,
        totalCapped: false,
        targets: size - this.ledgerSize(profileId, 'deleted'),
        targetsCapped: false,
      };
    }
    // A status alone is counted exactly, as ledger_counts keeps it (one row read): never "more than" the cap.
    if (filter.status && !filter.text && filter.premium === undefined) {
      const n = this.ledgerSize(profileId, filter.status);
      return { rows: this.pageAt(profileId, filter, sort, offset, limit), total: n, totalCapped: false, targets: n, targetsCapped: false };
    }
    // One pass collects the matches' keys and sort values, stopping at the cap's next match (all of them with
    // `exact` while under half the ledger). Under the cap, they are every match: the count, and the page
    // taken from them. Past it, the page is read along the sort index.
    const most = count.exact === true ? Math.ceil(size / 2) : cap + 1;
    // Status and premium are in the status index: counting the first matches there reads no row, where
    // collecting their sort keys reads one per match. A common short term (scanned, not looked up) reads rows
    // in table order, each page once, and counting them sorts nothing. Past the cap, that count is all the page needs.
    const term = textTerm(filter);
    const lookup = term === null ? null : this.textLookup(term);
    if ((lookup === null || lookup.match === null) && count.exact !== true) {
      const first = this.hitsSource(profileId, filter, 'value');
      const c = this.db.prepare(`SELECT count(*) AS n, total(st <> 'deleted') AS t FROM (${first.sql})`).get(...first.params, most) as {
        n: number;
        t: number;
      };
      if (c.n >= most) {
        const targets = filter.status || c.t > cap ? cap + 1 : this.countLedger(profileId, filter, cap + 1, true);
        return {
          rows: this.pageAt(profileId, filter, sort, offset, limit),
          total: cap,
          totalCapped: true,
          targets: Math.min(targets, cap),
          targetsCapped: targets > cap,
        };
      }
    }
    // A term whose index candidates are all matches (see exactCandidates), in a ledger holding one profile:
    // counting its first candidates reads the index only. Past the cap, the page is read along the sort index.
    const exact = count.exact === true ? null : this.exactCandidates(profileId, filter);
    if (exact !== null) {
      const deleted = this.ledgerSize(profileId, 'deleted');
      const n = (
        this.db
          .prepare('SELECT count(*) AS n FROM (SELECT DISTINCT abs(rowid) FROM ledger_text WHERE ledger_text MATCH ? LIMIT ?)')
          .get(exact, most + deleted) as { n: number }
      ).n;
      if (n >= most) {
        // At most `deleted` of them are deleted keys: past the cap by that many, the targets are past it too.
        const targets = n >= most + deleted ? cap + 1 : this.countLedger(profileId, filter, cap + 1, true);
        return {
          rows: this.pageAt(profileId, filter, sort, offset, limit),
          total: cap,
          totalCapped: true,
          targets: Math.min(targets, cap),
          targetsCapped: targets > cap,
        };
      }
    }
    // A term whose index candidates are known to be few (at most ALL_CANDIDATES times the cap) has them all read:
    // the count and the page come from them even past the cap, where a page walked along the sort index would
    // read a row per candidate for each match it finds, sparse as they are.
    const known =
      count.exact !== true && lookup?.rows !== null && lookup?.rows !== undefined && lookup.rows <= ALL_CANDIDATES * cap
        ? lookup.rows + 1
        : 0;
    const reach = Math.max(most, known);
    const hits = this.hitsSource(profileId, filter, column);
    const rows = this.db
      .prepare(
        `WITH hits AS MATERIALIZED (${hits.sql}),
           page AS MATERIALIZED (SELECT value, k FROM hits ORDER BY k ${dir}, value ${dir} LIMIT ? OFFSET ?)
         SELECT ledger.*, (SELECT count(*) FROM hits) AS total, (SELECT count(*) FROM hits WHERE st <> 'deleted') AS targets
         FROM page CROSS JOIN ledger ON ledger.profile_id = ? AND ledger.value = page.value
         ORDER BY page.k ${dir}, page.value ${dir}`,
      )
      .all(...hits.params, reach, limit, offset, profileId) as unknown as (LedgerDbRow & { total: number; targets: number })[];
    // With no row on the page, the matches are known to be none only on the first page.
    const found = rows[0]?.total ?? (offset === 0 ? 0 : this.countLedger(profileId, filter, reach));
    if (found < reach) {
      // Every match was read: the page is theirs, and the counts exact (said "more than the cap" past it).
      const targets = filter.status ? found : (rows[0]?.targets ?? (found === 0 ? 0 : this.countLedger(profileId, filter, reach, true)));
      if (count.exact === true) return { rows: rows.map(toLedgerRow), total: found, totalCapped: false, targets, targetsCapped: false };
      return {
        rows: rows.map(toLedgerRow),
        total: Math.min(found, cap),
        totalCapped: found > cap,
        targets: Math.min(targets, cap),
        targetsCapped: targets > cap,
      };
    }
    const page = this.pageAt(profileId, filter, sort, offset, limit);
    if (count.exact === true) {
      const total = this.countLedger(profileId, filter);
      return {
        rows: page,
        total,
        totalCapped: false,
        targets: filter.status ? total : this.countLedger(profileId, filter, undefined, true),
        targetsCapped: false,
      };
    }
    // When none of the first cap + 1 matches is deleted, there are more targets than the cap: no second pass.
    const targets = filter.status || (rows[0]?.targets ?? 0) > cap ? cap + 1 : this.countLedger(profileId, filter, cap + 1, true);
    return { rows: page, total: cap, totalCapped: true, targets: Math.min(targets, cap), targetsCapped: targets > cap };
  }

  /**
   * The page at `offset` of the rows a filter passes, read along the sort column's index. Near the start of its
   * order, a plain OFFSET; deeper, from the nearest anchor before it (see anchorsTo), so no page skips more than
   * paging.anchorStep rows (more only in a block that grew since, up to SPLIT_BLOCK steps).
   */
  private pageAt(
    profileId: string,
    filter: LedgerFilter,
    sort: { field: LedgerSortField; dir: 'asc' | 'desc' },
    offset: number,
    limit: number,
  ): LedgerRow[] {
    const column = SORT_COLUMNS[sort.field];
    const asc = sort.dir === 'asc';
    if (offset < this.paging.directOffset) {
      const walk = this.ledgerWhere(profileId, filter, 'walk');
      const dir = asc ? 'ASC' : 'DESC';
      const rows = this.db
        .prepare(`SELECT * FROM ledger WHERE ${walk.sql} ORDER BY ${column} ${dir}, value ${dir} LIMIT ? OFFSET ?`)
        .all(...walk.params, limit, offset) as unknown as LedgerDbRow[];
      return rows.map(toLedgerRow);
    }
    // The whole ledger's size is known, so both directions share the ascending anchors: a descending page is
    // the ascending rows counted from the end, turned round. A filter's anchors run its own direction.
    const turn = !asc && isUnfiltered(filter);
    const total = turn ? this.ledgerSize(profileId) : 0;
    const from = turn ? Math.max(0, total - offset - limit) : offset;
    const count = turn ? total - offset - from : limit;
    if (count <= 0) return [];
    const statements = new Map<string, StatementSync>();
    const list = this.anchorList(profileId, filter, column, asc || turn);
    const spot = this.locate(list, from, statements);
    if (!spot) return [];
    // The skip to the page's first row reads index entries only; then the page's rows are read whole.
    const first = this.skipFrom(profileId, filter, column, asc || turn, spot.at, true, spot.skip, statements);
    if (!('key' in first)) return [];
    const rows = this.walkFrom(profileId, filter, column, asc || turn, first, true, count);
    if (turn) rows.reverse();
    return rows.map(toLedgerRow);
  }

  /** A filter's anchor list in one direction, most recently used last; a new one holds only the start of the order. */
  private anchorList(profileId: string, filter: LedgerFilter, column: string, asc: boolean): Anchors {
    const unfiltered = isUnfiltered(filter);
    const lists = unfiltered ? this.orderAnchors : this.anchorCache;
    const id = JSON.stringify([profileId, column, asc, textTerm(filter), filter.status ?? null, filter.premium ?? null]);
    let list = lists.get(id);
    if (list) lists.delete(id);
    else {
      if (lists.size >= (unfiltered ? ORDER_ANCHOR_CACHE : ANCHOR_CACHE)) {
        const oldest = lists.keys().next().value;
        if (oldest !== undefined) lists.delete(oldest);
      }
      list = { profileId, filter: { ...filter }, column, asc, keys: [null], order: [null], counts: [], complete: false };
    }
    lists.set(id, list);
    return list;
  }

  /**
   * The block holding place `offset` of a list's order and how far into it: blocks are counted (found) up to
   * that depth if they were not yet, and a block grown past SPLIT_BLOCK steps is cut first. Null past the end.
   */
  private locate(list: Anchors, offset: number, statements: Map<string, StatementSync>): { at: LedgerCursor | null; skip: number } | null {
    let base = 0;
    let j = 0;
    for (;;) {
      const n = list.counts[j];
      if (n === undefined) {
        if (list.complete) return null;
        this.extendAnchors(list, statements);
        continue;
      }
      if (offset < base + n) {
        if (n > SPLIT_BLOCK * this.paging.anchorStep && this.splitBlock(list, j, statements)) continue;
        return { at: list.keys[j] ?? null, skip: offset - base };
      }
      base += n;
      j++;
    }
  }

  /** Counts one more block at the end of a list: the next anchorStep rows from its last key, or all there are left. */
  private extendAnchors(list: Anchors, statements: Map<string, StatementSync>): void {
    const step = this.paging.anchorStep;
    const next = this.skipFrom(list.profileId, list.filter, list.column, list.asc, list.keys.at(-1) ?? null, true, step, statements);
    if ('key' in next) {
      list.keys.push(next);
      list.order.push(orderedPlace(next));
      list.counts.push(step);
    } else {
      list.counts.push(next.rows);
      list.complete = true;
    }
  }

  /** Cuts block j (grown by writes) into blocks of anchorStep rows; false when it cannot be cut. */
  private splitBlock(list: Anchors, j: number, statements: Map<string, StatementSync>): boolean {
    const step = this.paging.anchorStep;
    let left = list.counts[j] ?? 0;
    let at = list.keys[j] ?? null;
    const keys: LedgerCursor[] = [];
    while (left > step) {
      const next = this.skipFrom(list.profileId, list.filter, list.column, list.asc, at, true, step, statements);
      if (!('key' in next)) break;
      keys.push(next);
      at = next;
      left -= step;
    }
    if (keys.length === 0) return false;
    list.keys.splice(j + 1, 0, ...keys);
    list.order.splice(j + 1, 0, ...keys.map(orderedPlace));
    list.counts.splice(j, 1, ...keys.map(() => step), left);
    return true;
  }

  /**
   * Finds the anchors of every sort of a profile's whole ledger, and cuts blocks grown by writes, for at most
   * about `budgetMs`, in one read transaction; true while work is left. With `background`, main runs it in
   * slices after the ledger is read, so the first deep page of a sort needs no pass over its index.
   */
  prepareLedger(profileId: string, budgetMs: number): boolean {
    return this.read(() => {
      this.ledgerCaches();
      const end = performance.now() + budgetMs;
      const statements = new Map<string, StatementSync>();
      const limit = SPLIT_BLOCK * this.paging.anchorStep;
      // At least one block per call, whatever the budget.
      let worked = false;
      const over = (): boolean => worked && performance.now() >= end;
      // Every sort of the whole ledger, then the status and premium filters' lists already in use (most recent
      // first): a jump deeper into one of those finds its blocks counted.
      const lists = [...new Set(Object.values(SORT_COLUMNS))].map((column) => this.anchorList(profileId, {}, column, true));
      lists.push(...[...this.anchorCache.values()].reverse().filter((l) => l.profileId === profileId && !l.filter.text));
      for (const list of lists) {
        while (!list.complete) {
          if (over()) return true;
          this.extendAnchors(list, statements);
          worked = true;
        }
        for (let j = 0; j < list.counts.length; j++) {
          if ((list.counts[j] ?? 0) <= limit) continue;
          if (over()) return true;
          this.splitBlock(list, j, statements);
          worked = true;
        }
      }
      return false;
    });
  }

  /**
   * The ledger writer committed (main hears it from the writer's progress): with `background`, the anchors
   * follow its changes in a slice soon after, rather than in the next page asked for, and the pages that read
   * go back once they have (releaseMemory).
   */
  ledgerWritten(): void {
    if (this.warmProfile === null) return;
    this.releaseAfterWarm = this.background;
    this.warmSoon(this.warmProfile);
  }

  /** With `background`: prepares the profile's anchors in slices, starting a little after the ledger was read. */
  private warmSoon(profileId: string): void {
    if (!this.background) return;
    this.warmProfile = profileId;
    clearTimeout(this.warmTimer);
    const slice = (): void => {
      this.warmTimer = undefined;
      const profile = this.warmProfile;
      if (profile === null || !this.db.isOpen) return;
      let more = false;
      try {
        more = this.prepareLedger(profile, WARM_SLICE_MS);
      } catch (error) {
        // Busy or closing: the next read tries again; a jump finds what it needs itself meanwhile.
        console.error("keydesk: preparing the ledger's deep pages failed:", error);
      }
      if (more) this.warmTimer = setTimeout(slice, WARM_GAP_MS).unref();
      else if (this.releaseAfterWarm) {
        // Following the writer's commits read their rows and the sort indexes around them (after 100,000 keys,
        // the whole page cache, 32 MiB): those pages go back once the anchors are up to date, as the writer's
        // own commits' pages went back before it. A page asked for next reads the few it needs again (from the
        // OS's file cache); a warming after a page read keeps the cache, so pages stay warm between keystrokes.
        this.releaseAfterWarm = false;
        this.releaseMemory();
      }
    };
    this.warmTimer = setTimeout(slice, WARM_DELAY_MS).unref();
  }

  /**
   * The row `skip` places on from `at` (from the start of the order when null; with `at` itself as place 0
   * when `inclusive`) among the rows the filter passes, in the direction asked, reading the sort index with
   * LIMIT 1 OFFSET; the NULL-key boundary, when crossed, takes its share of the skip. With fewer rows than
   * that, how many there are. `statements` keeps the compiled ones across calls.
   */
  private skipFrom(
    profileId: string,
    filter: LedgerFilter,
    column: string,
    asc: boolean,
    at: LedgerCursor | null,
    inclusive: boolean,
    skip: number,
    statements: Map<string, StatementSync>,
  ): LedgerCursor | { rows: number } {
    const statement = (sql: string): StatementSync => {
      let st = statements.get(sql);
      if (!st) statements.set(sql, (st = this.db.prepare(sql)));
      return st;
    };
    const walk = this.ledgerWhere(profileId, filter, 'walk');
    let left = skip;
    for (const seg of cursorSegments(column, 'value', asc, at, inclusive)) {
      const sql = `FROM ledger WHERE ${walk.sql} AND ${seg.sql}`;
      const row = statement(`SELECT ${column} AS k, value ${sql} ORDER BY ${seg.order} LIMIT 1 OFFSET ?`).get(
        ...walk.params,
        ...seg.params,
        left,
      ) as { k: string | null; value: string } | undefined;
      if (row) return { key: row.k, value: row.value };
      left -= (statement(`SELECT count(*) AS n FROM (SELECT 1 ${sql} LIMIT ?)`).get(...walk.params, ...seg.params, left) as { n: number })
        .n;
    }
    return { rows: skip - left };
  }

  /**
   * Up to `limit` rows the filter passes from a row's place along the sort index, in the direction asked,
   * with the row itself when `inclusive`. NULL sort keys come first ascending and last descending, as ORDER BY
   * puts them; each side of that boundary is its own index range.
   */
  private walkFrom(
    profileId: string,
    filter: LedgerFilter,
    column: string,
    asc: boolean,
    at: LedgerCursor,
    inclusive: boolean,
    limit: number,
  ): LedgerDbRow[] {
    const walk = this.ledgerWhere(profileId, filter, 'walk');
    const rows: LedgerDbRow[] = [];
    for (const seg of cursorSegments(column, 'value', asc, at, inclusive)) {
      if (rows.length >= limit) break;
      const got = this.db
        .prepare(`SELECT * FROM ledger WHERE ${walk.sql} AND ${seg.sql} ORDER BY ${seg.order} LIMIT ?`)
        .all(...walk.params, ...seg.params, limit - rows.length) as unknown as LedgerDbRow[];
      rows.push(...got);
    }
    return rows;
  }

  /**
   * The page next to a row already shown: seek paging on (sort key, value), so a page costs about its own size
   * at any depth, where OFFSET costs the depth. `after` continues in the sort's direction from the cursor row,
   * `before` goes back from it (rows still come in the sort's order). A filter with few matches (up to the
   * count's cap) takes the page from its matches, as queryLedger's sparse plan does; others walk the sort index.
   */
  seekLedger(
    profileId: string,
    filter: LedgerFilter,
    sort: { field: LedgerSortField; dir: 'asc' | 'desc' },
    cursor: { after: LedgerCursor } | { before: LedgerCursor },
    limit: number,
  ): LedgerRow[] {
    const rows = this.read(() => this.seekLedgerNow(profileId, filter, sort, cursor, limit));
    this.warmSoon(profileId);
    return rows;
  }

  private seekLedgerNow(
    profileId: string,
    filter: LedgerFilter,
    sort: { field: LedgerSortField; dir: 'asc' | 'desc' },
    cursor: { after: LedgerCursor } | { before: LedgerCursor },
    limit: number,
  ): LedgerRow[] {
    this.ledgerCaches();
    const back = 'before' in cursor;
    const at = 'before' in cursor ? cursor.before : cursor.after;
    // Going back is going forward in the other direction, then turning the rows round.
    const asc = (sort.dir === 'asc') !== back;
    const column = SORT_COLUMNS[sort.field];
    let rows: LedgerDbRow[] | null = null;
    if (!isUnfiltered(filter)) {
      const most = LEDGER_COUNT_CAP + 1;
      const hits = this.hitsSource(profileId, filter, column);
      const segments = cursorSegments('k', 'value', asc, at, false);
      const union = segments.map(
        (s) => `SELECT * FROM (SELECT value, k, ${segments.indexOf(s)} AS seg FROM hits WHERE ${s.sql} ORDER BY ${s.order} LIMIT ?)`,
      );
      const got = this.db
        .prepare(
          `WITH hits AS MATERIALIZED (${hits.sql}),
             page AS MATERIALIZED (SELECT * FROM (${union.join(' UNION ALL ')}) ORDER BY seg, k ${asc ? 'ASC' : 'DESC'}, value ${asc ? 'ASC' : 'DESC'} LIMIT ?)
           SELECT ledger.*, (SELECT count(*) FROM hits) AS total
           FROM page CROSS JOIN ledger ON ledger.profile_id = ? AND ledger.value = page.value
           ORDER BY page.seg, page.k ${asc ? 'ASC' : 'DESC'}, page.value ${asc ? 'ASC' : 'DESC'}`,
        )
        .all(...hits.params, most, ...segments.flatMap((s) => [...s.params, limit]), limit, profileId) as unknown as (LedgerDbRow & {
        total: number;
      })[];
      // No row: either no match past the cursor, or (past the cap) the matches were not all read.
      const found = got[0]?.total ?? this.countLedger(profileId, filter, most);
      if (found < most) rows = got;
    }
    rows ??= this.walkFrom(profileId, filter, column, asc, at, false, limit);
    if (back) rows.reverse();
    return rows.map(toLedgerRow);
  }

  /** How many rows match, or `most` when at least that many do. */
  private countLedger(profileId: string, filter: LedgerFilter, most?: number, targetsOnly = false): number {
    if (most === undefined) {
      const where = targetsOnly ? this.targetWhere(profileId, filter) : this.ledgerWhere(profileId, filter, 'set');
      return (this.db.prepare(`SELECT count(*) AS n FROM ledger WHERE ${where.sql}`).get(...where.params) as { n: number }).n;
    }
    const hits = this.hitsSource(profileId, filter, 'value', targetsOnly);
    return (this.db.prepare(`SELECT count(*) AS n FROM (${hits.sql})`).get(...hits.params, most) as { n: number }).n;
  }

  /**
   * The key values a filter names as a job's targets (targetWhere: known deleted keys left out unless the filter
   * asks for them), at most `max` of them (in key order), and how many there are in all.
   */
  ledgerValues(profileId: string, filter: LedgerFilter, max: number): { values: string[]; total: number } {
    const where = this.targetWhere(profileId, filter);
    const values = (
      this.db.prepare(`SELECT value FROM ledger WHERE ${where.sql} ORDER BY value LIMIT ?`).all(...where.params, max) as { value: string }[]
    ).map((r) => r.value);
    const total =
      values.length < max
        ? values.length
        : (this.db.prepare(`SELECT count(*) AS n FROM ledger WHERE ${where.sql}`).get(...where.params) as { n: number }).n;
    return { values, total };
  }

  /** The rows of the given keys, in the order given; keys the ledger does not hold are left out. */
  *iterateLedgerKeys(profileId: string, values: readonly string[]): Generator<LedgerRow> {
    const rows = this.db
      .prepare(
        'SELECT ledger.* FROM json_each(?) AS j CROSS JOIN ledger ON ledger.profile_id = ? AND ledger.value = j.value ORDER BY j.key',
      )
      .iterate(JSON.stringify(values), profileId);
    for (const row of rows) yield toLedgerRow(row as unknown as LedgerDbRow);
  }

  /** Every row a filter passes, in a sort's order: the order queryLedger pages through (ties by value, same direction). */
  *iterateLedger(profileId: string, filter: LedgerFilter, sort: { field: LedgerSortField; dir: 'asc' | 'desc' }): Generator<LedgerRow> {
    const where = this.ledgerWhere(profileId, filter, 'set');
    const dir = sort.dir === 'asc' ? 'ASC' : 'DESC';
    const order = `${SORT_COLUMNS[sort.field]} ${dir}, value ${dir}`;
    for (const row of this.db.prepare(`SELECT * FROM ledger WHERE ${where.sql} ORDER BY ${order}`).iterate(...where.params)) {
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
    job: Pick<StoredJob, 'id' | 'profileId' | 'action' | 'params' | 'createdAt'>,
    items: { keyValues: readonly string[] } | { filter: LedgerFilter } | { batches: readonly number[] },
  ): number {
    return this.tx(() => {
      this.db
        .prepare(
          "INSERT INTO jobs (id, profile_id, action, params, state, created_at, total, run_at) VALUES (?, ?, ?, ?, 'running', ?, 0, ?)",
        )
        .run(job.id, job.profileId, job.action, job.params, job.createdAt, job.createdAt);
      if ('filter' in items) {
        const where = this.targetWhere(job.profileId, items.filter);
        this.db
          .prepare(
            `INSERT INTO job_items (job_id, seq, target, size, state) SELECT ?, row_number() OVER (ORDER BY value), value, 1, 'pending' FROM ledger WHERE ${where.sql}`,
          )
          .run(job.id, ...where.params);
      } else if ('batches' in items) {
        this.db
          .prepare(
            "INSERT INTO job_items (job_id, seq, target, size, state) SELECT ?, key + 1, 'batch ' || (key + 1), value, 'pending' FROM json_each(?)",
          )
          .run(job.id, JSON.stringify(items.batches));
      } else {
        // A value given twice is one item: sending it twice would extend twice.
        this.db
          .prepare(
            "INSERT INTO job_items (job_id, seq, target, size, state) SELECT ?, min(key) + 1, value, 1, 'pending' FROM json_each(?) GROUP BY value",
          )
          .run(job.id, JSON.stringify(items.keyValues));
      }
      const { total } = this.db.prepare('SELECT coalesce(sum(size), 0) AS total FROM job_items WHERE job_id = ?').get(job.id) as {
        total: number;
      };
      this.db.prepare('UPDATE jobs SET total = ? WHERE id = ?').run(total, job.id);
      return total;
    });
  }

  job(jobId: string): StoredJob | null {
    const row = this.db.prepare(`${JOB_SELECT} WHERE id = ?`).get(jobId) as JobRow | undefined;
    return row ? storedJob(row) : null;
  }

  /**
   * A profile's most recent jobs, newest first, and every job still running or interrupted however old: a window
   * reloaded after many finished jobs must still find the one it can follow, cancel or resume.
   */
  jobs(profileId: string, limit = 20): StoredJob[] {
    const sql = `${JOB_SELECT} WHERE profile_id = ?1 AND (state IN ('running', 'interrupted')
      OR id IN (SELECT id FROM jobs WHERE profile_id = ?1 ORDER BY created_at DESC, id LIMIT ?2)) ORDER BY created_at DESC, id`;
    return (this.db.prepare(sql).all(profileId, limit) as unknown as JobRow[]).map(storedJob);
  }

  /**
   * Forgets a job: its row, its items and the list of keys it made, in one transaction. The keys themselves stay
   * in the ledger and every request stays in the audit log; only the job's own record goes.
   */
  forgetJob(jobId: string): boolean {
    return this.tx(() => {
      this.db.prepare('DELETE FROM job_items WHERE job_id = ?').run(jobId);
      this.db.prepare('DELETE FROM job_keys WHERE job_id = ?').run(jobId);
      return Number(this.db.prepare('DELETE FROM jobs WHERE id = ?').run(jobId).changes) > 0;
    });
  }

  /** How many jobs a profile has (jobs_by_profile answers it from the index). */
  jobTotal(profileId: string): number {
    return (this.db.prepare('SELECT count(*) AS n FROM jobs WHERE profile_id = ?').get(profileId) as { n: number }).n;
  }

  /** A job's state as this process saw it: an end given here is one seen (end_unseen 0). */
  setJobState(jobId: string, state: JobState, reason: string | null, finishedAt: string | null): void {
    this.db
      .prepare('UPDATE jobs SET state = ?, reason = ?, finished_at = ?, end_unseen = 0 WHERE id = ?')
      .run(state, reason, finishedAt, jobId);
  }

  /** A run of the job begins `at`: running, no end, and no answer of this run written yet. */
  beginJobRun(jobId: string, at: string): void {
    this.db
      .prepare(
        "UPDATE jobs SET state = 'running', reason = NULL, finished_at = NULL, run_at = ?, answered_at = NULL, end_unseen = 0 WHERE id = ?",
      )
      .run(at, jobId);
  }

  /** Keys per item state (a generate batch counts for its size). */
  jobCounts(jobId: string): Record<JobItemState, number> {
    const counts: Record<JobItemState, number> = { pending: 0, sent: 0, done: 0, failed: 0, unknown: 0 };
    for (const r of this.db.prepare('SELECT state, sum(size) AS n FROM job_items WHERE job_id = ? GROUP BY state').all(jobId) as {
      state: JobItemState | 'retry';
      n: number;
    }[]) {
      counts[r.state === 'retry' ? 'unknown' : r.state] += r.n;
    }
    return counts;
  }

  /**
   * Marks up to `max` pending items sent, lowest first, and returns them: committed before any of them goes on
   * the wire, so a crash from here on leaves them "sent", which the next start turns into "unknown". `retry`: a
   * run the user said yes to sending the unknown items again; once no item is pending, those ('retry') are
   * claimed too, their earlier code and message kept on the row.
   */
  claimJobItems(jobId: string, max: number, retry = false): ClaimedJobItem[] {
    const rows = this.statement(
      `UPDATE job_items SET state = 'sent' WHERE job_id = ?1 AND seq IN
         (SELECT seq FROM job_items WHERE job_id = ?1 AND state = 'pending' ORDER BY seq LIMIT ?2)
       RETURNING seq, target, size`,
    ).all(jobId, max) as { seq: number; target: string; size: number }[];
    const claimed: ClaimedJobItem[] = rows.map((r) => ({ seq: r.seq, target: r.target, size: r.size }));
    if (retry && claimed.length < max) {
      const again = this.statement(
        `UPDATE job_items SET state = 'sent' WHERE job_id = ?1 AND seq IN
           (SELECT seq FROM job_items WHERE job_id = ?1 AND state = 'retry' ORDER BY seq LIMIT ?2)
         RETURNING seq, target, size, code, message`,
      ).all(jobId, max - claimed.length) as { seq: number; target: string; size: number; code: string | null; message: string | null }[];
      for (const r of again) claimed.push({ seq: r.seq, target: r.target, size: r.size, retry: { code: r.code, message: r.message } });
    }
    return claimed.sort((a, b) => a.seq - b.seq);
  }

  /**
   * One step of a running job, in one transaction: what settled since the last step (item outcomes, the keys
   * they changed, their audit entries), then up to `claim` more items marked sent. One commit per step, not
   * one per item: at hundreds of items a second the commits are what cost.
   */
  jobStep(
    batch: SettleBatch | null,
    claim: { jobId: string; max: number; retry?: boolean } | null,
    at = new Date().toISOString(),
  ): ClaimedJobItem[] {
    if (batch === null && claim === null) return [];
    return this.tx(() => {
      if (batch !== null) this.settleInTx(batch, at);
      return claim === null || claim.max <= 0 ? [] : this.claimJobItems(claim.jobId, claim.max, claim.retry === true);
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
    const setItem = this.statement('UPDATE job_items SET state = ?, code = ?, message = ? WHERE job_id = ? AND seq = ?');
    for (const i of batch.items) setItem.run(i.state, i.code, i.message, batch.jobId, i.seq);
    // The job was at work now: a crash from here on ends it no earlier than this (interruptRunningJobs). An item put
    // back unsent (a 429, the network) is no outcome.
    if (batch.items.some((i) => i.state !== 'pending' && i.state !== 'retry')) {
      this.statement('UPDATE jobs SET answered_at = ? WHERE id = ?').run(at, batch.jobId);
    }
    if (batch.seenKeys.length > 0) this.upsertKeys(batch.profileId, batch.seenKeys, at, true);
    for (const k of batch.reportedKeys ?? []) this.recordReportedFields(batch.profileId, k, at);
    if (batch.hwidCleared) this.markHwidCleared(batch.profileId, batch.hwidCleared, at);
    if (batch.expiryStale) this.markStale(batch.profileId, 'expiry', batch.expiryStale, at);
    if (batch.hwidStale) this.markStale(batch.profileId, 'hwid', batch.hwidStale, at);
    if (batch.statusStale) this.markStale(batch.profileId, 'status', batch.statusStale, at);
    if (batch.deletedValues.length > 0) {
      this.ledgerCaches(true);
      this.statement(
        `UPDATE ledger SET status = 'deleted', ${clearedBy('status_stale', '?4')}, last_seen_at = ?1 WHERE profile_id = ?2 AND value IN (SELECT value FROM json_each(?3))`,
      ).run(at, batch.profileId, JSON.stringify(batch.deletedValues), markMs(at));
    }
    // Straight from each answer's JSON list: 100,000 values never become 100,000 strings in main's heap.
    for (const values of batch.generatedValues ?? []) {
      this.statement('INSERT OR IGNORE INTO job_keys (job_id, value) SELECT ?, value FROM json_each(?)').run(batch.jobId, values);
    }
    if (batch.audit.length > 0) {
      this.statement(
        `INSERT INTO audit (at, profile_id, profile_name, action, target, outcome, message)
         SELECT ?, value ->> '$[0]', value ->> '$[1]', value ->> '$[2]', value ->> '$[3]', value ->> '$[4]', value ->> '$[5]' FROM json_each(?)`,
      ).run(at, JSON.stringify(batch.audit.map((e) => [e.profileId, e.profileName, e.action, e.target, e.outcome, e.message])));
    }
  }

  /**
   * The user chose to send a job's unknown items again: they become 'retry' (code and message kept), which only
   * the run given that yes claims. Returns how many keys they cover.
   */
  approveUnknownJobItems(jobId: string): number {
    const r = this.db.prepare("UPDATE job_items SET state = 'retry' WHERE job_id = ? AND state = 'unknown' RETURNING size").all(jobId) as {
      size: number;
    }[];
    return r.reduce((n, i) => n + i.size, 0);
  }

  /**
   * A run of a job has ended: its answers not written yet (`batches`: groups another writer's lock held back),
   * then its state, in one transaction with what the items left say. Unknown items a yes to send again was for and
   * that it did not send are unknown as before; an item still sent had its answer lost (it could not be written)
   * and is unknown: it may have taken effect.
   */
  endJobRun(
    jobId: string,
    state: JobState,
    reason: string | null,
    finishedAt: string,
    batches: readonly SettleBatch[] = [],
    at = finishedAt,
  ): void {
    this.tx(() => {
      this.endRunInTx(jobId, state, reason, finishedAt, batches, at);
    });
  }

  private endRunInTx(
    jobId: string,
    state: JobState,
    reason: string | null,
    finishedAt: string,
    batches: readonly SettleBatch[],
    at: string,
  ): void {
    for (const batch of batches) this.settleInTx(batch, at);
    this.db.prepare("UPDATE job_items SET state = 'unknown' WHERE job_id = ? AND state = 'retry'").run(jobId);
    this.markSentStale('SELECT id FROM jobs WHERE id = ?', jobId);
    this.db
      .prepare("UPDATE job_items SET state = 'unknown', code = 'OUTCOME_UNKNOWN', message = ? WHERE job_id = ? AND state = 'sent'")
      .run('Sent; Keydesk could not record its answer. It may or may not have taken effect.', jobId);
    this.setJobState(jobId, state, reason, finishedAt);
  }

  /**
   * After a crash or quit (no job runs in this process any more): every job still marked running is
   * interrupted, and every item still marked sent, whatever its job's state, is unknown (it may or may not have
   * taken effect). Returns the ids of the jobs it interrupted. `at`: when they stopped, as this process saw it (a
   * quit). Without it (the next start, after a crash or a kill, or a quit that could not record this) no one saw
   * them stop: each ends at the last moment it was known at work (its run's last answers written, else the run's
   * start, else its creation), marked as such (end_unseen), never at the time of this call, which may be days later.
   * A job whose answers were written after `at` (a quit's grace) ends at its last answers, never before them.
   * `ends`: runs that ended (cancelled, finished, stopped) in this process and whose end another writer's lock held
   * back: each is written as it was shown, in the same transaction, where its job is still running in the file (or
   * whatever its state, with `anyState`).
   */
  interruptRunningJobs(
    reason: string,
    at?: string,
    ends: readonly RunEndRecord[] = [],
    sent: ReadonlyMap<string, SendLogRecord> = new Map(),
  ): string[] {
    return this.tx(() => {
      // Items claimed that the run's send log says never went out: back as they were before the claim (send-log.ts).
      for (const [jobId, log] of sent) this.returnUnsent(jobId, log);
      const running = this.db.prepare('SELECT state FROM jobs WHERE id = ?');
      for (const end of ends) {
        const state = (running.get(end.jobId) as { state: string } | undefined)?.state;
        if (state === undefined || (state !== 'running' && end.anyState !== true)) continue;
        this.endRunInTx(end.jobId, end.state, end.reason, end.finishedAt, end.batches, end.finishedAt);
      }
      this.markSentStale('SELECT id FROM jobs');
      this.db
        .prepare(
          "UPDATE job_items SET state = 'unknown', code = 'OUTCOME_UNKNOWN', message = ? WHERE job_id IN (SELECT id FROM jobs) AND state = 'sent'",
        )
        .run('Sent when Keydesk stopped; no answer was recorded. It may or may not have taken effect.');
      // A yes to send unknown items again was for the run that stopped: those it did not send stay unknown.
      this.db.prepare("UPDATE job_items SET state = 'unknown' WHERE job_id IN (SELECT id FROM jobs) AND state = 'retry'").run();
      const ids = (this.db.prepare("SELECT id FROM jobs WHERE state = 'running'").all() as { id: string }[]).map((r) => r.id);
      if (at !== undefined) {
        this.db
          .prepare(
            "UPDATE jobs SET state = 'interrupted', reason = ?1, finished_at = max(?2, coalesce(answered_at, ?2)), end_unseen = 0 WHERE state = 'running'",
          )
          .run(reason, at);
      } else {
        this.db
          .prepare(
            "UPDATE jobs SET state = 'interrupted', reason = ?, finished_at = coalesce(answered_at, run_at, created_at), end_unseen = 1 WHERE state = 'running'",
          )
          .run(reason);
      }
      return ids;
    });
  }

  /**
   * A job's items claimed (sent in the file) whose numbers are not in `sentSeqs`, the run's send log: they never
   * went on the wire. A pending item claimed goes back to pending; one of the unknown items the user chose to send
   * again (claimed with its earlier code kept) back to 'retry', which the caller's next step makes unknown again.
   */
  private returnUnsent(jobId: string, log: SendLogRecord): void {
    // Only the log of the run that claimed them: another run's (an older one left behind) says nothing of these.
    this.db
      .prepare(
        `UPDATE job_items SET state = CASE WHEN code IS NULL THEN 'pending' ELSE 'retry' END
         WHERE job_id = ?1 AND state = 'sent' AND seq NOT IN (SELECT value FROM json_each(?2))
           AND ?3 IS NOT NULL AND ?3 = (SELECT run_at FROM jobs WHERE id = ?1)`,
      )
      .run(jobId, JSON.stringify([...log.sent]), log.run);
  }

  /**
   * Before a job runs again: items an earlier run of it claimed and left so (its end could not be recorded) are
   * settled first, by that run's send log where it has one: never sent, back as before the claim; sent, or not
   * known, unknown (they may have taken effect: never sent again unasked). A yes to send unknown items again was
   * for that run: those it did not send are unknown again. So the new run's log starts over nothing it must know.
   */
  settleLeftoverClaims(jobId: string, log: SendLogRecord | null): void {
    this.tx(() => {
      if (log !== null) this.returnUnsent(jobId, log);
      this.markSentStale('SELECT id FROM jobs WHERE id = ?', jobId);
      this.db
        .prepare("UPDATE job_items SET state = 'unknown', code = 'OUTCOME_UNKNOWN', message = ? WHERE job_id = ? AND state = 'sent'")
        .run('Sent by an earlier run of this job; no answer was recorded. It may or may not have taken effect.', jobId);
      this.db.prepare("UPDATE job_items SET state = 'unknown' WHERE job_id = ? AND state = 'retry'").run(jobId);
    });
  }

  /**
   * A job's items, of one state if given; `noted`: only those with words attached (a done item says why).
   * `unsent`: the items its run has claimed and not sent yet (JobService.claimedUnsent), shown as before the claim.
   */
  jobItems(
    jobId: string,
    state: JobItemState | undefined,
    offset: number,
    limit: number,
    noted = false,
    unsent: readonly number[] = [],
  ): { items: JobItem[]; total: number } {
    // No run's list (a job not running, or one with nothing claimed ahead): the file's states as they are, counted from
    // the index alone (a million items in milliseconds); with one, the state shown needs each claimed item's row.
    const shown = unsent.length === 0 ? ITEM_STATE : shownItemState('?1');
    const clauses = ['job_id = ?2'];
    const params: SQLInputValue[] = [JSON.stringify(unsent), jobId];
    if (state !== undefined && unsent.length === 0) {
      clauses.push(state === 'unknown' ? "state IN ('unknown', 'retry')" : 'state = ?3');
      if (state !== 'unknown') params.push(state);
    } else if (state !== undefined) {
      // The states an item shown as `state` can have in the file (an index on them), then the state shown.
      const stored = {
        pending: "'pending', 'sent'",
        sent: "'sent'",
        unknown: "'unknown', 'retry', 'sent'",
        done: "'done'",
        failed: "'failed'",
      }[state];
      clauses.push(`state IN (${stored})`, `${shown} = ?3`);
      params.push(state);
    }
    if (noted) clauses.push('message IS NOT NULL');
    const where = clauses.join(' AND ');
    const total = (this.db.prepare(`SELECT count(*) AS n FROM job_items WHERE ${where}`).get(...params) as { n: number }).n;
    const items = this.db
      .prepare(`SELECT seq, target, size, ${shown} AS state, code, message FROM job_items WHERE ${where} ORDER BY seq LIMIT ? OFFSET ?`)
      .all(...params, limit, offset) as unknown as JobItem[];
    return { items: items.map((i) => ({ ...i })), total };
  }

  *iterateJobItems(jobId: string): Generator<JobItem> {
    for (const i of this.db
      .prepare(`SELECT seq, target, size, ${ITEM_STATE} AS state, code, message FROM job_items WHERE job_id = ? ORDER BY seq`)
      .iterate(jobId))
      yield { ...(i as unknown as JobItem) };
  }

  /**
   * Every item of a job with its key's ledger row where there is one (a bulk job's keys): the expiry the ledger
   * holds now, and whether that is the one read back after the job's extend.
   */
  *iterateJobResults(
    jobId: string,
    profileId: string,
    unsent: readonly number[] = [],
  ): Generator<JobItem & { expiresAt: string | null; expiryStale: boolean }> {
    const rows = this.db
      .prepare(
        `SELECT i.seq, i.target, i.size, ${shownItemState('?3', 'i.')} AS state, i.code, i.message, l.expires_at AS expiresAt, coalesce(l.expiry_stale, 0) AS stale
         FROM job_items AS i LEFT JOIN ledger AS l ON l.profile_id = ?1 AND l.value = i.target WHERE i.job_id = ?2 ORDER BY i.seq`,
      )
      .iterate(profileId, jobId, JSON.stringify(unsent));
    for (const r of rows) {
      const { stale, ...item } = r as unknown as JobItem & { expiresAt: string | null; stale: number };
      yield { ...item, expiryStale: stale !== 0 };
    }
  }

  /** How many of a generate job's keys the ledger holds: the rows iterateJobKeys gives. */
  jobKeyCount(jobId: string, profileId: string): number {
    return (
      this.db
        .prepare(
          'SELECT count(*) AS n FROM job_keys CROSS JOIN ledger ON ledger.profile_id = ? AND ledger.value = job_keys.value WHERE job_keys.job_id = ?',
        )
        .get(profileId, jobId) as { n: number }
    ).n;
  }

  /** A generate job's keys as the ledger has them now, in key order. */
  *iterateJobKeys(jobId: string, profileId: string): Generator<LedgerRow> {
    const rows = this.db
      .prepare(
        'SELECT ledger.* FROM job_keys CROSS JOIN ledger ON ledger.profile_id = ? AND ledger.value = job_keys.value WHERE job_keys.job_id = ? ORDER BY job_keys.value',
      )
      .iterate(profileId, jobId);
    for (const row of rows) yield toLedgerRow(row as unknown as LedgerDbRow);
  }

  bulkCeiling(profileId: string): number | null {
    const row = this.db.prepare('SELECT bulk_ceiling AS c FROM profile_settings WHERE profile_id = ?').get(profileId) as
      { c: number | null } | undefined;
    return row?.c ?? null;
  }

  setBulkCeiling(profileId: string, ceiling: number | null): void {
    this.db
      .prepare(
        'INSERT INTO profile_settings (profile_id, bulk_ceiling) VALUES (?, ?) ON CONFLICT (profile_id) DO UPDATE SET bulk_ceiling = excluded.bulk_ceiling',
      )
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

  /** The newest sample held for the profile (one index seek), or null when it has none. */
  latestSample(profileId: string): { count: number; at: string } | null {
    const row = this.db.prepare('SELECT at, count FROM samples WHERE profile_id = ? ORDER BY at DESC LIMIT 1').get(profileId) as
      { at: string; count: number } | undefined;
    return row ? { count: row.count, at: row.at } : null;
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
      const rows = this.db.prepare('SELECT at, count FROM samples WHERE profile_id = ? AND at >= ? ORDER BY at').all(profileId, from) as {
        at: string;
        count: number;
      }[];
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
          windows.push({
            profileId: id,
            from: new Date(from).toISOString(),
            to: new Date(Math.min(from + DAY_MS, end)).toISOString(),
            prefix: tier.prefix,
          });
        }
      }
    }
    return windows;
  }

  /** Keeps, in the window's time slots, only the profile's samples with the lowest and highest count. */
  thinSampleWindow(w: SampleWindow): number {
    const range = 'profile_id = ? AND at >= ? AND at < ?';
    // SQLite fills a bare column (rowid) from the row that holds the min() or max() of its group.
    const keep = (agg: 'min' | 'max') =>
      `SELECT id FROM (SELECT rowid AS id, ${agg}(count) FROM samples WHERE ${range} GROUP BY substr(at, 1, ${w.prefix}))`;
    const args = [w.profileId, w.from, w.to];
    const r = this.db
      .prepare(`DELETE FROM samples WHERE ${range} AND rowid NOT IN (${keep('min')} UNION ${keep('max')})`)
      .run(...args, ...args, ...args);
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
      .run(
        entry.at ?? new Date().toISOString(),
        entry.profileId,
        entry.profileName,
        entry.action,
        entry.target,
        entry.outcome,
        entry.message,
      );
  }

  private auditWhere(filter: AuditFilter): { sql: string; params: SQLInputValue[] } {
    const clauses = ['1 = 1'];
    const params: SQLInputValue[] = [];
    if (filter.text) {
      // The text finds an operation by the words Activity shows for it ("Push an execution", or a part of them),
      // by its id ("keys.delete"), and by its target, message or service.
      const term = filter.text.toLowerCase();
      const named = Object.entries({ ...RETIRED_WORDS, ...OPERATION_WORDS })
        .filter(([, words]) => words.toLowerCase().includes(term))
        .map(([id]) => id);
      const byWords = named.length > 0 ? ` OR action IN (${named.map(() => '?').join(', ')})` : '';
      clauses.push(
        `(action LIKE ? ESCAPE '\\' OR target LIKE ? ESCAPE '\\' OR message LIKE ? ESCAPE '\\' OR profile_name LIKE ? ESCAPE '\\'${byWords})`,
      );
      const t = likeTerm(filter.text);
      params.push(t, t, t, t, ...named);
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
    const entries = this.db
      .prepare(`${AUDIT_SELECT} WHERE ${where.sql} ORDER BY id DESC LIMIT ? OFFSET ?`)
      .all(...where.params, limit, offset) as unknown as AuditEntry[];
    return { entries: entries.map((e) => ({ ...e })), total };
  }

  /** Every entry the filter matches, newest first, one at a time (for exports). */
  *iterateAudit(filter: AuditFilter): Generator<AuditEntry> {
    const where = this.auditWhere(filter);
    for (const e of this.db.prepare(`${AUDIT_SELECT} WHERE ${where.sql} ORDER BY id DESC`).iterate(...where.params))
      yield { ...(e as unknown as AuditEntry) };
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
    ...(r.expiry_stale !== 0 ? { expiryStale: true } : {}),
    ...(r.hwid_stale !== 0 ? { hwidStale: true } : {}),
    ...(r.status_stale !== 0 ? { statusStale: true } : {}),
  };
}
