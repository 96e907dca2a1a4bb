// A generate job for a customer picked on the form, against a real sandbox: every key the service made for the job
// goes to that customer as it is recorded, a new customer made once, as a generate of one request links its keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATE_BATCH } from '../../src/main/jobs/job-service.ts';
import type { CustomerRef } from '../../src/shared/customers.ts';
import { startTestCore, type TestCore } from '../support/core.ts';
import { startRemoteSandbox, type RemoteSandbox } from '../support/remote-sandbox.ts';

const COUNT = GENERATE_BATCH + 3;
const fields = { name: 'Ada Job', email: 'ada@example.com', discordId: '', reference: '', tags: [], note: '' };

describe('a generate job for a customer', () => {
  let t: TestCore;
  let remote: RemoteSandbox;
  let profileId: string;
  beforeAll(async () => {
    remote = await startRemoteSandbox({ name: 'Customer Job Shop', identifier: 'customer-job-shop' });
    t = await startTestCore();
    const profile = await t.must('profiles.add', {
      name: 'Customer Job Shop',
      baseUrl: remote.url,
      apiKey: remote.apiKey,
      serviceIdentifier: 'customer-job-shop',
    });
    await t.must('profiles.select', { id: profile.id });
    profileId = profile.id;
  });
  afterAll(async () => {
    await t.close();
    await remote.close();
  });

  const madeWith = (note: string): string[] =>
    remote.store
      .inspect('SELECT keys.value FROM keys JOIN notes ON notes.id = keys.note_id WHERE notes.text = ? ORDER BY keys.value', note)
      .map((r) => String(r.value));

  /** A generate job of two requests for `customer`, run to its end and its writes done. */
  const generateFor = async (note: string, customer: CustomerRef) => {
    const job = await t.must('jobs.start', { action: 'generate', count: COUNT, expire: '2099-05-31', isPremium: false, note, customer });
    await t.core.jobs.settled(job.id);
    await t.core.writer.idle();
    return job;
  };

  it('links every key the job made to the customer named by fields', async () => {
    const note = 'Ada Job (job)';
    const job = await generateFor(note, { fields });
    expect(await t.must('jobs.get', { jobId: job.id })).toMatchObject({ state: 'finished', counts: { done: COUNT } });

    const made = madeWith(note);
    expect(made).toHaveLength(COUNT);
    const ada = t.core.db.findCustomerByContact(profileId, fields);
    expect(ada).toMatchObject({ name: 'Ada Job', email: 'ada@example.com' });
    expect(t.core.db.customerKeys(profileId, ada?.id ?? -1)).toEqual(made);
    expect(t.core.db.customer(profileId, ada?.id ?? -1)?.keys).toEqual({ generated: COUNT, active: 0, deleted: 0, unrecorded: 0 });
    expect(t.core.db.listAudit({ action: 'customers.link' }, 0, 5).entries).toMatchObject([
      { outcome: 'ok', target: `the keys of generate job ${job.id} to Ada Job (customer ${ada?.id ?? -1})` },
    ]);
  });

  it('links a second job to a customer by id, keeping earlier keys', async () => {
    const ada = t.core.db.findCustomerByContact(profileId, fields);
    const note = 'Ada Job (second job)';
    await generateFor(note, { id: ada?.id ?? -1 });
    expect(t.core.db.customerCount(profileId)).toBe(1);
    expect(t.core.db.customer(profileId, ada?.id ?? -1)?.keys.generated).toBe(COUNT * 2);
    const second = new Set(madeWith(note));
    expect(t.core.db.customerKeys(profileId, ada?.id ?? -1).filter((v) => second.has(v))).toHaveLength(COUNT);
  });
});
