// A refresh job against a real sandbox where keys were changed behind Keydesk's back (activated, HWID reset and
// rebound, reset, extended, deleted): it finds exactly those, says them in counts, and the ledger follows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/main/client/service-client.ts';
import { batchValues } from '../../src/shared/key-batch.ts';
import { refreshCountsWords } from '../../src/shared/job-words.ts';
import { startTestCore, type TestCore } from '../support/core.ts';
import { startRemoteSandbox, type RemoteSandbox } from '../support/remote-sandbox.ts';

describe('a refresh job', () => {
  let t: TestCore;
  let remote: RemoteSandbox;
  let profileId: string;
  let keys: string[];
  let behind: ServiceClient;
  const activate = async (value: string, hwid: string): Promise<void> => {
    const url = `${remote.url}/v2_validation?key=${value}&service=refresh-shop&hwid=${hwid}`;
    const body = (await (await fetch(url)).json()) as { V2_Authentication: string };
    expect(body.V2_Authentication).toBe('success');
  };

  beforeAll(async () => {
    remote = await startRemoteSandbox({ name: 'Refresh Shop', identifier: 'refresh-shop' });
    t = await startTestCore();
    const profile = await t.must('profiles.add', {
      name: 'Refresh Shop',
      baseUrl: remote.url,
      apiKey: remote.apiKey,
      serviceIdentifier: 'refresh-shop',
    });
    await t.must('profiles.select', { id: profile.id });
    profileId = profile.id;
    keys = batchValues(
      (await t.must('keys.generate', { expire: '2099-01-31', count: 8, isPremium: false, note: 'Refresh Batch' })).generated,
    );
    keys.sort();
    for (const [i, v] of keys.slice(0, 4).entries()) await activate(v, `HW-${i}`);
    // The ledger sees keys 0–3 active with their HWIDs, 4–7 generated.
    await t.must('keys.lookup', { term: 'Refresh Batch' });
    await t.core.writer.idle();
    behind = new ServiceClient({ baseUrl: remote.url, validationUrl: `${remote.url}/v2_validation`, apiKey: remote.apiKey });
  });
  afterAll(async () => {
    await t.close();
    await remote.close();
  });

  it('finds exactly the keys changed elsewhere and marks the deleted one', async () => {
    const [k0, k1, k2, k3, k4] = keys as [string, string, string, string, string];
    expect((await behind.resetHwid(k0)).ok).toBe(true);
    await activate(k0, 'HW-NEW');
    expect((await behind.resetHwid(k1)).ok).toBe(true);
    expect((await behind.extend(k2, 5)).ok).toBe(true);
    expect((await behind.deleteKey(k3, false)).ok).toBe(true);
    await activate(k4, 'HW-4');

    const job = await t.must('refresh.start', { target: { filter: { text: 'Refresh Batch' } } });
    await t.core.jobs.settled(job.id);
    expect(await t.must('jobs.get', { jobId: job.id })).toMatchObject({ action: 'refresh', state: 'finished', counts: { done: 8 } });

    const { counts } = await t.must('refresh.changes', { jobId: job.id });
    expect(counts).toEqual({ activated: 1, hwidChanged: 1, hwidCleared: 1, extended: 1, deleted: 1 });
    expect(refreshCountsWords(counts)).toBe('1 newly active, 1 HWID changed, 1 HWID cleared, 1 extended, 1 deleted elsewhere');
    const listed = await t.must('jobs.items', { jobId: job.id, noted: true, offset: 0, limit: 100 });
    expect(Object.fromEntries(listed.items.map((i) => [i.target, i.message]))).toEqual({
      [k0]: 'HWID changed',
      [k1]: 'HWID cleared',
      [k2]: 'Extended',
      [k3]: 'Deleted elsewhere',
      [k4]: 'Newly active',
    });

    await t.core.writer.idle();
    const rows = new Map([...t.core.db.iterateLedgerKeys(profileId, keys)].map((r) => [r.value, r]));
    expect(rows.get(k0)).toMatchObject({ status: 'active', hwid: 'HW-NEW' });
    expect(rows.get(k1)).toMatchObject({ status: 'active', hwid: null });
    expect(rows.get(k3)).toMatchObject({ status: 'deleted' });
    expect(rows.get(k4)).toMatchObject({ status: 'active', hwid: 'HW-4' });
    const expiresMs = Number(remote.store.inspect('SELECT expires_at FROM keys WHERE value = ?', k2)[0]?.expires_at);
    expect(rows.get(k2)?.expiresAt).toBe(new Date(expiresMs).toISOString());

    // Read again with nothing changed since, a refresh finds nothing.
    const again = await t.must('refresh.start', { target: { keyValues: keys } });
    await t.core.jobs.settled(again.id);
    expect((await t.must('refresh.changes', { jobId: again.id })).counts).toEqual({
      activated: 0,
      hwidChanged: 0,
      hwidCleared: 0,
      extended: 0,
      deleted: 0,
    });
    expect((await t.must('jobs.items', { jobId: again.id, noted: true, offset: 0, limit: 100 })).total).toBe(0);
  });
});
