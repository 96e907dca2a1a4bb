// The customers room of keydesk.db (src/main/store/customers.ts): create, edit, merge, remove, link and unlink,
// search and key counts, one customer per key, per profile; changes made through the writer's thread reach readers.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalDb } from '../../src/main/store/local-db.ts';
import { Writer } from '../../src/main/store/writer.ts';
import type { CustomerChange, CustomerChanged, CustomerFields } from '../../src/shared/customers.ts';
import { generatedKey, OTHER, PROFILE } from '../support/ledger-model.ts';
import { tempDir } from '../support/temp-dir.ts';

const AT = '2026-11-29T10:00:00.000Z';
const fields = (name: string, more: Partial<CustomerFields> = {}): CustomerFields => ({
  name,
  email: '',
  discordId: '',
  reference: '',
  tags: [],
  note: '',
  ...more,
});

let open: LocalDb[] = [];
afterEach(() => {
  for (const db of open) db.close();
  open = [];
});

function fresh(): LocalDb {
  const db = new LocalDb(join(tempDir('keydesk-customers-'), 'keydesk.db'));
  open.push(db);
  return db;
}
const schemaOf = (file: string): unknown[] => {
  const raw = new DatabaseSync(file);
  try {
    return raw.prepare("SELECT type, name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name").all();
  } finally {
    raw.close();
  }
};
const change = (db: LocalDb, c: CustomerChange): CustomerChanged => db.transaction(() => db.changeCustomers(c));
const create = (db: LocalDb, f: CustomerFields, profileId = PROFILE): number =>
  change(db, { op: 'create', profileId, fields: f, at: AT }).customer?.id ?? -1;
const link = (db: LocalDb, id: number, values: string[]) =>
  change(db, { op: 'link', profileId: PROFILE, links: [{ customer: { id }, values }], at: AT });

describe('the customers room', () => {
  it('creates and edits a customer, keeping its created time', () => {
    const db = fresh();
    const id = create(db, fields('Ann', { email: 'ann@example.com', discordId: '123456789012345678', tags: ['vip'] }));
    const edited = change(db, {
      op: 'edit',
      profileId: PROFILE,
      id,
      fields: fields('Ann Lee', { note: 'pays yearly' }),
      at: '2026-11-30T00:00:00.000Z',
    });
    expect(edited.customer).toMatchObject({
      id,
      name: 'Ann Lee',
      email: '',
      note: 'pays yearly',
      createdAt: AT,
      updatedAt: '2026-11-30T00:00:00.000Z',
    });
    expect(db.customer(PROFILE, id)?.name).toBe('Ann Lee');
  });

  it('counts a customer’s keys by ledger status, unrecorded ones apart', () => {
    const db = fresh();
    db.recordKeys(PROFILE, [generatedKey('K-1', ''), { ...generatedKey('K-2', ''), status: 'active' }], AT);
    const id = create(db, fields('Ann'));
    expect(link(db, id, ['K-1', 'K-2', 'K-NOT-SEEN']).keys).toBe(3);
    expect(db.customer(PROFILE, id)?.keys).toEqual({ generated: 1, active: 1, deleted: 0, unrecorded: 1 });
  });

  it('moves a key linked to another customer: one customer per key', () => {
    const db = fresh();
    const ann = create(db, fields('Ann'));
    const bob = create(db, fields('Bob'));
    link(db, ann, ['K-1', 'K-2']);
    link(db, bob, ['K-2']);
    expect(db.customerKeys(PROFILE, ann)).toEqual(['K-1']);
    expect(db.customerKeys(PROFILE, bob)).toEqual(['K-2']);
    expect(db.customersOfKeys(PROFILE, ['K-1', 'K-2', 'K-3'])).toEqual(
      new Map([
        ['K-1', expect.objectContaining({ id: ann })],
        ['K-2', expect.objectContaining({ id: bob })],
      ]),
    );
  });

  it('unlinks keys, leaving the customer', () => {
    const db = fresh();
    const ann = create(db, fields('Ann'));
    link(db, ann, ['K-1', 'K-2']);
    expect(change(db, { op: 'unlink', profileId: PROFILE, values: ['K-1', 'K-9'] }).keys).toBe(1);
    expect(db.customerKeys(PROFILE, ann)).toEqual(['K-2']);
  });

  it('merges keys, empty fields, tags and notes into the customer kept', () => {
    const db = fresh();
    const ann = create(db, fields('Ann', { tags: ['vip'], note: 'first' }));
    const dup = create(db, fields('ann (2)', { email: 'ann@example.com', tags: ['vip', 'eu'], note: 'second' }));
    link(db, ann, ['K-1']);
    link(db, dup, ['K-2', 'K-3']);
    const merged = change(db, { op: 'merge', profileId: PROFILE, into: ann, from: [dup], at: AT });
    expect(merged.keys).toBe(2);
    expect(merged.customer).toMatchObject({ name: 'Ann', email: 'ann@example.com', tags: ['vip', 'eu'], note: 'first\nsecond' });
    expect(db.customer(PROFILE, dup)).toBeNull();
    expect(db.customerKeys(PROFILE, ann)).toEqual(['K-1', 'K-2', 'K-3']);
  });

  it('removes a customer and its links, never the keys', () => {
    const db = fresh();
    db.recordKeys(PROFILE, [generatedKey('K-1', '')], AT);
    const ann = create(db, fields('Ann'));
    link(db, ann, ['K-1']);
    expect(change(db, { op: 'remove', profileId: PROFILE, id: ann }).keys).toBe(1);
    expect(db.customer(PROFILE, ann)).toBeNull();
    expect(db.customersOfKeys(PROFILE, ['K-1']).size).toBe(0);
    expect(db.ledgerValues(PROFILE, {}, 10).values).toEqual(['K-1']);
  });

  it("never gives a removed customer's id to a new one", () => {
    const db = fresh();
    const ann = create(db, fields('Ann'));
    change(db, { op: 'remove', profileId: PROFILE, id: ann });
    expect(create(db, fields('Bob'))).toBeGreaterThan(ann);
  });

  it('links to the customer sharing Discord ID or email, else makes one', () => {
    const db = fresh();
    const ann = create(db, fields('Ann', { discordId: '123456789012345678' }));
    const r = change(db, {
      op: 'link',
      profileId: PROFILE,
      links: [
        { customer: { fields: fields('Whoever', { discordId: '123456789012345678' }) }, values: ['K-1'] },
        { customer: { fields: fields('Cy', { email: 'cy@example.com' }) }, values: ['K-2'] },
        { customer: { fields: fields('Cy again', { email: 'CY@example.com' }) }, values: ['K-3'] },
      ],
      at: AT,
    });
    expect(r).toMatchObject({ keys: 3, created: 1 });
    expect(db.customerKeys(PROFILE, ann)).toEqual(['K-1']);
    const cy = db.findCustomerByContact(PROFILE, { discordId: '', email: 'cy@EXAMPLE.com' });
    expect(cy?.name).toBe('Cy');
    expect(db.customerKeys(PROFILE, cy?.id ?? -1)).toEqual(['K-2', 'K-3']);
  });

  it('searches name, email, Discord ID, reference and tags, matching every word', () => {
    const db = fresh();
    create(db, fields('Ann Lee', { email: 'ann@example.com', tags: ['VIP'] }));
    create(db, fields('Bob', { discordId: '223456789012345678', reference: 'order-77' }));
    create(db, fields('Ann Other'), OTHER);
    const names = (search: string) => db.listCustomers(PROFILE, { search }).customers.map((c) => c.name);
    expect(names('')).toEqual(['Ann Lee', 'Bob']);
    expect(names('ann vip')).toEqual(['Ann Lee']);
    expect(names('EXAMPLE')).toEqual(['Ann Lee']);
    expect(names('2234567')).toEqual(['Bob']);
    expect(names('order-77')).toEqual(['Bob']);
    expect(names('50%')).toEqual([]);
    expect(db.listCustomers(PROFILE, { search: 'ann', limit: 1 }).total).toBe(1);
    expect(db.matchingCustomerIds(OTHER, 'ann')).toHaveLength(1);
  });

  it('keeps a note template per profile, cleared back to none', () => {
    const db = fresh();
    change(db, { op: 'template', profileId: PROFILE, template: '{name} <{email}>' });
    expect(db.noteTemplate(PROFILE)).toBe('{name} <{email}>');
    expect(db.noteTemplate(OTHER)).toBeNull();
    change(db, { op: 'template', profileId: PROFILE, template: null });
    expect(db.noteTemplate(PROFILE)).toBeNull();
  });

  it('refuses to edit or link a customer of another profile', () => {
    const db = fresh();
    const other = create(db, fields('Theirs'), OTHER);
    expect(() => change(db, { op: 'edit', profileId: PROFILE, id: other, fields: fields('Mine'), at: AT })).toThrow(/No customer/);
    expect(() => link(db, other, ['K-1'])).toThrow(/No customer/);
    expect(db.customerKeys(OTHER, other)).toEqual([]);
  });

  it('gives a generate job’s recorded keys to the customer it names', () => {
    const db = fresh();
    const job = '00000000-0000-4000-8000-000000000001';
    const raw = new DatabaseSync(db.file);
    raw.exec(`INSERT INTO job_keys (job_id, value) VALUES ('${job}', 'K-1'), ('${job}', 'K-2'), ('another job', 'K-3')`);
    raw.close();
    const made = change(db, { op: 'linkJob', profileId: PROFILE, jobId: job, customer: { fields: fields('Ann') }, at: AT });
    expect(made).toMatchObject({ customer: { name: 'Ann' }, keys: 2, created: 1 });
    expect(db.customerKeys(PROFILE, made.customer?.id ?? -1)).toEqual(['K-1', 'K-2']);
  });
});

describe('customer changes through the writer', () => {
  it('are made on the writer’s thread and read on another connection', async () => {
    const file = join(tempDir('keydesk-customers-'), 'keydesk.db');
    new LocalDb(file).close();
    const writer = new Writer({ file });
    try {
      const made = await writer.run('customers', { change: { op: 'create', profileId: PROFILE, fields: fields('Ann'), at: AT } });
      const id = made.customer?.id ?? -1;
      await writer.run('customers', { change: { op: 'link', profileId: PROFILE, links: [{ customer: { id }, values: ['K-1'] }], at: AT } });
      const reader = new LocalDb(file, { readOnly: true });
      open.push(reader);
      expect(reader.customer(PROFILE, id)).toMatchObject({ name: 'Ann', keys: { unrecorded: 1 } });
      await expect(writer.run('customers', { change: { op: 'remove', profileId: PROFILE, id: id + 1 } })).rejects.toThrow(/No customer/);
    } finally {
      await writer.close();
    }
  });

  it('brings a schema 16 file to a new file’s book tables', () => {
    const file = join(tempDir('keydesk-customers-'), 'keydesk.db');
    new LocalDb(file).close();
    const raw = new DatabaseSync(file);
    raw.exec(
      'DROP TABLE customers_text; DROP TABLE job_customers; DROP TRIGGER hwid_history_insert; DROP TRIGGER hwid_history_update; DROP TRIGGER hwid_history_delete; DROP TABLE hwid_history; DROP TABLE service_capabilities;',
    );
    raw.exec('DROP TABLE customers; DROP TABLE customer_keys; DROP TABLE customer_settings; PRAGMA user_version = 16;');
    raw.close();
    const current = join(tempDir('keydesk-customers-'), 'keydesk.db');
    new LocalDb(current).close();
    const db = new LocalDb(file);
    open.push(db);
    expect(schemaOf(file)).toEqual(schemaOf(current));
    expect(db.customerCount(PROFILE)).toBe(0);
    expect(create(db, fields('Ann'))).toBeGreaterThan(0);
  });
});
