// "Needs a profile" is not "needs a key": operations on local data (history, ledger) work for a profile whose
// key is gone; operations that call the service say the key is missing; with no profile, every one says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_PROFILE_ID } from '../../src/main/core.ts';
import { startTestCore, type TestCore } from '../support/core.ts';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(() => t.close());

describe('a selected profile whose apiKey is gone (session-only storage after a restart)', () => {
  beforeAll(async () => {
    await t.must('executions.get');
    await t.core.secrets.delete(SANDBOX_PROFILE_ID);
    t.core.forgetClient(SANDBOX_PROFILE_ID);
  });

  it('still shows its execution history and ledger, which are local', async () => {
    const history = await t.must('executions.history', { range: 'all' });
    expect(history).toMatchObject({ samples: 1, buckets: [expect.objectContaining({ min: history.buckets[0]?.max })] });
    const ledger = await t.must('ledger.query', { filter: {}, sort: { field: 'value', dir: 'asc' }, offset: 0, limit: 5 });
    expect(ledger).toEqual({ rows: [], total: 0, totalCapped: false, targets: 0, targetsCapped: false });
  });

  it('answers every service call with KEYCHAIN_UNAVAILABLE naming the profile', async () => {
    for (const r of [
      await t.call('executions.get'),
      await t.call('keys.lookup', { term: 'x' }),
      await t.call('identifier.check', { identifier: 'demo' }),
    ]) {
      expect(r).toMatchObject({ ok: false, code: 'KEYCHAIN_UNAVAILABLE' });
      expect(!r.ok && r.message).toMatch(/No API key is stored for "Local sandbox".*Enter it again/);
    }
  });
});

describe('no profile selected', () => {
  it('answers local and service operations alike with NOT_FOUND and the same words', async () => {
    t.core.profiles.setActive('p_gone');
    const results = [
      await t.call('executions.history', { range: '1h' }),
      await t.call('jobs.list', undefined),
      await t.call('keys.generate', { expire: '2099-01-01', count: 1, isPremium: false }),
    ];
    for (const r of results)
      expect(r).toEqual({ ok: false, code: 'NOT_FOUND', message: 'No profile is selected. Choose or add a service first.' });
  });
});
