// Customer search (src/main/store/customer-search.ts): by part of any field, through the trigram index when a word
// has a rare trigram, else by a pass; the same customers either way, kept as customers change.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { customerSearch } from '../../src/main/store/customer-search.ts';
import { LocalDb } from '../../src/main/store/local-db.ts';
import type { Customer, CustomerChange, CustomerFields } from '../../src/shared/customers.ts';
import { generatedKey, OTHER, PROFILE } from '../support/ledger-model.ts';
import { tempDir } from '../support/temp-dir.ts';

const AT = '2026-11-29T10:00:00.000Z';
const FIRST = ['Ann', 'Bob', 'Zoë', 'Dana "D"', 'Eve'];

let open: LocalDb[] = [];
afterEach(() => {
  for (const db of open) db.close();
  open = [];
});

function fresh(file = join(tempDir('keydesk-customer-search-'), 'keydesk.db')): LocalDb {
  const db = new LocalDb(file);
  open.push(db);
  return db;
}
const change = (db: LocalDb, c: CustomerChange) => db.transaction(() => db.changeCustomers(c));
const fieldsOf = (c: number): CustomerFields => ({
  name: `${FIRST[c % FIRST.length] ?? ''} Buyer${String(c).padStart(4, '0')}`,
  email: c % 7 === 0 ? '' : `buyer${c}@example.com`,
  discordId: c % 3 === 0 ? '' : String(100_000_000_000_000_000n + BigInt(c) * 7_919n),
  reference: `order-${c}`,
  tags: c % 5 === 0 ? ['vip'] : [],
  note: '',
});

/** A book of `n` customers holding two keys each; every customer's text, for a plain scan. */
function book(db: LocalDb, n: number): Customer[] {
  db.recordKeys(
    PROFILE,
    Array.from({ length: n * 2 }, (_, i) => generatedKey(`KD-${String(i).padStart(6, '0')}`, '')),
    AT,
  );
  db.transaction(() => {
    for (let c = 0; c < n; c++) {
      const values = [`KD-${String(c * 2).padStart(6, '0')}`, `KD-${String(c * 2 + 1).padStart(6, '0')}`];
      db.changeCustomers({ op: 'link', profileId: PROFILE, links: [{ customer: { fields: fieldsOf(c) }, values }], at: AT });
    }
  });
  return [...db.iterateCustomers(PROFILE)];
}

const scan = (all: readonly Customer[], term: string): number[] => {
  const words = term.toLowerCase().split(/\s+/).filter(Boolean);
  return all
    .filter((c) => words.every((w) => [c.name, c.email, c.discordId, c.reference, ...c.tags].join('\n').toLowerCase().includes(w)))
    .map((c) => c.id)
    .sort((a, b) => a - b);
};
const found = (db: LocalDb, term: string): number[] => db.matchingCustomerIds(PROFILE, term).sort((a, b) => a - b);

describe('customer search', () => {
  it('finds what a plain scan finds, for rare, common and short words', () => {
    const db = fresh();
    const all = book(db, 3_000);
    const terms = [
      'buyer0123',
      'buyer12@',
      '100000000000015838',
      '15838',
      'ORDER-29',
      'zoë',
      'Zoë buyer01',
      'dana "d"',
      '"d"',
      'ann vip',
      'vip',
      'example.com',
      'buyer',
      'an',
      'b 12',
      'nobody-here',
      '%',
      '_',
    ];
    for (const term of terms) {
      const expected = scan(all, term);
      expect(found(db, term), term).toEqual(expected);
      const page = db.listCustomers(PROFILE, { search: term, limit: 1_000 });
      expect(page.total, term).toBe(expected.length);
      if (expected.length <= 1_000)
        expect(
          page.customers.map((c) => c.id).sort((a, b) => a - b),
          term,
        ).toEqual(expected);
      const keys = db.queryLedger(PROFILE, { customer: term }, { field: 'value', dir: 'asc' }, 0, 10);
      expect(keys.total, term).toBe(expected.length * 2);
    }
  });

  it('reads rare words by the index, common ones by a pass', () => {
    const db = fresh();
    book(db, 3_000);
    const raw = new DatabaseSync(db.file, { readOnly: true });
    try {
      expect(customerSearch(raw, PROFILE, 'buyer0123').scan).toBe(false);
      expect(customerSearch(raw, PROFILE, 'ann vip').scan).toBe(false);
      expect(customerSearch(raw, PROFILE, 'example.com').scan).toBe(true);
      expect(customerSearch(raw, PROFILE, 'an').scan).toBe(true);
    } finally {
      raw.close();
    }
  });

  it('follows edits, merges and removals, and keeps profiles apart', () => {
    const db = fresh();
    const made = (name: string, profileId = PROFILE) =>
      change(db, { op: 'create', profileId, fields: { ...fieldsOf(1), name }, at: AT }).customer?.id ?? -1;
    const ann = made('Annabel Quill');
    const bob = made('Bobby Quartz');
    made('Annabel Quill', OTHER);
    expect(found(db, 'annabel')).toEqual([ann]);
    change(db, { op: 'edit', profileId: PROFILE, id: ann, fields: { ...fieldsOf(1), name: 'Marigold Quill' }, at: AT });
    expect(found(db, 'annabel')).toEqual([]);
    expect(found(db, 'marigold')).toEqual([ann]);
    change(db, { op: 'merge', profileId: PROFILE, into: bob, from: [ann], at: AT });
    expect(found(db, 'marigold')).toEqual([]);
    expect(found(db, 'quartz')).toEqual([bob]);
    change(db, { op: 'remove', profileId: PROFILE, id: bob });
    expect(found(db, 'quartz')).toEqual([]);
  });

  it('indexes the customers of a schema 18 file as it is migrated', () => {
    const file = join(tempDir('keydesk-customer-search-'), 'keydesk.db');
    const before = fresh(file);
    const all = book(before, 200);
    before.close();
    open = [];
    const raw = new DatabaseSync(file);
    raw.exec(
      'DROP TABLE job_customers; DROP TABLE customers_text; DROP TRIGGER customers_text_insert; DROP TRIGGER customers_text_delete; DROP TRIGGER customers_text_update; PRAGMA user_version = 18;',
    );
    raw.close();
    const db = fresh(file);
    expect(found(db, 'buyer0123')).toEqual(scan(all, 'buyer0123'));
    expect(found(db, 'buyer0123')).toHaveLength(1);
  });
});
