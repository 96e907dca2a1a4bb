// The customer columns every key export carries, and the book's export: each customer with their keys, as CSV rows
// (one per key, or one for a customer without keys) or as JSON (each customer with a list of their keys).
import type { LedgerRow } from '../../shared/domain.ts';
import type { LocalDb } from '../store/local-db.ts';

/** A key export's customer columns: who holds the key ('' for no one). */
export interface CustomerColumns {
  customer: string;
  customerEmail: string;
  customerDiscordId: string;
}
export const CUSTOMER_COLUMNS: readonly (keyof CustomerColumns)[] = ['customer', 'customerEmail', 'customerDiscordId'];
/** Keys whose customers are read at once. */
const BATCH = 500;

/** `rows` with who holds each key, read from the book a batch at a time. */
export function* withCustomers<T extends { value: string }>(
  db: LocalDb,
  profileId: string,
  rows: Iterable<T>,
): Generator<T & CustomerColumns> {
  let batch: T[] = [];
  const flush = function* (): Generator<T & CustomerColumns> {
    const held = db.customersOfKeys(
      profileId,
      batch.map((r) => r.value),
    );
    for (const r of batch) {
      const c = held.get(r.value);
      yield { ...r, customer: c?.name ?? '', customerEmail: c?.email ?? '', customerDiscordId: c?.discordId ?? '' };
    }
    batch = [];
  };
  for (const row of rows) {
    batch.push(row);
    if (batch.length >= BATCH) yield* flush();
  }
  yield* flush();
}

/** A key in the book: its status 'unrecorded' when linked and not in the ledger. */
type BookKey = Pick<LedgerRow, 'value' | 'expiresAt' | 'hwid' | 'note'> & { status: LedgerRow['status'] | 'unrecorded' };
export interface BookRow {
  customerId: number;
  name: string;
  email: string;
  discordId: string;
  reference: string;
  tags: string;
  customerNote: string;
  key: string;
  status: string;
  expiresAt: string | null;
  hwid: string | null;
  keyNote: string;
}
export const BOOK_COLUMNS: readonly (keyof BookRow)[] = [
  'customerId',
  'name',
  'email',
  'discordId',
  'reference',
  'tags',
  'customerNote',
  'key',
  'status',
  'expiresAt',
  'hwid',
  'keyNote',
];

/** A customer's keys as the ledger holds them; a key linked and not in the ledger is listed as 'unrecorded'. */
function keysOf(db: LocalDb, profileId: string, id: number): BookKey[] {
  const values = db.customerKeys(profileId, id);
  const rows = new Map([...db.iterateLedgerKeys(profileId, values)].map((r) => [r.value, r]));
  return values.map((value) => {
    const r = rows.get(value);
    return r
      ? { value, status: r.status, expiresAt: r.expiresAt, hwid: r.hwid, note: r.note }
      : { value, status: 'unrecorded', expiresAt: null, hwid: null, note: '' };
  });
}

/** The book as CSV rows: one per key of each customer, and one with no key for a customer who has none. */
export function* bookRows(db: LocalDb, profileId: string): Generator<BookRow> {
  for (const c of db.iterateCustomers(profileId)) {
    const head = {
      customerId: c.id,
      name: c.name,
      email: c.email,
      discordId: c.discordId,
      reference: c.reference,
      tags: c.tags.join(';'),
      customerNote: c.note,
    };
    const keys = keysOf(db, profileId, c.id);
    if (keys.length === 0) yield { ...head, key: '', status: '', expiresAt: null, hwid: null, keyNote: '' };
    for (const k of keys) yield { ...head, key: k.value, status: k.status, expiresAt: k.expiresAt, hwid: k.hwid, keyNote: k.note };
  }
}

/** The book as JSON: each customer with the list of their keys. */
export function* bookEntries(db: LocalDb, profileId: string): Generator<object> {
  for (const c of db.iterateCustomers(profileId)) yield { ...c, keys: keysOf(db, profileId, c.id) };
}
