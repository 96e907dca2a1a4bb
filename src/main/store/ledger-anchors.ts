// Ledger paging at any depth: per sort and filter, anchors every paging.anchorStep rows, so a deep page skips
// at most one block; the anchors follow writes through ledger_log, and can be found ahead of need (prepareLedger).
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { LedgerRow, LedgerSortField } from '../../shared/domain.ts';
import type { Connection } from './connection.ts';
import {
  datesWhere,
  hasDates,
  isUnfiltered,
  SORT_COLUMNS,
  textTerm,
  type LedgerCursor,
  type LedgerFilter,
  type LedgerFilters,
  type LedgerPaging,
} from './ledger-filter.ts';
import { toLedgerRow, type LedgerDbRow } from './rows.ts';

/** The sort columns whose index the ledger writer dropped for a large batch (DEFERRABLE_INDEXES), not yet built again. */
const SORT_INDEXES_DROPPED = `SELECT column1 AS sorted FROM (VALUES ('expires_at', 'ledger_expires'), ('note', 'ledger_note'), ('status', 'ledger_status'))
  WHERE column2 NOT IN (SELECT name FROM sqlite_schema WHERE type = 'index')`;

/** Filtered anchor lists kept at once (one per profile, filter, sort column and direction): about 1,000 small pairs at 1,000,000 rows. */
const ANCHOR_CACHE = 6;
/** Unfiltered anchor lists kept at once: every sort column of the last two profiles (a descending page uses the ascending list). */
const ORDER_ANCHOR_CACHE = 12;
/** A block grown past this many anchor steps (rows written into one stretch of the order) is cut again. */
const SPLIT_BLOCK = 4;

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

/**
 * A place in a sort as SQL conditions over a sort key column `k` and the value `v` (the tiebreaker): the rows
 * from `at` on in the direction asked (with `at` itself when `inclusive`; null: from the start), as one or two
 * ranges read in turn.
 * NULL keys come first ascending and last descending, as ORDER BY puts them.
 */
export function cursorSegments(
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

/**
 * A filter whose anchors follow ledger_log: no text (the log holds no search text) and no dates (bounds relative
 * to now move, and the log holds no days term). Other filters' lists are dropped when the ledger changes.
 */
const followsLog = (filter: LedgerFilter): boolean => !filter.text && !hasDates(filter);

/** Whether a row passes a filter that follows the log (status and premium). */
const passes = (filter: LedgerFilter, row: PlacedRow): boolean =>
  (!filter.status || row.status === filter.status) && (filter.premium === undefined || (row.is_premium === 1) === filter.premium);

export class LedgerAnchors {
  private readonly conn: Connection;
  private readonly db: DatabaseSync;
  private readonly filters: LedgerFilters;
  private readonly paging: LedgerPaging;
  /** Anchor lists, most recently used last: of filters (ANCHOR_CACHE), and of the whole ledger (ORDER_ANCHOR_CACHE). */
  private readonly anchorCache = new Map<string, Anchors>();
  private readonly orderAnchors = new Map<string, Anchors>();
  /** The last ledger_log entry the anchors count (-1: none read yet). */
  private logSeq = -1;
  /** The ledger changed since the anchors last followed the log: they follow it when next used (catchUp). */
  private behind = true;

  constructor(conn: Connection, filters: LedgerFilters, paging: LedgerPaging) {
    this.conn = conn;
    this.db = conn.db;
    this.filters = filters;
    this.paging = paging;
  }

  /**
   * The page at `offset` of the rows a filter passes, read along the sort column's index. Near the start of its
   * order, a plain OFFSET; deeper, from the nearest anchor before it (see anchorsTo), so no page skips more than
   * paging.anchorStep rows (more only in a block that grew since, up to SPLIT_BLOCK steps).
   */
  pageAt(
    profileId: string,
    filter: LedgerFilter,
    sort: { field: LedgerSortField; dir: 'asc' | 'desc' },
    offset: number,
    limit: number,
  ): LedgerRow[] {
    const column = SORT_COLUMNS[sort.field];
    const asc = sort.dir === 'asc';
    if (offset < this.paging.directOffset) {
      const walk = this.filters.ledgerWhere(profileId, filter, 'walk', '', column);
      const dir = asc ? 'ASC' : 'DESC';
      const rows = this.db
        .prepare(`SELECT * FROM ledger WHERE ${walk.sql} ORDER BY ${column} ${dir}, value ${dir} LIMIT ? OFFSET ?`)
        .all(...walk.params, limit, offset) as unknown as LedgerDbRow[];
      return rows.map(toLedgerRow);
    }
    // The whole ledger's size is known, so both directions share the ascending anchors: a descending page is
    // the ascending rows counted from the end, turned round. A filter's anchors run its own direction.
    const turn = !asc && isUnfiltered(filter);
    const total = turn ? this.filters.ledgerSize(profileId) : 0;
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
    this.catchUp();
    const unfiltered = isUnfiltered(filter);
    const lists = unfiltered ? this.orderAnchors : this.anchorCache;
    // A date filter's list is for one set of bounds: those relative to now move with it (filterNow).
    const dates = hasDates(filter) ? [datesWhere(filter, '', '').params, filter.unactivated ?? null] : null;
    const id = JSON.stringify([
      profileId,
      column,
      asc,
      textTerm(filter),
      filter.status ?? null,
      filter.premium ?? null,
      dates,
      filter.span ?? null,
    ]);
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
    return this.conn.read(() => {
      this.filters.ledgerCaches();
      this.catchUp();
      const end = performance.now() + budgetMs;
      const statements = new Map<string, StatementSync>();
      const limit = SPLIT_BLOCK * this.paging.anchorStep;
      // At least one block per call, whatever the budget.
      let worked = false;
      const over = (): boolean => worked && performance.now() >= end;
      // Every sort of the whole ledger, then the status and premium filters' lists already in use (most recent
      // first): a jump deeper into one of those finds its blocks counted.
      // A sort whose index the writer dropped for a large batch (schema.ts) waits for it: without, each step sorts the ledger.
      const dropped = new Set((this.conn.statement(SORT_INDEXES_DROPPED).all() as { sorted: string }[]).map((r) => r.sorted));
      const columns = [...new Set(Object.values(SORT_COLUMNS))].filter((column) => !dropped.has(column));
      const lists = columns.map((column) => this.anchorList(profileId, {}, column, true));
      lists.push(...[...this.anchorCache.values()].reverse().filter((l) => l.profileId === profileId && followsLog(l.filter)));
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
    const walk = this.filters.ledgerWhere(profileId, filter, 'walk', '', column);
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
  walkFrom(
    profileId: string,
    filter: LedgerFilter,
    column: string,
    asc: boolean,
    at: LedgerCursor,
    inclusive: boolean,
    limit: number,
  ): LedgerDbRow[] {
    const walk = this.filters.ledgerWhere(profileId, filter, 'walk', '', column);
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

  private anchorLists(): Map<string, Anchors>[] {
    return [this.orderAnchors, this.anchorCache];
  }

  /**
   * The ledger changed (LedgerFilters.ledgerCaches): the anchors follow the log only when next used, so a reader
   * polling the first page during a large generate never follows each commit; far behind, they are found again.
   */
  logMoved(): void {
    this.behind = true;
  }

  /**
   * Follows the log if the ledger changed since the anchors last did. Its statements read as of one moment even
   * without the caller's read transaction: otherwise a commit between them would move some rows twice.
   */
  private catchUp(): void {
    if (!this.behind) return;
    this.behind = false;
    this.conn.read(() => {
      this.followLog();
    });
  }

  /**
   * Moves the anchors' row counts by the ledger_log entries since they were last moved: per key changed, -1 in
   * the block of its place before the first of them (none when it was inserted), +1 in the block of its place
   * now (none when it is gone), in each list whose filter it passed or passes. A text filter's lists are
   * dropped (and a date filter's: see followsLog), and so is every list when the log has lost entries they need.
   */
  private followLog(): void {
    const { lo, hi } = this.conn.statement('SELECT min(seq) AS lo, max(seq) AS hi FROM ledger_log').get() as {
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
    const changes = this.conn.statement(`
      SELECT f.profile_id, f.value, f.was, f.note, f.status, f.is_premium, f.expires_at, f.created_at, f.last_seen_at,
        l.value IS NOT NULL AS present, l.note AS now_note, l.status AS now_status, l.is_premium AS now_is_premium,
        l.expires_at AS now_expires_at, l.created_at AS now_created_at, l.last_seen_at AS now_last_seen_at
      FROM (
        SELECT min(seq) AS first, profile_id, value, was, note, status, is_premium, expires_at, created_at, last_seen_at
        FROM ledger_log WHERE seq > ? AND seq <= ? GROUP BY profile_id, value
      ) AS f
      LEFT JOIN ledger AS l ON l.profile_id = f.profile_id AND l.value = f.value
      ORDER BY f.first`);
    // Per profile changed, its lists and whether each still holds (a text or date filter's does not: followsLog).
    const followed = new Map<string, { lists: Map<string, Anchors>; id: string; list: Anchors; kept: boolean }[]>();
    const listsOf = (profileId: string) => {
      let found = followed.get(profileId);
      if (!found) {
        found = [];
        for (const lists of this.anchorLists()) {
          for (const [id, list] of lists) if (list.profileId === profileId) found.push({ lists, id, list, kept: followsLog(list.filter) });
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
}
