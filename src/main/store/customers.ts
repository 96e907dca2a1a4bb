// The vendor's book in keydesk.db: customers per profile, which customer holds each key (at most one), and the
// profile's note template. Changes come through the writer's thread (change()); main and readers read.
import type { DatabaseSync } from 'node:sqlite';
import type {
  Customer,
  CustomerChange,
  CustomerChanged,
  CustomerFields,
  CustomerKeyCounts,
  CustomerRef,
  CustomerSummary,
} from '../../shared/customers.ts';
import { customerSearch } from './customer-search.ts';

interface CustomerRow {
  id: number;
  name: string;
  email: string;
  discordId: string;
  reference: string;
  tags: string;
  note: string;
  createdAt: string;
  updatedAt: string;
}

const SELECT_FROM = `SELECT id, name, email, discord_id AS discordId, reference, tags, note, created_at AS createdAt,
  updated_at AS updatedAt FROM`;
const SELECT = `${SELECT_FROM} customers`;

const customerOf = (r: CustomerRow): Customer => ({ ...r, tags: JSON.parse(r.tags) as string[] });

/** The text a customer is found by: name, email, Discord ID, reference and tags, lower-cased, one per line. */
const searchText = (f: CustomerFields): string => [f.name, f.email, f.discordId, f.reference, ...f.tags].join('\n').toLowerCase();

const noCounts = (): CustomerKeyCounts => ({ generated: 0, active: 0, deleted: 0, unrecorded: 0 });

export interface CustomerQuery {
  /** Words each found in the customer's name, email, Discord ID, reference or tags; '' for all. */
  search?: string;
  offset?: number;
  limit?: number;
}

/** Most customers one list answers. */
export const CUSTOMER_PAGE_MAX = 1_000;

export class Customers {
  private readonly db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.db = db;
  }

  // ---- writes (the writer's thread) ---------------------------------------------------------------------------

  /** Applies one change (in the caller's transaction). */
  change(c: CustomerChange): CustomerChanged {
    switch (c.op) {
      case 'create':
        return { customer: this.create(c.profileId, c.fields, c.at), keys: 0, created: 1 };
      case 'edit':
        return { customer: this.edit(c.profileId, c.id, c.fields, c.at), keys: 0, created: 0 };
      case 'merge':
        return this.merge(c.profileId, c.into, c.from, c.at);
      case 'remove':
        return { customer: null, keys: this.remove(c.profileId, c.id), created: 0 };
      case 'link':
        return this.link(c.profileId, c.links, c.at);
      case 'unlink':
        return { customer: null, keys: this.unlink(c.profileId, c.values), created: 0 };
      case 'linkJob':
        return this.linkJob(c.profileId, c.jobId, c.customer, c.at);
      case 'template':
        this.setNoteTemplate(c.profileId, c.template);
        return { customer: null, keys: 0, created: 0 };
    }
  }

  private create(profileId: string, f: CustomerFields, at: string): Customer {
    const { lastInsertRowid } = this.db
      .prepare(
        `INSERT INTO customers (profile_id, name, email, discord_id, reference, tags, note, search, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(profileId, f.name, f.email, f.discordId, f.reference, JSON.stringify(f.tags), f.note, searchText(f), at, at);
    return this.mustGet(profileId, Number(lastInsertRowid));
  }

  private edit(profileId: string, id: number, f: CustomerFields, at: string): Customer {
    const { changes } = this.db
      .prepare(
        `UPDATE customers SET name = ?, email = ?, discord_id = ?, reference = ?, tags = ?, note = ?, search = ?, updated_at = ?
         WHERE profile_id = ? AND id = ?`,
      )
      .run(f.name, f.email, f.discordId, f.reference, JSON.stringify(f.tags), f.note, searchText(f), at, profileId, id);
    if (changes === 0) throw new Error(`No customer ${id} in this profile.`);
    return this.mustGet(profileId, id);
  }

  /**
   * `from`'s keys go to `into`, which keeps its fields and takes theirs where its own are empty, every tag, and
   * their notes after its own; `from` are removed.
   */
  private merge(profileId: string, into: number, from: readonly number[], at: string): CustomerChanged {
    const target = this.mustGet(profileId, into);
    const others = from.filter((id) => id !== into).map((id) => this.mustGet(profileId, id));
    const merged: CustomerFields = { ...target };
    for (const o of others) {
      merged.email ||= o.email;
      merged.discordId ||= o.discordId;
      merged.reference ||= o.reference;
      merged.tags = [...new Set([...merged.tags, ...o.tags])];
      merged.note = [merged.note, o.note].filter((n) => n !== '').join('\n');
    }
    let keys = 0;
    const move = this.db.prepare('UPDATE customer_keys SET customer_id = ? WHERE profile_id = ? AND customer_id = ?');
    for (const o of others) {
      keys += Number(move.run(into, profileId, o.id).changes);
      this.db.prepare('UPDATE job_customers SET customer_id = ? WHERE customer_id = ?').run(into, o.id);
      this.db.prepare('DELETE FROM customers WHERE profile_id = ? AND id = ?').run(profileId, o.id);
    }
    return { customer: this.edit(profileId, into, merged, at), keys, created: 0 };
  }

  /** Removes the customer; its keys stay in the ledger, held by no one. Returns how many keys it held. */
  private remove(profileId: string, id: number): number {
    const { changes } = this.db.prepare('DELETE FROM customers WHERE profile_id = ? AND id = ?').run(profileId, id);
    if (changes === 0) throw new Error(`No customer ${id} in this profile.`);
    return Number(this.db.prepare('DELETE FROM customer_keys WHERE profile_id = ? AND customer_id = ?').run(profileId, id).changes);
  }

  /** Each link's keys go to its customer (from whoever held them), made first when named by fields no customer has. */
  private link(profileId: string, links: readonly { customer: CustomerRef; values: string[] }[], at: string): CustomerChanged {
    const put = this.db.prepare(
      `INSERT INTO customer_keys (profile_id, value, customer_id) VALUES (?, ?, ?)
       ON CONFLICT (profile_id, value) DO UPDATE SET customer_id = excluded.customer_id WHERE customer_id IS NOT excluded.customer_id`,
    );
    let keys = 0;
    let created = 0;
    let last: Customer | null = null;
    for (const link of links) {
      let customer: Customer;
      if ('id' in link.customer) customer = this.mustGet(profileId, link.customer.id);
      else {
        const found = this.findByContact(profileId, link.customer.fields);
        customer = found ?? this.create(profileId, link.customer.fields, at);
        if (found === null) created++;
      }
      for (const value of link.values) keys += Number(put.run(profileId, value, customer.id).changes);
      last = customer;
    }
    return { customer: links.length === 1 ? last : null, keys, created };
  }

  /** The job's customer (made first when named by fields no customer has), and the keys the job recorded so far. */
  private linkJob(profileId: string, jobId: string, ref: CustomerRef, at: string): CustomerChanged {
    const made = this.link(profileId, [{ customer: ref, values: [] }], at);
    const customer = made.customer;
    if (customer === null) throw new Error('No customer for the job.');
    this.db
      .prepare(
        'INSERT INTO job_customers (job_id, customer_id) VALUES (?, ?) ON CONFLICT (job_id) DO UPDATE SET customer_id = excluded.customer_id',
      )
      .run(jobId, customer.id);
    const { changes } = this.db
      .prepare(
        `INSERT INTO customer_keys (profile_id, value, customer_id) SELECT ?, value, ? FROM job_keys WHERE job_id = ?
         ON CONFLICT (profile_id, value) DO UPDATE SET customer_id = excluded.customer_id WHERE customer_id IS NOT excluded.customer_id`,
      )
      .run(profileId, customer.id, jobId);
    return { customer, keys: Number(changes), created: made.created };
  }

  private unlink(profileId: string, values: readonly string[]): number {
    const del = this.db.prepare('DELETE FROM customer_keys WHERE profile_id = ? AND value = ?');
    let n = 0;
    for (const v of values) n += Number(del.run(profileId, v).changes);
    return n;
  }

  private setNoteTemplate(profileId: string, template: string | null): void {
    if (template === null) this.db.prepare('DELETE FROM customer_settings WHERE profile_id = ?').run(profileId);
    else
      this.db
        .prepare(
          'INSERT INTO customer_settings (profile_id, note_template) VALUES (?, ?) ON CONFLICT (profile_id) DO UPDATE SET note_template = excluded.note_template',
        )
        .run(profileId, template);
  }

  // ---- reads ---------------------------------------------------------------------------------------------------

  customer(profileId: string, id: number): CustomerSummary | null {
    const row = this.db.prepare(`${SELECT} WHERE profile_id = ? AND id = ?`).get(profileId, id) as CustomerRow | undefined;
    if (row === undefined) return null;
    return { ...customerOf(row), keys: this.keyCounts(profileId, [id]).get(id) ?? noCounts() };
  }

  /**
   * The profile's customer with this Discord ID, else this email (any case); with neither, the first with this name
   * (any case, spaces around it aside), so a name alone names one customer; null when none has it.
   */
  findByContact(profileId: string, f: Pick<CustomerFields, 'discordId' | 'email'> & { name?: string }): Customer | null {
    if (f.discordId === '' && f.email === '') return f.name === undefined ? null : this.findByName(profileId, f.name);
    const byDiscord =
      f.discordId === ''
        ? undefined
        : (this.db
            .prepare(`${SELECT} WHERE profile_id = ? AND discord_id = ? AND discord_id <> '' ORDER BY id LIMIT 1`)
            .get(profileId, f.discordId) as CustomerRow | undefined);
    const row =
      byDiscord ??
      (f.email === ''
        ? undefined
        : (this.db
            .prepare(`${SELECT} WHERE profile_id = ? AND email = ? COLLATE NOCASE AND email <> '' ORDER BY id LIMIT 1`)
            .get(profileId, f.email) as CustomerRow | undefined));
    return row === undefined ? null : customerOf(row);
  }

  /** The profile's first customer named `name`, any case, spaces around it aside (names are kept trimmed); null when none is. */
  private findByName(profileId: string, name: string): Customer | null {
    const wanted = name.trim().toLowerCase();
    if (wanted === '') return null;
    // ASCII names through the name index (NOCASE folds ASCII only); others through the search, compared here.
    const rows = (/^[\x20-\x7e]*$/.test(wanted)
      ? this.db.prepare(`${SELECT} WHERE profile_id = ? AND name = ? COLLATE NOCASE ORDER BY id`).all(profileId, wanted)
      : this.db
          .prepare(`${SELECT} WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`)
          .all(JSON.stringify(this.matchingIds(profileId, wanted)))) as unknown as CustomerRow[];
    const row = rows.find((r) => r.name.toLowerCase() === wanted);
    return row === undefined ? null : customerOf(row);
  }

  /** A page of the profile's customers by name, each with its key counts, and how many match. */
  listCustomers(profileId: string, q: CustomerQuery = {}): { customers: CustomerSummary[]; total: number } {
    const found = customerSearch(this.db, profileId, q.search ?? '');
    const limit = Math.min(Math.max(1, q.limit ?? 200), CUSTOMER_PAGE_MAX);
    const total = (this.db.prepare(`SELECT count(*) AS n FROM ${found.from} WHERE ${found.where}`).get(...found.params) as { n: number }).n;
    // Words most customers hold: the name index's walk meets a page of them soon, where a pass would sort them all.
    const from = found.scan && total * 8 >= this.customerCount(profileId) ? 'customers' : found.from;
    const rows = this.db
      .prepare(`${SELECT_FROM} ${from} WHERE ${found.where} ORDER BY name COLLATE NOCASE, id LIMIT ? OFFSET ?`)
      .all(...found.params, limit, q.offset ?? 0) as unknown as CustomerRow[];
    const counts = this.keyCounts(
      profileId,
      rows.map((r) => r.id),
    );
    return { customers: rows.map((r) => ({ ...customerOf(r), keys: counts.get(r.id) ?? noCounts() })), total };
  }

  /** Ids of the profile's customers the search finds (every one for ''): a customer filter of the ledger. */
  matchingIds(profileId: string, search: string): number[] {
    const found = customerSearch(this.db, profileId, search);
    return (this.db.prepare(`SELECT id FROM ${found.from} WHERE ${found.where}`).all(...found.params) as { id: number }[]).map((r) => r.id);
  }

  /** Every customer of the profile, by name (the book's export). */
  *iterateCustomers(profileId: string): Generator<Customer> {
    const rows = this.db.prepare(`${SELECT} WHERE profile_id = ? ORDER BY name COLLATE NOCASE, id`).iterate(profileId);
    for (const r of rows) yield customerOf(r as unknown as CustomerRow);
  }

  /** The keys linked to the customer, by value. */
  customerKeys(profileId: string, id: number): string[] {
    return (
      this.db.prepare('SELECT value FROM customer_keys WHERE profile_id = ? AND customer_id = ? ORDER BY value').all(profileId, id) as {
        value: string;
      }[]
    ).map((r) => r.value);
  }

  /** Which customer holds each of `values` (those held by none are left out). */
  customersOfKeys(profileId: string, values: readonly string[]): Map<string, Customer> {
    const out = new Map<string, Customer>();
    const byId = new Map<number, Customer>();
    const link = this.db.prepare('SELECT customer_id AS id FROM customer_keys WHERE profile_id = ? AND value = ?');
    for (const value of values) {
      const row = link.get(profileId, value) as { id: number } | undefined;
      if (row === undefined) continue;
      let c = byId.get(row.id);
      if (c === undefined) {
        c = this.mustGet(profileId, row.id);
        byId.set(row.id, c);
      }
      out.set(value, c);
    }
    return out;
  }

  /** The ledger's keys of the profile held by no customer, with a note: where links from notes are looked for. */
  *unlinkedNotes(profileId: string): Generator<{ value: string; note: string }> {
    const rows = this.db
      .prepare(
        `SELECT value, note FROM ledger AS l WHERE profile_id = ? AND note <> ''
         AND NOT EXISTS (SELECT 1 FROM customer_keys AS k WHERE k.profile_id = l.profile_id AND k.value = l.value) ORDER BY value`,
      )
      .iterate(profileId);
    for (const r of rows) yield r as { value: string; note: string };
  }

  /** The profile's note template; null when the user has written none (DEFAULT_NOTE_TEMPLATE applies). */
  noteTemplate(profileId: string): string | null {
    const row = this.db.prepare('SELECT note_template AS t FROM customer_settings WHERE profile_id = ?').get(profileId) as
      { t: string } | undefined;
    return row?.t ?? null;
  }

  customerCount(profileId: string): number {
    return (this.db.prepare('SELECT count(*) AS n FROM customers WHERE profile_id = ?').get(profileId) as { n: number }).n;
  }

  private mustGet(profileId: string, id: number): Customer {
    const row = this.db.prepare(`${SELECT} WHERE profile_id = ? AND id = ?`).get(profileId, id) as CustomerRow | undefined;
    if (row === undefined) throw new Error(`No customer ${id} in this profile.`);
    return customerOf(row);
  }

  /** Key counts by ledger status for each of `ids`, from the links and the ledger rows they name. */
  private keyCounts(profileId: string, ids: readonly number[]): Map<number, CustomerKeyCounts> {
    const out = new Map<number, CustomerKeyCounts>();
    if (ids.length === 0) return out;
    const rows = this.db
      .prepare(
        `SELECT k.customer_id AS id, coalesce(l.status, 'unrecorded') AS status, count(*) AS n FROM customer_keys AS k
         LEFT JOIN ledger AS l ON l.profile_id = k.profile_id AND l.value = k.value
         WHERE k.customer_id IN (SELECT value FROM json_each(?)) GROUP BY 1, 2`,
      )
      .all(JSON.stringify(ids)) as { id: number; status: keyof CustomerKeyCounts; n: number }[];
    for (const r of rows) {
      const counts = out.get(r.id) ?? noCounts();
      counts[r.status] = r.n;
      out.set(r.id, counts);
    }
    return out;
  }
}
