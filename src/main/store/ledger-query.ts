// Ledger queries: a page of the ledger with its counts (capped), the page next to a row shown, and every row or
// key value a filter names. Which plan reads a page is chosen here; the SQL of filters and anchors is theirs.
import type { DatabaseSync } from 'node:sqlite';
import type { LedgerRow, LedgerSortField } from '../../shared/domain.ts';
import { LEDGER_COUNT_CAP } from '../../shared/rules.ts';
import type { Connection } from './connection.ts';
import { cursorSegments, type LedgerAnchors } from './ledger-anchors.ts';
import {
  byCustomer,
  hasDates,
  isUnfiltered,
  SORT_COLUMNS,
  textTerm,
  type LedgerCursor,
  type LedgerFilter,
  type LedgerFilters,
} from './ledger-filter.ts';
import { toLedgerRow, type LedgerDbRow } from './rows.ts';

/** A term's candidates are all read for its page when they are at most this many times the count's cap. */
const ALL_CANDIDATES = 2;

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

export class LedgerQueries {
  private readonly conn: Connection;
  private readonly db: DatabaseSync;
  private readonly filters: LedgerFilters;
  private readonly anchors: LedgerAnchors;

  constructor(conn: Connection, filters: LedgerFilters, anchors: LedgerAnchors) {
    this.conn = conn;
    this.db = conn.db;
    this.filters = filters;
    this.anchors = anchors;
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
    return this.conn.read(() => this.queryLedgerNow(profileId, filter, sort, offset, limit, count));
  }

  private queryLedgerNow(
    profileId: string,
    filter: LedgerFilter,
    sort: { field: LedgerSortField; dir: 'asc' | 'desc' },
    offset: number,
    limit: number,
    count: { exact?: boolean; cap?: number },
  ): LedgerPage {
    this.filters.ledgerCaches();
    const dir = sort.dir === 'asc' ? 'ASC' : 'DESC';
    const column = SORT_COLUMNS[sort.field];
    const size = this.filters.ledgerSize(profileId);
    const cap = count.cap ?? LEDGER_COUNT_CAP;
    if (isUnfiltered(filter)) {
      return {
        rows: this.anchors.pageAt(profileId, filter, sort, offset, limit),
        total: size,
        totalCapped: false,
        targets: size - this.filters.ledgerSize(profileId, 'deleted'),
        targetsCapped: false,
      };
    }
    if (byCustomer(filter)) return this.customerPage(profileId, filter, sort, offset, limit);
    // A status alone is counted exactly, as ledger_counts keeps it (one row read): never "more than" the cap.
    if (filter.status && !filter.text && filter.premium === undefined && !hasDates(filter)) {
      const n = this.filters.ledgerSize(profileId, filter.status);
      return {
        rows: this.anchors.pageAt(profileId, filter, sort, offset, limit),
        total: n,
        totalCapped: false,
        targets: n,
        targetsCapped: false,
      };
    }
    // One pass collects the matches' keys and sort values, stopping at the cap's next match (all of them with
    // `exact` while under half the ledger). Under the cap, they are every match: the count, and the page
    // taken from them. Past it, the page is read along the sort index.
    const most = count.exact === true ? Math.ceil(size / 2) : cap + 1;
    const term = textTerm(filter);
    const lookup = term === null ? null : this.filters.textLookup(term);
    const exact = count.exact === true ? null : this.filters.exactCandidates(profileId, filter);
    // A term whose index candidates are known to be few (at most ALL_CANDIDATES times the cap) has them all read:
    // the count and the page come from them even past the cap, where a page walked along the sort index would
    // read a row per candidate for each match it finds, sparse as they are.
    const known =
      count.exact !== true && lookup?.rows !== null && lookup?.rows !== undefined && lookup.rows <= ALL_CANDIDATES * cap
        ? lookup.rows + 1
        : 0;
    // Counting the first matches sorts nothing, where collecting them for the page sorts them all (ten times the
    // cost). Status and premium are in the status index: counting reads no row. A common short term (scanned)
    // reads rows in table order, each page once; a term with many candidates reads one row per match. Past the
    // cap, that count is all the page needs.
    if (count.exact !== true && exact === null && (lookup === null || lookup.match === null || known === 0)) {
      const first = this.filters.hitsSource(profileId, filter, 'value');
      const c = this.db.prepare(`SELECT count(*) AS n, total(st <> 'deleted') AS t FROM (${first.sql})`).get(...first.params, most) as {
        n: number;
        t: number;
      };
      if (c.n >= most) {
        const targets = filter.status || c.t > cap ? cap + 1 : this.filters.countLedger(profileId, filter, cap + 1, true);
        return {
          rows: this.anchors.pageAt(profileId, filter, sort, offset, limit),
          total: cap,
          totalCapped: true,
          targets: Math.min(targets, cap),
          targetsCapped: targets > cap,
        };
      }
    }
    // A term whose index candidates are all matches (see exactCandidates), in a ledger holding one profile:
    // counting its first candidates reads the index only. Past the cap, the page is read along the sort index.
    if (exact !== null) {
      const deleted = this.filters.ledgerSize(profileId, 'deleted');
      const n = (
        this.db
          .prepare('SELECT count(*) AS n FROM (SELECT DISTINCT abs(rowid) FROM ledger_text WHERE ledger_text MATCH ? LIMIT ?)')
          .get(exact, most + deleted) as { n: number }
      ).n;
      if (n >= most) {
        // At most `deleted` of them are deleted keys: past the cap by that many, the targets are past it too.
        const targets = n >= most + deleted ? cap + 1 : this.filters.countLedger(profileId, filter, cap + 1, true);
        return {
          rows: this.anchors.pageAt(profileId, filter, sort, offset, limit),
          total: cap,
          totalCapped: true,
          targets: Math.min(targets, cap),
          targetsCapped: targets > cap,
        };
      }
    }
    const reach = Math.max(most, known);
    const hits = this.filters.hitsSource(profileId, filter, column);
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
    const found = rows[0]?.total ?? (offset === 0 ? 0 : this.filters.countLedger(profileId, filter, reach));
    if (found < reach) {
      // Every match was read: the page is theirs, and the counts exact (said "more than the cap" past it).
      const targets = filter.status
        ? found
        : (rows[0]?.targets ?? (found === 0 ? 0 : this.filters.countLedger(profileId, filter, reach, true)));
      if (count.exact === true) return { rows: rows.map(toLedgerRow), total: found, totalCapped: false, targets, targetsCapped: false };
      return {
        rows: rows.map(toLedgerRow),
        total: Math.min(found, cap),
        totalCapped: found > cap,
        targets: Math.min(targets, cap),
        targetsCapped: targets > cap,
      };
    }
    const page = this.anchors.pageAt(profileId, filter, sort, offset, limit);
    if (count.exact === true) {
      const total = this.filters.countLedger(profileId, filter);
      return {
        rows: page,
        total,
        totalCapped: false,
        targets: filter.status ? total : this.filters.countLedger(profileId, filter, undefined, true),
        targetsCapped: false,
      };
    }
    // When none of the first cap + 1 matches is deleted, there are more targets than the cap: no second pass.
    const targets = filter.status || (rows[0]?.targets ?? 0) > cap ? cap + 1 : this.filters.countLedger(profileId, filter, cap + 1, true);
    return { rows: page, total: cap, totalCapped: true, targets: Math.min(targets, cap), targetsCapped: targets > cap };
  }

  /**
   * A page of the keys of the customers a filter names, from all of them: a customer holds few keys next to the
   * ledger, and no sort index's anchors know who holds a key. Counts are exact.
   */
  private customerPage(
    profileId: string,
    filter: LedgerFilter,
    sort: { field: LedgerSortField; dir: 'asc' | 'desc' },
    offset: number,
    limit: number,
  ): LedgerPage {
    const dir = sort.dir === 'asc' ? 'ASC' : 'DESC';
    const hits = this.filters.hitsSource(profileId, filter, SORT_COLUMNS[sort.field]);
    const rows = this.db
      .prepare(
        `WITH hits AS MATERIALIZED (${hits.sql}),
           page AS MATERIALIZED (SELECT value, k FROM hits ORDER BY k ${dir}, value ${dir} LIMIT ? OFFSET ?)
         SELECT ledger.*, (SELECT count(*) FROM hits) AS total, (SELECT count(*) FROM hits WHERE st <> 'deleted') AS targets
         FROM page CROSS JOIN ledger ON ledger.profile_id = ? AND ledger.value = page.value
         ORDER BY page.k ${dir}, page.value ${dir}`,
      )
      .all(...hits.params, -1, limit, offset, profileId) as unknown as (LedgerDbRow & { total: number; targets: number })[];
    const total = rows[0]?.total ?? this.filters.countLedger(profileId, filter);
    const targets = filter.status ? total : (rows[0]?.targets ?? this.filters.countLedger(profileId, filter, undefined, true));
    return { rows: rows.map(toLedgerRow), total, totalCapped: false, targets, targetsCapped: false };
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
    return this.conn.read(() => this.seekLedgerNow(profileId, filter, sort, cursor, limit));
  }

  private seekLedgerNow(
    profileId: string,
    filter: LedgerFilter,
    sort: { field: LedgerSortField; dir: 'asc' | 'desc' },
    cursor: { after: LedgerCursor } | { before: LedgerCursor },
    limit: number,
  ): LedgerRow[] {
    this.filters.ledgerCaches();
    const back = 'before' in cursor;
    const at = 'before' in cursor ? cursor.before : cursor.after;
    // Going back is going forward in the other direction, then turning the rows round.
    const asc = (sort.dir === 'asc') !== back;
    const column = SORT_COLUMNS[sort.field];
    let rows: LedgerDbRow[] | null = null;
    if (!isUnfiltered(filter)) {
      // A customer's keys are all read (anchors follow no customer); others stop past the count's cap.
      const most = byCustomer(filter) ? -1 : LEDGER_COUNT_CAP + 1;
      const hits = this.filters.hitsSource(profileId, filter, column);
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
      const found = got[0]?.total ?? this.filters.countLedger(profileId, filter, most);
      if (most < 0 || found < most) rows = got;
    }
    rows ??= this.anchors.walkFrom(profileId, filter, column, asc, at, false, limit);
    if (back) rows.reverse();
    return rows.map(toLedgerRow);
  }

  /**
   * The key values a filter names as a job's targets (targetWhere: known deleted keys left out unless the filter
   * asks for them), at most `max` of them (in key order), and how many there are in all.
   */
  ledgerValues(profileId: string, filter: LedgerFilter, max: number): { values: string[]; total: number } {
    const where = this.filters.targetWhere(profileId, filter);
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
    const where = this.filters.ledgerWhere(profileId, filter, 'set');
    const dir = sort.dir === 'asc' ? 'ASC' : 'DESC';
    const order = `${SORT_COLUMNS[sort.field]} ${dir}, value ${dir}`;
    for (const row of this.db.prepare(`SELECT * FROM ledger WHERE ${where.sql} ORDER BY ${order}`).iterate(...where.params)) {
      yield toLedgerRow(row as unknown as LedgerDbRow);
    }
  }
}
