// The book through the handlers, on a real core with its sandbox: links proposed from notes and accepted, a
// customer's keys found by All keys' customer filter and acted on by a job, their activity, merge and remove, and
// the exports' customer columns and the book's own export.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keysOf } from '../../src/shared/key-batch.ts';
import { startTestCore, type TestCore } from '../support/core.ts';

const ANN = '123456789012345678';
const byValue = { field: 'value' as const, dir: 'asc' as const };

describe('the customers handlers', () => {
  let t: TestCore;
  let annKeys: string[];
  let bobKeys: string[];

  const generate = async (count: number, note: string): Promise<string[]> => {
    const r = await t.must('keys.generate', { expire: '2099-01-01', count, isPremium: false, note });
    return keysOf(r.generated).map((k) => k.value);
  };

  beforeAll(async () => {
    t = await startTestCore();
    annKeys = await generate(3, `Ann Lee (Discord: ${ANN})`);
    bobKeys = await generate(2, 'user.id 223456789012345678');
    await generate(2, 'launch batch');
    await t.core.writer.idle();
  });
  afterAll(async () => {
    await t.close();
  });

  it('proposes links from notes, grouped by who, and links them once accepted', async () => {
    const { proposals, keys } = await t.must('customers.proposeLinks');
    expect(keys).toBe(5);
    const found = proposals.map((p) => [p.contact, p.keyValues.length, 'fields' in p.customer ? p.customer.fields.name : p.customer.name]);
    expect(found.sort()).toEqual([
      [ANN, 3, 'Ann Lee'],
      ['223456789012345678', 2, 'Discord 223456789012345678'],
    ]);
    const accepted = await t.must('customers.link', { links: proposals.map((p) => ({ customer: p.customer, keyValues: p.keyValues })) });
    expect(accepted).toMatchObject({ keys: 5, created: 2 });
    expect((await t.must('customers.proposeLinks')).keys).toBe(0);
  });

  it('lists customers with key counts, found by name, email or Discord ID', async () => {
    const all = await t.must('customers.list', {});
    expect(all.customers.map((c) => [c.name, c.keys.generated])).toEqual([
      ['Ann Lee', 3],
      ['Discord 223456789012345678', 2],
    ]);
    expect(all).toMatchObject({ total: 2, noteTemplate: '{name} (Discord: {discordId})', isDefault: true });
    expect((await t.must('customers.list', { search: ANN })).customers.map((c) => c.name)).toEqual(['Ann Lee']);
  });

  it('finds a customer’s keys in All keys by id or search words', async () => {
    const ann = (await t.must('customers.list', { search: 'ann' })).customers[0];
    const byId = await t.must('ledger.query', { filter: { customerId: ann?.id ?? 0 }, sort: byValue, offset: 0, limit: 10 });
    expect(byId.rows.map((r) => r.value)).toEqual([...annKeys].sort());
    expect(byId).toMatchObject({ total: 3, totalCapped: false, targets: 3 });
    const bySearch = await t.must('ledger.query', { filter: { customer: '2234' }, sort: byValue, offset: 0, limit: 10 });
    expect(bySearch.rows.map((r) => r.value)).toEqual([...bobKeys].sort());
    // Each row names who holds it.
    expect(new Set(byId.rows.map((r) => r.customer))).toEqual(new Set([ann?.name]));
    const next = await t.must('ledger.query', {
      filter: { customerId: ann?.id ?? 0 },
      sort: byValue,
      offset: 0,
      limit: 2,
      cursor: { after: { key: [...annKeys].sort()[1] ?? '', value: [...annKeys].sort()[1] ?? '' } },
    });
    expect(next.rows.map((r) => r.value)).toEqual([[...annKeys].sort()[2]]);
  });

  it('extends all a customer’s keys in one job, shown in their activity', async () => {
    const ann = (await t.must('customers.list', { search: 'ann' })).customers[0];
    const id = ann?.id ?? 0;
    const job = await t.must('jobs.start', { action: 'extend', days: 30, target: { filter: { customerId: id } } });
    expect(job.total).toBe(3);
    await expect.poll(async () => (await t.must('jobs.get', { jobId: job.id })).state).toBe('finished');
    const activity = await t.must('audit.list', { filter: { customerId: id }, offset: 0, limit: 10 });
    expect(activity.entries.map((e) => e.action)).toContain('keys.extend');
    expect(activity.entries.some((e) => e.action === 'customers.link')).toBe(false);
    const bob = (await t.must('customers.list', { search: '2234' })).customers[0];
    expect((await t.must('audit.list', { filter: { customerId: bob?.id ?? 0 }, offset: 0, limit: 10 })).entries).toEqual([]);
  });

  it('exports keys with their customer, and the book as CSV and JSON', async () => {
    const exported = await t.must('ledger.export', { filter: {}, sort: byValue, format: 'csv' });
    const lines = readFileSync(exported.path ?? '', 'utf8')
      .trim()
      .split('\n');
    expect(lines[0]?.endsWith(',customer,customerEmail,customerDiscordId')).toBe(true);
    expect(lines.filter((l) => l.endsWith(`,Ann Lee,,${ANN}`))).toHaveLength(3);
    const book = await t.must('customers.export', { format: 'csv' });
    const rows = readFileSync(book.path ?? '', 'utf8')
      .trim()
      .split('\n');
    expect(rows[0]).toBe('customerId,name,email,discordId,reference,tags,customerNote,key,status,expiresAt,hwid,keyNote');
    expect(rows).toHaveLength(6);
    const json = JSON.parse(readFileSync((await t.must('customers.export', { format: 'json' })).path ?? '', 'utf8')) as {
      name: string;
      keys: { value: string }[];
    }[];
    expect(json.map((c) => [c.name, c.keys.length])).toEqual([
      ['Ann Lee', 3],
      ['Discord 223456789012345678', 2],
    ]);
  });

  it('edits, merges and removes customers, keeping their keys in the ledger', async () => {
    const [ann, bob] = (await t.must('customers.list', {})).customers;
    const fields = { name: 'Bob', email: 'bob@example.com', discordId: bob?.discordId ?? '', reference: '', tags: ['eu'], note: '' };
    const edited = await t.must('customers.update', { id: bob?.id ?? 0, fields });
    expect(edited).toMatchObject({ name: 'Bob', email: 'bob@example.com' });
    expect(
      await t.call('customers.create', { name: ' ', email: 'nope', discordId: '12', reference: '', tags: [], note: '' }),
    ).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
    });
    const merged = await t.must('customers.merge', { into: ann?.id ?? 0, from: [bob?.id ?? 0] });
    expect(merged).toMatchObject({ keys: 2, customer: { name: 'Ann Lee', email: 'bob@example.com' } });
    expect(await t.call('customers.get', { id: bob?.id ?? 0 })).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect(await t.must('customers.remove', { id: ann?.id ?? 0 })).toEqual({ keys: 5 });
    expect((await t.must('customers.list', {})).total).toBe(0);
    expect((await t.must('ledger.query', { filter: {}, sort: byValue, offset: 0, limit: 10 })).total).toBe(7);
    expect((await t.must('customers.proposeLinks')).keys).toBe(5);
  });
});
