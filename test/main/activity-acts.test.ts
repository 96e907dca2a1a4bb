// Activity's entries on a real core (the embedded sandbox): one entry per act, a bulk act's with its counts (kept
// once its job is removed), found by service and by each outcome its keys had; an act on one key with the value
// the ledger held before it and the value read after it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_PROFILE_ID } from '../../src/main/core.ts';
import type { AuditEntry } from '../../src/shared/domain.ts';
import { keysOf } from '../../src/shared/key-batch.ts';
import { startTestCore, type TestCore } from '../support/core.ts';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(async () => {
  await t.close();
});

const entries = async (filter: { action?: string; outcome?: AuditEntry['outcome']; profileId?: string }): Promise<AuditEntry[]> =>
  (await t.must('audit.list', { filter, offset: 0, limit: 100 })).entries;

describe('a bulk act in Activity', () => {
  it('is one entry with its counts, kept after its job is removed', async () => {
    const made = await t.must('jobs.start', { action: 'generate', count: 40, expire: '2099-01-01', isPremium: false, note: 'one line' });
    await t.core.jobs.settled(made.id);
    await t.core.writer.idle();
    const values = t.core.db.ledgerValues(SANDBOX_PROFILE_ID, { text: 'one line' }, 100).values;
    expect(values).toHaveLength(40);
    const extend = await t.must('jobs.start', { action: 'extend', target: { keyValues: [...values, 'KD-NOT-ON-THE-SERVICE'] }, days: 7 });
    await t.core.jobs.settled(extend.id);

    const counts = { done: 40, failed: 1, unknown: 0, pending: 0, sent: 0 };
    expect(await entries({ action: 'keys.extend' })).toMatchObject([
      { target: '41 keys by 7 days', outcome: 'failed', job: { id: extend.id, state: 'finished', kept: true, counts } },
    ]);
    expect(await entries({ action: 'keys.generate' })).toMatchObject([
      { target: '40 keys: one line', outcome: 'ok', job: { id: made.id, counts: { done: 40, failed: 0, unknown: 0 } } },
    ]);
    // Found under each outcome its keys had, and under its service only.
    expect((await entries({ action: 'keys.extend', outcome: 'ok' })).map((e) => e.job?.id)).toEqual([extend.id]);
    expect((await entries({ action: 'keys.extend', outcome: 'failed' })).map((e) => e.job?.id)).toEqual([extend.id]);
    expect(await entries({ action: 'keys.extend', outcome: 'unknown' })).toEqual([]);
    expect((await entries({ action: 'keys.extend', profileId: SANDBOX_PROFILE_ID })).map((e) => e.job?.id)).toEqual([extend.id]);
    expect(await entries({ action: 'keys.extend', profileId: 'another-service' })).toEqual([]);

    await t.must('jobs.forget', { jobId: extend.id });
    expect(await entries({ action: 'keys.extend' })).toMatchObject([{ job: { id: extend.id, state: null, kept: false, counts } }]);
  });
});

describe('an act on one key in Activity', () => {
  it('says the HWID before a reset and the expiry before an extend', async () => {
    const [key] = keysOf((await t.must('keys.generate', { expire: '2099-06-30', count: 1, isPremium: false, note: 'before' })).generated);
    const value = key?.value ?? '';
    await t.must('validation.run', { mode: 'key', keyValue: value, hwid: { custom: 'HW-BEFORE-RESET' }, dryRun: false });
    await t.must('keys.lookup', { term: value });
    await t.core.writer.idle();
    const expiry = t.core.db.queryLedger(SANDBOX_PROFILE_ID, { text: value }, { field: 'value', dir: 'asc' }, 0, 1).rows[0]?.expiresAt;
    expect(expiry).toEqual(expect.any(String));

    await t.must('keys.resetHwid', { keyValue: value });
    const extended = await t.must('keys.extend', { keyValue: value, days: 30 });
    expect(extended.key?.expiresAt).not.toBe(expiry);

    expect((await entries({ action: 'keys.resetHwid' })).map((e) => [e.target, e.change])).toEqual([
      [value, { before: { hwid: 'HW-BEFORE-RESET' }, after: { hwid: null } }],
    ]);
    expect((await entries({ action: 'keys.extend' })).filter((e) => e.target === value).map((e) => e.change)).toEqual([
      { before: { expiresAt: expiry }, after: { expiresAt: extended.key?.expiresAt } },
    ]);
  });

  it('leaves the value before out when Keydesk never read the key', async () => {
    const refused = await t.call('keys.resetHwid', { keyValue: 'KD-NEVER-READ' });
    expect(refused.ok).toBe(false);
    expect((await entries({ action: 'keys.resetHwid' })).find((e) => e.target === 'KD-NEVER-READ')).toMatchObject({
      outcome: 'failed',
      change: { before: {}, after: null },
    });
  });
});
