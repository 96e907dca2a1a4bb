// Activity's record of an act whose answer was lost: a push, a delete of one key, and a bulk delete's keys that
// the real sandbox applied but whose answers never came back are written 'unknown' (may or may not have taken
// effect), not 'failed'; the Outcome filter finds them under Unknown only; a refusal the service stated stays
// 'failed'. Against the real sandbox, behind a loopback server that forwards every request and, while muted,
// drops the answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchValues } from '../../src/shared/key-batch.ts';
import { startTestCore, type TestCore } from '../support/core.ts';
import { startRelay, type Relay } from '../support/relay.ts';
import { startRemoteSandbox, type RemoteSandbox } from '../support/remote-sandbox.ts';

const IDENTIFIER = 'lost-answers';
let t: TestCore;
let remote: RemoteSandbox;
let relay: Relay;
/** While true the request still reaches the sandbox (and is applied there), but its answer is dropped. */
let mute = false;

beforeAll(async () => {
  remote = await startRemoteSandbox({ name: 'Lost Answers', identifier: IDENTIFIER });
  relay = await startRelay(remote.url, (_req, pass) => {
    pass(!mute);
  });
  const base = relay.url;
  // A short wait for an answer (the client's own option), so "no answer" comes within the test's time.
  t = await startTestCore({ clientOptions: { timeouts: { connectMs: 5_000, headersMs: 1_000, bodyMs: 1_000 }, retryDelaysMs: [] } });
  const profile = await t.must('profiles.add', {
    name: 'Lost Answers',
    baseUrl: base,
    apiKey: remote.apiKey,
    serviceIdentifier: IDENTIFIER,
  });
  await t.must('profiles.select', { id: profile.id });
});
afterAll(async () => {
  await t.close();
  await relay.close();
  await remote.close();
});

const outcomes = async (action: string, outcome?: 'ok' | 'failed' | 'unknown') =>
  (await t.must('audit.list', { filter: { action, ...(outcome ? { outcome } : {}) }, offset: 0, limit: 100 })).entries.map((e) => [
    e.target,
    e.outcome,
  ]);

describe('acts whose answer was lost, in the activity log', () => {
  it('records an unconfirmed push as unknown, found only under Unknown', async () => {
    const before = (await t.must('executions.get')).executionCount;
    mute = true;
    const r = await t.call('executions.push');
    mute = false;
    expect(r).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN' });
    await relay.settled();
    expect((await t.must('executions.get')).executionCount).toBe(before + 1);
    expect((await outcomes('executions.push')).map(([, o]) => o)).toEqual(['unknown']);
    expect(await outcomes('executions.push', 'unknown')).toHaveLength(1);
    expect(await outcomes('executions.push', 'failed')).toEqual([]);
  });

  it('records an unanswered delete as unknown, a refused one as failed', async () => {
    const [lost] = batchValues(
      (await t.must('keys.generate', { expire: '2099-01-31', count: 1, isPremium: false, note: 'lost delete' })).generated,
    );
    if (!lost) throw new Error('no key made');
    mute = true;
    expect(await t.call('keys.delete', { keyValue: lost, state: 'generated' })).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN' });
    mute = false;
    await relay.settled();
    expect(remote.store.inspect('SELECT value FROM keys WHERE value = ?', lost)).toEqual([]);
    const refused = await t.call('keys.delete', { keyValue: lost, state: 'generated' });
    expect(refused.ok).toBe(false);
    expect(await outcomes('keys.delete')).toEqual([
      [lost, 'failed'],
      [lost, 'unknown'],
    ]);
  });

  it('counts the unanswered keys of a bulk delete as unknown', async () => {
    const keys = batchValues(
      (await t.must('keys.generate', { expire: '2099-01-31', count: 3, isPremium: false, note: 'lost bulk' })).generated,
    );
    mute = true;
    const job = await t.must('jobs.start', { action: 'delete', target: { keyValues: keys } });
    await t.core.jobs.settled(job.id);
    mute = false;
    await relay.settled();
    expect((await t.must('jobs.get', { jobId: job.id })).counts.unknown).toBe(3);
    expect(remote.store.inspect(`SELECT value FROM keys WHERE value IN (${keys.map(() => '?').join(', ')})`, ...keys)).toEqual([]);
    // The act's one entry: unknown, its three keys counted so, and not found as failed.
    const jobIds = async (outcome: 'unknown' | 'failed') =>
      (await t.must('audit.list', { filter: { outcome }, offset: 0, limit: 100 })).entries.map((e) => e.job?.id);
    const bulk = (await t.must('audit.list', { filter: { action: 'keys.delete' }, offset: 0, limit: 100 })).entries.filter((e) => e.job);
    expect(bulk).toMatchObject([{ outcome: 'unknown', job: { id: job.id, counts: { unknown: 3, done: 0, failed: 0 } } }]);
    expect(await jobIds('unknown')).toContain(job.id);
    expect(await jobIds('failed')).not.toContain(job.id);
  });
});
