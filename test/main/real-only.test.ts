// Every operation through the handlers with a remote profile on a real-only sandbox: it ignores
// `Keydesk-Detail: full` and answers exactly like the hosted service (wire.md "Real dialect"). Every operation
// must work, and where the dialect gives less, the result says so (total null, fields named as unreported).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Key } from '../../src/shared/domain.ts';
import { startTestCore, type TestCore } from '../support/core.ts';
import { startRemoteSandbox, type RemoteSandbox } from '../support/remote-sandbox.ts';
import { batchValues, keysOf } from '../../src/shared/key-batch.ts';

let t: TestCore;
let remote: RemoteSandbox;

const call: TestCore['call'] = (name, input) => t.call(name, input);
const must: TestCore['must'] = (name, input) => t.must(name, input);

beforeAll(async () => {
  remote = await startRemoteSandbox({ name: 'Real Shop', identifier: 'real-shop' }, { realOnly: true });
  t = await startTestCore();
  // The official client's own base, with /api: the same service.
  const profile = await must('profiles.add', {
    name: 'Real Shop',
    baseUrl: `${remote.url}/api`,
    apiKey: remote.apiKey,
    serviceIdentifier: 'real-shop',
  });
  expect(profile.baseUrl).toBe(remote.url);
  await must('profiles.select', { id: profile.id });
});
afterAll(async () => {
  await t.close();
  await remote.close();
});

describe('a remote profile on a real-only sandbox: every operation works', () => {
  let keys: Key[] = [];

  it('pushes and reads the execution count, re-reading it after a push', async () => {
    expect(await must('executions.get')).toMatchObject({ executionCount: 0 });
    expect(await must('executions.push')).toEqual({ executionCount: 1, sampledAt: expect.any(String) as unknown });
    expect(await must('executions.get')).toMatchObject({ executionCount: 1 });
  });

  it('generates keys: generated, with what the service did not report named', async () => {
    keys = keysOf((await must('keys.generate', { expire: '2099-06-30', count: 3, isPremium: true, note: 'Real batch' })).generated);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatchObject({ status: 'generated', isPremium: true, note: 'Real batch', expire: '2099-06-30', createdAt: null });
    expect(keys[0]?.unreported).toContain('createdAt');
  });

  it('generates a days key with no expiry until activation', async () => {
    const [k] = keysOf(
      (
        await must('keys.generate', {
          expire: '2099-06-30',
          count: 1,
          isPremium: false,
          note: 'Days real',
          expiresByDaysKey: true,
          daysKey: 45,
        })
      ).generated,
    );
    expect(k).toMatchObject({ status: 'generated', expiresAt: null, expire: null, daysKey: null });
    expect(k?.unreported).toContain('daysKey');
  });

  it('looks up generated keys by note, saying it found the best match', async () => {
    const found = await must('keys.lookup', { term: 'real batch' });
    expect(found.active).toEqual([]);
    expect(found.generated).toHaveLength(1);
    expect(keys.map((k) => k.value)).toContain(found.generated[0]?.value);
    expect(found.bestMatchOnly).toBe(true);
  });

  it('checks identifiers (taken and free)', async () => {
    expect(await must('identifier.check', { identifier: 'REAL-SHOP' })).toEqual({ exists: true, service: 'Real Shop' });
    expect(await must('identifier.check', { identifier: 'nobody-has-this' })).toEqual({ exists: false, service: null });
  });

  it('refuses validation without consent, then validates for real: activated and bound', async () => {
    const input = { mode: 'key' as const, keyValue: keys[0]?.value, hwid: { custom: 'HW-REAL-1' } };
    expect(await call('validation.run', input)).toMatchObject({ ok: false, code: 'NEEDS_CONFIRMATION' });
    const report = await must('validation.run', { ...input, confirmActivation: true });
    expect(report).toMatchObject({
      outcome: 'success',
      success: true,
      premium: true,
      hwid: 'HW-REAL-1',
      notes: 'Real batch',
      registeredServiceId: 'real-shop',
    });
    const other = await must('validation.run', { ...input, hwid: { custom: 'HW-OTHER' }, confirmActivation: true });
    expect(other).toMatchObject({ outcome: 'hwid_mismatch', success: false, premium: false });
  });

  it('looks the active key up by HWID and value', async () => {
    const byHwid = await must('keys.lookup', { term: 'HW-REAL-1' });
    expect(byHwid.active.map((k) => [k.value, k.status, k.hwid])).toEqual([[keys[0]?.value, 'active', 'HW-REAL-1']]);
    expect(byHwid.active[0]?.unreported).toEqual(['createdAt', 'activatedAt', 'daysKey']);
  });

  it('extends the active key', async () => {
    const r = await must('keys.extend', { keyValue: keys[0]?.value ?? '', days: 10 });
    expect(r.key).toMatchObject({ value: keys[0]?.value, status: 'active', expiresAt: '2099-07-10T23:59:59.999Z' });
  });

  it('extends a generated key (its status is read back)', async () => {
    const r = await must('keys.extend', { keyValue: keys[1]?.value ?? '', days: 1 });
    expect(r.key).toMatchObject({ value: keys[1]?.value, status: 'generated', expiresAt: '2099-07-01T23:59:59.999Z' });
  });

  it('resets the HWID, reading the key back after a {message} answer', async () => {
    const r = await must('keys.resetHwid', { keyValue: keys[0]?.value ?? '' });
    expect(r.key).toMatchObject({ value: keys[0]?.value, status: 'active', hwid: null });
    expect(r.key?.lastResetAt).not.toBeNull();
  });

  it('deletes an active key and a generated one', async () => {
    expect(await must('keys.delete', { keyValue: keys[0]?.value ?? '', state: 'active' })).toEqual({ deletedKey: keys[0]?.value });
    expect(await must('keys.delete', { keyValue: keys[1]?.value ?? '', state: 'generated' })).toEqual({ deletedKey: keys[1]?.value });
    expect(await must('keys.lookup', { term: keys[0]?.value ?? '' })).toEqual({ active: [], generated: [] });
  });

  it('adds, finds, validates and deletes a keyless entry', async () => {
    expect(await must('keyless.add', { hwid: 'KL-REAL-1', isPremium: true, days: 5 })).toMatchObject({
      entry: { hwid: 'KL-REAL-1', isPremium: true },
    });
    const found = await must('keyless.lookup', { term: 'KL-REAL' });
    expect(found).toMatchObject({
      total: null,
      entries: [{ hwid: 'KL-REAL-1', createdAt: null, unreported: ['createdAt', 'lastUsedAt'] }],
    });
    const report = await must('validation.run', { mode: 'keyless', hwid: { custom: 'KL-REAL-1' }, confirmActivation: true });
    expect(report).toMatchObject({ outcome: 'success', keyless: true, premium: true });
    expect(await must('keyless.delete', { hwid: 'KL-REAL-1' })).toBeNull();
    expect(await must('keyless.lookup', { term: 'KL-REAL' })).toEqual({ entries: [], total: 0 });
  });

  it('runs bulk extend, reset and delete', async () => {
    const batch = batchValues(
      (await must('keys.generate', { expire: '2099-01-31', count: 3, isPremium: false, note: 'Bulk real' })).generated,
    );
    for (const [i, value] of batch.entries())
      await must('validation.run', { mode: 'key', keyValue: value, hwid: { custom: `HW-BULK-${i}` }, confirmActivation: true });
    for (const action of ['extend', 'resetHwid', 'delete'] as const) {
      const target = { keyValues: batch };
      const job = await must('jobs.start', action === 'extend' ? { action, target, days: 2 } : { action, target });
      await t.core.jobs.settled(job.id);
      const { items } = await must('jobs.items', { jobId: job.id, offset: 0, limit: 10 });
      expect(items.map((i) => [i.target, i.state, i.code])).toEqual(batch.map((v) => [v, 'done', null]));
    }
    expect((await must('keys.lookup', { term: 'Bulk real' })).active).toEqual([]);
  });
});
