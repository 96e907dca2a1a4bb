// An import job against a real sandbox holding keys Keydesk never saw: each key found active, found generated or
// not on the service, recorded in the ledger and exported per row; its customers linked; a cancel keeps what it found.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/main/client/service-client.ts';
import { importLinks, parseImport } from '../../src/shared/key-import.ts';
import { startHeldSandbox, type HeldSandbox } from '../support/held-sandbox.ts';
import { startTestCore, type TestCore } from '../support/core.ts';
import { until } from '../support/job-engine.ts';

describe('an import job', () => {
  let t: TestCore;
  let remote: HeldSandbox;
  let profileId: string;
  let outside: string[];
  /** The key whose lookups the proxy holds while it holds ('' for none). */
  let heldKey = '';

  beforeAll(async () => {
    remote = await startHeldSandbox({
      file: 'import.db',
      name: 'Import Shop',
      identifier: 'import-shop',
      holds: (req) => heldKey !== '' && (req.url ?? '').includes(heldKey),
    });
    t = await startTestCore();
    const profile = await t.must('profiles.add', {
      name: 'Import Shop',
      baseUrl: remote.url,
      apiKey: remote.apiKey,
      serviceIdentifier: 'import-shop',
    });
    await t.must('profiles.select', { id: profile.id });
    profileId = profile.id;
    // Keys made elsewhere (another tool on the same service): Keydesk's ledger holds none of them.
    const other = new ServiceClient({ baseUrl: remote.url, validationUrl: `${remote.url}/v2_validation`, apiKey: remote.apiKey });
    const made = await other.generate({ expire: '2099-01-31', count: 40, isPremium: false, note: 'sold before Keydesk' });
    if (!made.ok) throw new Error(made.message);
    outside = made.data.map((k) => k.value).sort();
    const answer = await fetch(`${remote.url}/v2_validation?key=${outside[0] ?? ''}&service=import-shop&hwid=HW-A`);
    expect(((await answer.json()) as { V2_Authentication: string }).V2_Authentication).toBe('success');
  });
  afterAll(async () => {
    await t.close();
    await remote.close();
  });

  it('records each key found active, found generated or not on the service', async () => {
    const [active, generated] = outside as [string, string];
    const csv = [
      'key,name,discord,note',
      `${active},Ada,123456789012345678,bought in May`,
      `${generated},Ada,123456789012345678,`,
      'NOT-ON-THE-SERVICE-1,Bob,,',
    ].join('\n');
    const parsed = parseImport(csv, 'keys.csv');
    if (!parsed.ok) throw new Error(parsed.message);
    const job = await t.must('import.start', { source: 'keys.csv', rows: parsed.preview.rows });
    expect(job).toMatchObject({ action: 'import', source: 'keys.csv', total: 3 });
    await t.core.jobs.settled(job.id);
    expect(await t.must('jobs.get', { jobId: job.id })).toMatchObject({ state: 'finished', counts: { done: 3 } });

    const items = await t.must('jobs.items', { jobId: job.id, offset: 0, limit: 10 });
    expect(Object.fromEntries(items.items.map((i) => [i.target, [i.code, i.message]]))).toEqual({
      [active]: ['active', 'Found active'],
      [generated]: ['generated', 'Found generated'],
      'NOT-ON-THE-SERVICE-1': ['absent', 'Not on the service'],
    });
    await t.core.writer.idle();
    const rows = new Map([...t.core.db.iterateLedgerKeys(profileId, [active, generated, 'NOT-ON-THE-SERVICE-1'])].map((r) => [r.value, r]));
    expect(rows.get(active)).toMatchObject({ status: 'active', hwid: 'HW-A', note: 'sold before Keydesk' });
    expect(rows.get(generated)).toMatchObject({ status: 'generated' });
    expect(rows.has('NOT-ON-THE-SERVICE-1')).toBe(false);

    // Per row, exportable; the audit entry names the source.
    const exported = await t.must('jobs.export', { jobId: job.id, format: 'csv' });
    expect(
      readFileSync(exported.path ?? '', 'utf8')
        .trim()
        .split(/\r?\n/)
        .sort(),
    ).toEqual(
      [
        'key,outcome,reasonCode,reason',
        `${active},found active,,Found active`,
        `${generated},found generated,,Found generated`,
        'NOT-ON-THE-SERVICE-1,not on the service,,Not on the service',
      ].sort(),
    );
    expect(t.core.db.listAudit({ action: 'import.start' }, 0, 5).entries).toMatchObject([{ target: '3 keys imported from keys.csv' }]);

    // The customers the rows name: one Ada by Discord ID holding two keys, one Bob by name.
    const held = t.core.db.customersOfKeys(profileId, [active, generated, 'NOT-ON-THE-SERVICE-1']);
    expect(held.get(active)).toMatchObject({ name: 'Ada', discordId: '123456789012345678', note: 'bought in May' });
    expect(held.get(generated)?.id).toBe(held.get(active)?.id);
    expect(held.get('NOT-ON-THE-SERVICE-1')).toMatchObject({ name: 'Bob', discordId: '' });
  });

  it('keeps what a cancelled import recorded; a resume looks up the rest', async () => {
    const keys = outside.slice(2);
    // The last key's lookup is held: the job is surely still running once every other key is recorded. A read the
    // cancel cuts off changed nothing, so its key is pending again.
    heldKey = keys.at(-1) ?? '';
    remote.hold();
    const job = await t.must('import.start', { source: 'pasted keys', rows: keys.map((value) => ({ value })) });
    await until(() => remote.heldCount() > 0 && t.core.jobs.get(profileId, job.id)?.counts.done === keys.length - 1);
    await t.must('jobs.cancel', { jobId: job.id });
    await t.core.jobs.settled(job.id);
    expect(await t.must('jobs.get', { jobId: job.id })).toMatchObject({
      state: 'cancelled',
      counts: { done: keys.length - 1, unknown: 0, pending: 1 },
    });
    await t.core.writer.idle();
    const recorded = [...t.core.db.iterateLedgerKeys(profileId, keys)].map((r) => r.value);
    expect(recorded).toEqual(keys.slice(0, -1));

    heldKey = '';
    remote.release();
    const resumed = await t.must('jobs.resume', { jobId: job.id });
    await t.core.jobs.settled(resumed.id);
    expect(await t.must('jobs.get', { jobId: job.id })).toMatchObject({ state: 'finished', counts: { done: keys.length } });
    await t.core.writer.idle();
    expect([...t.core.db.iterateLedgerKeys(profileId, keys)].map((r) => r.value)).toEqual(keys);
  });

  it('links name-only rows to the customer of that name, any case', async () => {
    const ann = await t.must('customers.create', {
      name: 'Ann Lee',
      email: 'ann@example.com',
      discordId: '',
      reference: '',
      tags: [],
      note: '',
    });
    const made = t.core.db.customerCount(profileId);
    const read = (csv: string) => {
      const parsed = parseImport(csv, 'names.csv');
      if (!parsed.ok) throw new Error(parsed.message);
      return parsed.preview.rows;
    };
    const rows = read(['key,name', 'NAME-ONLY-1, ann lee ', 'NAME-ONLY-2,ANN LEE', 'NAME-ONLY-3,Zoë Quill'].join('\n'));
    // The preview says which customers the book has already.
    const customers = importLinks(rows).map((l) => ({ name: l.fields.name, email: l.fields.email, discordId: l.fields.discordId }));
    expect(await t.must('import.customers', { customers })).toEqual({ known: [{ id: ann.id, name: 'Ann Lee' }, null] });

    const first = await t.must('import.start', { source: 'names.csv', rows });
    await t.core.jobs.settled(first.id);
    const second = await t.must('import.start', { source: 'names.csv', rows: read('key,name\nNAME-ONLY-4,ZOË QUILL') });
    await t.core.jobs.settled(second.id);
    await t.core.writer.idle();

    expect(t.core.db.customerCount(profileId)).toBe(made + 1);
    const held = t.core.db.customersOfKeys(profileId, ['NAME-ONLY-1', 'NAME-ONLY-2', 'NAME-ONLY-3', 'NAME-ONLY-4']);
    expect([held.get('NAME-ONLY-1')?.id, held.get('NAME-ONLY-2')?.id]).toEqual([ann.id, ann.id]);
    expect(held.get('NAME-ONLY-3')).toMatchObject({ name: 'Zoë Quill', email: '' });
    expect(held.get('NAME-ONLY-4')?.id).toBe(held.get('NAME-ONLY-3')?.id);
  });
});
