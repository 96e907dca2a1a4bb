// A ledger filter as SQL: the WHERE clauses, the text index's candidates for a term, the matches as a set, and the
// counts; and when what was worked out from the ledger must be worked out again (another connection wrote).
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { ParsedInput } from '../../shared/contract.ts';
import type { LedgerRow, LedgerSortField } from '../../shared/domain.ts';
import { addDays, endOfUtcDay, LEDGER_COUNT_CAP } from '../../shared/rules.ts';
import type { Connection } from './connection.ts';
import { customerSearch } from './customer-search.ts';

/** A ledger filter as the contract's ledger.query checks it. */
export type LedgerFilter = ParsedInput<'ledger.query'>['filter'];
/** A row's place in a sort: its sort key (null sorts first ascending) and its value, the unique tiebreaker. */
export interface LedgerCursor {
  key: string | null;
  value: string;
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
export const PAGING: LedgerPaging = {
  directOffset: 2_000,
  anchorStep: 1_024,
  logCatchUp: 16_384,
  rareTrigram: LEDGER_COUNT_CAP,
  knownTrigram: 40_000,
};

/**
 * Trigrams a term of 3 characters or more is looked up by, at most. Every row holding the term holds them all;
 * more of them narrow the candidates less than each one costs to read.
 */
const TERM_TRIGRAMS = 6;
/** Trigrams of a longer term whose rows are counted to find its rarest (see LedgerPaging). */
const TERM_PROBES = 8;
/**
 * A term of 1 or 2 characters starting more distinct trigrams than this is common (a letter of the key
 * alphabet starts about a thousand): a scan finds the count's cap of matches within its first rows.
 */
const SHORT_TERM_TRIGRAMS = 200;

export const SORT_COLUMNS: Record<LedgerSortField, string> = {
  createdAt: 'created_at',
  expiresAt: 'expires_at',
  value: 'value',
  note: 'note',
  status: 'status',
  lastSeenAt: 'last_seen_at',
};

/** A filter's text as the stored search text holds it (lower-cased), or null for no text. */
export const textTerm = (filter: LedgerFilter): string | null => (filter.text ? filter.text.toLowerCase() : null);

/** The filter names an expiry or creation range, unactivated days keys (see datesWhere), or Overview's span. */
export const hasDates = (filter: LedgerFilter): boolean =>
  filter.expired !== undefined ||
  filter.expiresWithin !== undefined ||
  filter.expiresFrom !== undefined ||
  filter.expiresTo !== undefined ||
  filter.createdFrom !== undefined ||
  filter.createdTo !== undefined ||
  filter.unactivated !== undefined ||
  filter.span !== undefined;

/** The filter names a customer's keys (by id, or customers by search words): read from those keys, never by anchors. */
export const byCustomer = (filter: LedgerFilter): boolean => filter.customerId !== undefined || !!filter.customer?.trim();

export const isUnfiltered = (filter: LedgerFilter): boolean =>
  !filter.text && !filter.status && filter.premium === undefined && !hasDates(filter) && !byCustomer(filter);

/**
 * "Now" for the expiry filters that are relative to it, to the minute: every statement of one query, and the
 * anchors found for it, see the same bounds (an expiry may show as not expired for up to a minute).
 */
export const filterNow = (): number => Math.floor(Date.now() / 60_000) * 60_000;

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * A filter's date clauses over `t`-prefixed columns (`plus`: '+' keeps SQLite off their indexes, except `sorted`'s:
 * a range on the sort column seeks along the index the walk reads). Stored instants are ISO 8601 UTC, so they
 * compare as text; a day's bounds are its first and last millisecond.
 */
export function datesWhere(
  filter: LedgerFilter,
  t: string,
  plus: string,
  now = filterNow(),
  sorted?: string,
): { clauses: string[]; params: SQLInputValue[] } {
  const clauses: string[] = [];
  const params: SQLInputValue[] = [];
  const at = (column: string, op: string, value: string) => {
    clauses.push(`${column === sorted ? '' : plus}${t}${column} ${op} ?`);
    params.push(value);
  };
  if (filter.expired) at('expires_at', '<', iso(now));
  if (filter.expiresWithin !== undefined) {
    at('expires_at', '>=', iso(now));
    at('expires_at', '<=', iso(addDays(now, filter.expiresWithin)));
  }
  if (filter.expiresFrom !== undefined) at('expires_at', '>=', filter.expiresFrom);
  if (filter.expiresTo !== undefined) at('expires_at', '<=', iso(endOfUtcDay(filter.expiresTo)));
  if (filter.createdFrom !== undefined) at('created_at', '>=', filter.createdFrom);
  if (filter.createdTo !== undefined) at('created_at', '<=', iso(endOfUtcDay(filter.createdTo)));
  if (filter.unactivated) clauses.push(`${t}days_key IS NOT NULL AND ${sorted === 'expires_at' ? '' : plus}${t}expires_at IS NULL`);
  return { clauses, params };
}

/** A string as one quoted FTS5 token: nothing in it is read as query syntax. */
const ftsString = (text: string): string => `"${text.replaceAll('"', '""')}"`;

/** Up to `n` items evenly spread over `items`, first and last included. */
function spread<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  const last = items.length - 1;
  return Array.from({ length: n }, (_, j) => items[Math.round((j * last) / (n - 1))] as T);
}

export class LedgerFilters {
  private readonly conn: Connection;
  private readonly db: DatabaseSync;
  private readonly paging: LedgerPaging;
  /** Called when the ledger changed since it was last read: the anchors follow ledger_log when next used (ledger-anchors.ts). */
  private readonly logMoved: () => void;
  /** Per term: its ledger_text query (null: scanned), and at most how many rows that query names, when known. */
  private readonly textMatches = new Map<string, { match: string | null; rows: number | null }>();
  private dataVersion = -1;
  /** This connection wrote to the ledger since it last read it (data_version tells only of other connections' writes). */
  private wroteLedger = false;

  constructor(conn: Connection, paging: LedgerPaging, logMoved: () => void) {
    this.conn = conn;
    this.db = conn.db;
    this.paging = paging;
    this.logMoved = logMoved;
  }

  /**
   * Brings what was worked out from the ledger up to date when it may have changed: after this connection's own
   * writes (`wrote`: noted, and done at the next read), and when another connection (a writer thread, another
   * process) committed, which PRAGMA data_version tells. Text matches are dropped; the anchors are told to follow
   * ledger_log when next used.
   */
  ledgerCaches(wrote = false): void {
    if (wrote) {
      this.wroteLedger = true;
      return;
    }
    const { data_version: version } = this.conn.statement('PRAGMA data_version').get() as { data_version: number };
    if (!this.wroteLedger && version === this.dataVersion) return;
    this.wroteLedger = false;
    this.dataVersion = version;
    this.textMatches.clear();
    this.logMoved();
  }

  /**
   * A filter as SQL over `ledger` (its columns prefixed with `t`, a table alias and a dot, or nothing):
   * - 'walk' tests each row read along a sort index: the unary + keeps SQLite off the status index, which would
   *   change the order rows are read in, and the text is a substring test of the row's own search text;
   * - 'set' names every match at once (a job's targets, an export, a count): a term of 3 characters or more is
   *   looked up in ledger_text (its candidates then tested, which also keeps the exact substring meaning), and
   *   status and premium may use their index.
   * `sorted`: in 'walk' mode, the sort column, whose own date range narrows the index walk (it keeps the order).
   */
  ledgerWhere(
    profileId: string,
    filter: LedgerFilter,
    mode: 'walk' | 'set',
    t = '',
    sorted?: string,
  ): { sql: string; params: SQLInputValue[] } {
    const clauses = [`${t}profile_id = ?`];
    const params: SQLInputValue[] = [profileId];
    const term = textTerm(filter);
    const plus = mode === 'walk' || term !== null ? '+' : '';
    if (term !== null) {
      const match = mode === 'set' ? this.textMatch(term) : null;
      if (match !== null) {
        // A row's value and note are entry id, its HWID entry -id; rows not yet indexed are all candidates.
        clauses.push(
          `(${t}id IN (SELECT abs(rowid) FROM ledger_text WHERE ledger_text MATCH ?) OR ${t}id > (SELECT upto FROM ledger_indexed))`,
        );
        params.push(match);
      }
      clauses.push(`instr(${t}search, ?) > 0`);
      params.push(term);
    }
    if (filter.status) {
      clauses.push(`${plus}${t}status = ?`);
      params.push(filter.status);
    }
    const dates = datesWhere(filter, t, plus, undefined, mode === 'walk' ? sorted : undefined);
    clauses.push(...dates.clauses);
    params.push(...dates.params);
    if (filter.premium !== undefined) {
      if (!filter.status && mode === 'set' && term === null && !hasDates(filter)) {
        // Premium alone, collected as a set: named with every status this profile's keys have (ledger_counts),
        // so SQLite reads the status index, which holds is_premium, where otherwise it reads a row per entry
        // to test it (a premium key in seven: 70,000 rows to count 10,000).
        clauses.push(`${t}status IN (SELECT status FROM ledger_counts WHERE profile_id = ? AND n > 0)`);
        params.push(profileId);
      }
      clauses.push(`${plus}${t}is_premium = ?`);
      params.push(filter.premium ? 1 : 0);
    }
    if (filter.span) this.spanWhere(filter, mode, t, clauses, params, sorted);
    if (filter.customerId !== undefined) {
      clauses.push(`${t}value IN (SELECT value FROM customer_keys WHERE profile_id = ? AND customer_id = ?)`);
      params.push(profileId, filter.customerId);
    }
    if (filter.customer?.trim()) {
      // The keys of the customers the words find (customers.ts): read from their links, never by scanning keys.
      const found = customerSearch(this.db, profileId, filter.customer);
      clauses.push(
        `${t}value IN (SELECT value FROM customer_keys WHERE customer_id IN (SELECT id FROM ${found.from} WHERE ${found.where}))`,
      );
      params.push(...found.params);
    }
    return { sql: clauses.join(' AND '), params };
  }

  /**
   * Overview's span (an expiry or activation window) as clauses: in 'set' mode over its own date index, in 'walk'
   * mode as a test on each row.
   */
  private spanWhere(
    filter: LedgerFilter,
    mode: 'walk' | 'set',
    t: string,
    clauses: string[],
    params: SQLInputValue[],
    sorted?: string,
  ): void {
    const span = filter.span;
    if (!span) return;
    const name = span.of === 'expiresAt' ? 'expires_at' : 'activated_at';
    const column = `${mode === 'walk' && name !== sorted ? '+' : ''}${t}${name}`;
    // Every timestamp sorts after '': an open start still leaves keys with none out.
    clauses.push(`${column} >= ?`);
    params.push(span.from ?? '');
    if (span.to !== undefined) {
      clauses.push(`${column} < ?`);
      params.push(span.to);
    }
    if (span.of === 'expiresAt' && !filter.status) clauses.push(`${mode === 'walk' ? '+' : ''}${t}status <> 'deleted'`);
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
  textLookup(term: string): { match: string | null; rows: number | null } {
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
      const probe = this.conn.statement('SELECT count(*) AS n FROM (SELECT 1 FROM ledger_text WHERE ledger_text MATCH ? LIMIT ?)');
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
      rows = chosen[0] === undefined ? null : chosen[0].n + this.unindexed();
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
  exactCandidates(profileId: string, filter: LedgerFilter): string | null {
    const term = textTerm(filter);
    if (
      term === null ||
      filter.status ||
      filter.premium !== undefined ||
      hasDates(filter) ||
      byCustomer(filter) ||
      term.includes('\n') ||
      Array.from(term).length > 3
    )
      return null;
    return this.onlyProfile(profileId) && this.unindexed() === 0 ? this.textMatch(term) : null;
  }

  /** At most how many rows the text index does not hold yet (ledger_indexed): a text filter scans them. */
  unindexed(): number {
    const row = this.conn.statement('SELECT (SELECT coalesce(max(id), 0) FROM ledger) - upto AS n FROM ledger_indexed').get() as {
      n: number;
    };
    return Math.max(0, row.n);
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
  hitsSource(profileId: string, filter: LedgerFilter, column: string, targetsOnly = false): { sql: string; params: SQLInputValue[] } {
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
    // A key is found once, with no DISTINCT (a sort of every match): by its value and note entry (id) when they
    // hold the term, else by its HWID entry (-id). Then the rows not yet indexed, read by rowid, tested one by one.
    const inValueOrNote = `instr(substr(l.search, 1, length(l.search) - l.hwid_chars), ?)`;
    return {
      sql: `SELECT l.value AS value, l.${column} AS k, l.status AS st FROM ledger_text CROSS JOIN ledger AS l ON l.id = ledger_text.rowid
            WHERE ledger_text MATCH ? AND ledger_text.rowid > 0 AND ${where.sql}${targets('l.')} AND (l.hwid_chars = 0 OR ${inValueOrNote} > 0)
            UNION ALL SELECT l.value, l.${column}, l.status FROM ledger_text CROSS JOIN ledger AS l ON l.id = -ledger_text.rowid
            WHERE ledger_text MATCH ? AND ledger_text.rowid < 0 AND ${where.sql}${targets('l.')} AND ${inValueOrNote} = 0
            UNION ALL SELECT l.value, l.${column}, l.status FROM ledger AS l NOT INDEXED
            WHERE l.id > (SELECT upto FROM ledger_indexed) AND ${where.sql}${targets('l.')} LIMIT ?`,
      params: [match, ...where.params, term, match, ...where.params, term, ...where.params],
    };
  }

  /**
   * The keys a filter names as a job's targets, and the ones "select all matching" counts: as the ledger shows
   * them, less those it knows are deleted unless the filter asks for deleted keys (sending them again would only
   * fail, or extend nothing).
   */
  targetWhere(profileId: string, filter: LedgerFilter): { sql: string; params: SQLInputValue[] } {
    const where = this.ledgerWhere(profileId, filter, 'set');
    return filter.status ? where : { sql: `${where.sql} AND +status <> 'deleted'`, params: where.params };
  }

  /** How many rows match, or `most` when at least that many do. */
  countLedger(profileId: string, filter: LedgerFilter, most?: number, targetsOnly = false): number {
    if (most === undefined) {
      const where = targetsOnly ? this.targetWhere(profileId, filter) : this.ledgerWhere(profileId, filter, 'set');
      return (this.db.prepare(`SELECT count(*) AS n FROM ledger WHERE ${where.sql}`).get(...where.params) as { n: number }).n;
    }
    const hits = this.hitsSource(profileId, filter, 'value', targetsOnly);
    return (this.db.prepare(`SELECT count(*) AS n FROM (${hits.sql})`).get(...hits.params, most) as { n: number }).n;
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
}
