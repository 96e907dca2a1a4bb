// A generate job of two requests against a real sandbox, in each dialect the client may meet (wire.md: the detail
// one, and the real one a service that ignores Keydesk-Detail answers in): each answer is read off main by the
// ledger writer, and the ledger and the job's key export hold exactly the keys the service made.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATE_BATCH } from '../../src/main/jobs/job-service.ts';
import { startTestCore, type TestCore } from '../support/core.ts';
import { startRemoteSandbox, type RemoteSandbox } from '../support/remote-sandbox.ts';

const COUNT = GENERATE_BATCH + 7;

describe.each(['detail', 'real'] as const)('a generate job of two requests (%s dialect)', (dialect) => {
  let t: TestCore;
  let remote: RemoteSandbox;
  let profileId: string;
  beforeAll(async () => {
    remote = await startRemoteSandbox({ name: 'Job Shop', identifier: `job-shop-${dialect}` }, { realOnly: dialect === 'real' });
    t = await startTestCore();
    const profile = await t.must('profiles.add', { name: 'Job Shop', baseUrl: remote.url, apiKey: remote.apiKey, serviceIdentifier: `job-shop-${dialect}` });
    await t.must('profiles.select', { id: profile.id });
    profileId = profile.id;
  });
  afterAll(async () => {
    await t.close();
    await remote.close();
  });

  it("records exactly the service's keys in the ledger and in the job's key export", async () => {
    const note = `two requests ${dialect}`;
    const started = await t.must('jobs.start', { action: 'generate', count: COUNT, expire: '2099-05-31', isPremium: true, note });
    await t.core.jobs.settled(started.id);
    expect((await t.must('jobs.items', { jobId: started.id, offset: 0, limit: 10 })).items).toEqual([
      { seq: 1, target: 'batch 1', size: GENERATE_BATCH, state: 'done', code: null, message: null },
      { seq: 2, target: 'batch 2', size: 7, state: 'done', code: null, message: null },
    ]);
    expect(await t.must('jobs.get', { jobId: started.id })).toMatchObject({ state: 'finished', counts: { done: COUNT, unknown: 0, failed: 0 } });

    const made = remote.store
      .inspect('SELECT keys.value FROM keys JOIN notes ON notes.id = keys.note_id WHERE notes.text = ? ORDER BY keys.value', note)
      .map((r) => String(r.value));
    expect(made).toHaveLength(COUNT);

    await t.core.ledger.idle();
    const ledger = t.core.db.queryLedger(profileId, { text: note }, { field: 'value', dir: 'asc' }, 0, COUNT + 10, { exact: true });
    expect(ledger.total).toBe(COUNT);
    expect(ledger.rows.map((r) => r.value)).toEqual(made);
    expect(ledger.rows[0]).toMatchObject({ note, status: 'generated', isPremium: true });

    const exported = await t.must('jobs.export', { jobId: started.id, format: 'json', what: 'keys' });
    const rows = JSON.parse(readFileSync(exported.path ?? '', 'utf8')) as { value: string; note: string; status: string }[];
    expect(rows.map((r) => r.value)).toEqual(made);
    expect(rows.every((r) => r.note === note && r.status === 'generated')).toBe(true);
  });
});
