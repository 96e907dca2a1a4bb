// Key edits through the handlers against a real sandbox standing in for a remote service: note, premium, any machine
// and a generated key's term, one key from the panel and many as a bulk job, with the ledger recording the new values.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchValues } from '../../src/shared/key-batch.ts';
import { startTestCore, type TestCore } from '../support/core.ts';
import { startRemoteSandbox, type RemoteSandbox } from '../support/remote-sandbox.ts';

let t: TestCore;
let remote: RemoteSandbox;
let profileId: string;

const ledgerRow = async (value: string) => {
  await t.core.writer.idle();
  const page = await t.must('ledger.query', { filter: { text: value }, sort: { field: 'value', dir: 'asc' }, offset: 0, limit: 5 });
  return page.rows.find((r) => r.value === value);
};
const generate = async (count: number, note: string): Promise<string[]> =>
  batchValues((await t.must('keys.generate', { expire: '2099-01-31', count, isPremium: false, note })).generated);
const activate = (keyValue: string, hwid: string) =>
  t.must('validation.run', { mode: 'key', keyValue, hwid: { custom: hwid }, confirmActivation: true });

beforeAll(async () => {
  remote = await startRemoteSandbox({ name: 'Edit Shop', identifier: 'edit-shop' });
  t = await startTestCore();
  const profile = await t.must('profiles.add', {
    name: 'Edit Shop',
    baseUrl: remote.url,
    apiKey: remote.apiKey,
    serviceIdentifier: 'edit-shop',
  });
  profileId = profile.id;
  // The check the add started: what it finds decides what the edits may use.
  expect((await t.must('service.capabilities', { profileId })).capabilities.keyEdit?.state).toBe('present');
  await t.must('profiles.select', { id: profile.id });
});
afterAll(async () => {
  await t.close();
  await remote.close();
});

describe('editing one key', () => {
  it("changes a generated key's note, premium and any machine, ledger included", async () => {
    const [value = ''] = await generate(1, 'Before edit');
    const { key } = await t.must('keys.edit', {
      keyValue: value,
      state: 'generated',
      note: 'After edit',
      isPremium: true,
      noHwidValidation: true,
    });
    expect(key).toMatchObject({ value, note: 'After edit', isPremium: true, noHwidValidation: true, status: 'generated' });
    expect(await ledgerRow(value)).toMatchObject({ note: 'After edit', isPremium: true });
    // Any machine: it validates from two HWIDs, and is never bound.
    expect((await activate(value, 'HW-ONE')).outcome).toBe('success');
    expect((await activate(value, 'HW-TWO')).outcome).toBe('success');
  });

  it("edits a generated key's term, and an active key's note, not term", async () => {
    const [fixed = '', active = ''] = await generate(2, 'Terms');
    const { key } = await t.must('keys.edit', { keyValue: fixed, state: 'generated', expiresByDaysKey: true, daysKey: 45 });
    expect(key).toMatchObject({ expiresByDaysKey: true, daysKey: 45, expiresAt: null });
    await activate(active, 'HW-TERM');
    const edited = await t.must('keys.edit', { keyValue: active, state: 'active', note: 'Active now' });
    expect(edited.key).toMatchObject({ note: 'Active now', status: 'active', hwid: 'HW-TERM' });
    const term = await t.call('keys.edit', { keyValue: active, state: 'active', daysKey: 10 });
    expect(term).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
  });

  it('answers not found for a key in the other state, audited once', async () => {
    const [value = ''] = await generate(1, 'Wrong state');
    const r = await t.call('keys.edit', { keyValue: value, state: 'active', note: 'x' });
    expect(r).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    const audit = await t.must('audit.list', { filter: { action: 'keys.edit', text: value }, offset: 0, limit: 10 });
    expect(audit.entries.map((e) => e.outcome)).toEqual(['failed']);
  });
});

describe('a bulk edit job', () => {
  it('edits active and generated keys alike; the ledger records the new values', async () => {
    const values = await generate(4, 'Bulk before');
    await activate(values[0] ?? '', 'HW-BULK-0');
    await activate(values[1] ?? '', 'HW-BULK-1');
    const job = await t.must('jobs.start', {
      action: 'edit',
      target: { keyValues: values },
      edit: { note: 'Bulk after', isPremium: true },
    });
    await t.core.jobs.settled(job.id);
    expect(await t.must('jobs.get', { jobId: job.id })).toMatchObject({ state: 'finished', counts: { done: 4 } });
    for (const v of values) expect(await ledgerRow(v)).toMatchObject({ note: 'Bulk after', isPremium: true });
    const found = await t.must('keys.lookup', { term: 'Bulk after' });
    expect(found.active).toHaveLength(2);
    expect(found.generated).toHaveLength(2);
  });

  it('is refused where the service has no edit endpoint', async () => {
    await t.core.writer.run('capabilities', {
      profileId,
      found: {
        keyEdit: { state: 'absent', checkedAt: new Date().toISOString(), evidence: 'HTTP 404 with an HTML page.' },
        generatedKeyEdit: { state: 'absent', checkedAt: new Date().toISOString(), evidence: 'HTTP 404 with an HTML page.' },
      },
    });
    const r = await t.call('jobs.start', { action: 'edit', target: { keyValues: ['ANY-KEY'] }, edit: { note: 'x' } });
    expect(r).toMatchObject({ ok: false, code: 'UNSUPPORTED' });
  });
});
