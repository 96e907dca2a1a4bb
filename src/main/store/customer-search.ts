// The customer search as SQL: the profile's customers whose search text holds every word, read through the
// customers_text trigram index when a word has a rare trigram, else by one pass over the profile's customers.
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';

/**
 * A trigram held by fewer customers than this (of any profile), and than a quarter of them all, names candidates;
 * when no probed trigram is, a pass over the profile's customers costs less than reading that many by id.
 */
const RARE = 5_000;
/** Trigrams of each word whose customers are counted (up to that cap): the first, the last and some between. */
const PROBES = 4;
/** A trigram this rare is taken alone, without probing the rest. */
const FEW = 50;
/** Rare trigrams whose customers are intersected, at most: each one more cuts the candidates read by id. */
const INTERSECTED = 3;

export interface CustomerSearch {
  /** `customers`, or `customers NOT INDEXED` for a pass in table order (which reads each page once). */
  from: string;
  where: string;
  params: SQLInputValue[];
  /** The words are tested on every customer of the profile (no rare trigram named candidates). */
  scan: boolean;
}

/** A string as one quoted FTS5 token: nothing in it is read as query syntax. */
const ftsString = (text: string): string => `"${text.replaceAll('"', '""')}"`;

/** Up to `n` items evenly spread over `items`, first and last included. */
function spread<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  const last = items.length - 1;
  return Array.from({ length: n }, (_, j) => items[Math.round((j * last) / (n - 1))] as T);
}

/** The distinct trigrams of a word, in order (as the trigram tokenizer counts characters: code points). */
function trigrams(word: string): string[] {
  const chars = Array.from(word);
  const out = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) out.add(chars.slice(i, i + 3).join(''));
  return [...out];
}

/** The rarest of the words' probed trigrams that are rare (see RARE), rarest first (none: a pass). */
function rareTrigrams(db: DatabaseSync, words: readonly string[]): string[] {
  const { n: all } = db.prepare('SELECT count(*) AS n FROM customers').get() as { n: number };
  const most = Math.min(RARE, Math.ceil(all / 4));
  const count = db.prepare('SELECT count(*) AS n FROM (SELECT rowid FROM customers_text WHERE customers_text MATCH ? LIMIT ?)');
  const rare: { trigram: string; n: number }[] = [];
  for (const word of words) {
    for (const trigram of spread(trigrams(word), PROBES)) {
      const { n } = count.get(ftsString(trigram), most) as { n: number };
      if (n <= FEW) return [trigram];
      if (n < most) rare.push({ trigram, n });
    }
  }
  return rare
    .sort((a, b) => a.n - b.n)
    .slice(0, INTERSECTED)
    .map((r) => r.trigram);
}

/**
 * The profile's customers whose search text (customers.ts: lower-cased name, email, Discord ID, reference and tags)
 * holds every word of `search`, as a WHERE over `from`; every customer of the profile for ''.
 */
export function customerSearch(db: DatabaseSync, profileId: string, search: string): CustomerSearch {
  const words = search
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
  if (words.length === 0) return { from: 'customers', where: 'profile_id = ?', params: [profileId], scan: false };
  const tests = words.map(() => 'instr(search, ?) > 0');
  const rare = rareTrigrams(db, words);
  if (rare.length === 0)
    return { from: 'customers NOT INDEXED', where: ['profile_id = ?', ...tests].join(' AND '), params: [profileId, ...words], scan: true };
  // The unary + keeps SQLite off the profile's name index: the candidates are few, read by id.
  return {
    from: 'customers',
    where: ['id IN (SELECT rowid FROM customers_text WHERE customers_text MATCH ?)', '+profile_id = ?', ...tests].join(' AND '),
    params: [rare.map(ftsString).join(' AND '), profileId, ...words],
    scan: false,
  };
}
