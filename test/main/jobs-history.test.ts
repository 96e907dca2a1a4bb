// A profile's job history through dispatch on a real core (the embedded sandbox): jobs.list's newest jobs and the
// older ones on request; jobs.forget, where a stopped job leaves the list with its items and its record of the keys
// it made, while the keys stay in the ledger and every request in the audit log; a job still running is refused,
// and another profile's job is not found.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_PROFILE_ID } from '../../src/main/core.ts';
import type { JobSummary } from '../../src/shared/domain.ts';
import { startTestCore, type TestCore } from '../support/core.ts';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(async () => {
  await t.close();
});

const settled = async (jobId: string): Promise<JobSummary> => {
  await t.core.jobs.settled(jobId);
  return t.must('jobs.get', { jobId });
};

describe('forgetting a job', () => {
  it('removes a finished job from the list with its items, and leaves the keys in the ledger and the requests in the audit log', async () => {
    const made = await t.must('jobs.start', { action: 'generate', count: 30, expire: '2099-01-01', isPremium: false, note: 'forget me' });
    expect(await settled(made.id)).toMatchObject({ state: 'finished', counts: { done: 30 } });
    const extend = await t.must('jobs.start', { action: 'extend', target: { filter: { text: 'forget me' } }, days: 1 });
    expect(await settled(extend.id)).toMatchObject({ state: 'finished', counts: { done: 30 } });
    const auditBefore = (await t.must('audit.list', { filter: {}, offset: 0, limit: 1 })).total;

    expect(await t.must('jobs.forget', { jobId: extend.id })).toBeNull();

    const { jobs } = await t.must('jobs.list');
    expect(jobs.map((j) => j.id)).toEqual([made.id]);
    expect(await t.call('jobs.get', { jobId: extend.id })).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect(await t.call('jobs.items', { jobId: extend.id, offset: 0, limit: 10 })).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect(t.core.db.jobItems(extend.id, undefined, 0, 10)).toEqual({ items: [], total: 0 });
    await t.core.ledger.idle();
    const ledger = await t.must('ledger.query', { filter: { text: 'forget me' }, sort: { field: 'value', dir: 'asc' }, offset: 0, limit: 100 });
    expect(ledger.total).toBe(30);
    expect(ledger.rows.every((r) => r.expiresAt?.startsWith('2099-01-02'))).toBe(true);
    expect((await t.must('audit.list', { filter: {}, offset: 0, limit: 1 })).total).toBe(auditBefore);

    // A generate job forgotten: its keys stay in the ledger; its record of them goes.
    await t.must('jobs.forget', { jobId: made.id });
    expect((await t.must('jobs.list')).jobs).toEqual([]);
    expect([...t.core.db.iterateJobKeys(made.id, SANDBOX_PROFILE_ID)]).toEqual([]);
    expect((await t.must('ledger.query', { filter: { text: 'forget me' }, sort: { field: 'value', dir: 'asc' }, offset: 0, limit: 1 })).total).toBe(30);
  });

  it('refuses a job main still runs, in words, and removes it once it has stopped', async () => {
    await t.must('keys.generate', { expire: '2099-01-01', count: 1_000, isPremium: false, note: 'forget running' });
    await t.core.ledger.idle();
    await t.must('jobs.setCeiling', { profileId: SANDBOX_PROFILE_ID, ceiling: 1 });
    try {
      const started = await t.must('jobs.start', { action: 'extend', target: { filter: { text: 'forget running' } }, days: 1 });
      const refused = await t.call('jobs.forget', { jobId: started.id });
      expect(refused).toMatchObject({ ok: false, code: 'CONFLICT', message: 'That job is still running: cancel it and wait for it to end, then remove it.' });
      await t.must('jobs.cancel', { jobId: started.id });
      const stopped = await settled(started.id);
      expect(stopped.state).toBe('cancelled');
      await t.must('jobs.forget', { jobId: started.id });
      expect((await t.must('jobs.list')).jobs.some((j) => j.id === started.id)).toBe(false);
    } finally {
      await t.must('jobs.setCeiling', { profileId: SANDBOX_PROFILE_ID, ceiling: null });
    }
  });

  it("does not find another profile's job, and refuses an id that is not a job's", async () => {
    const job = await t.must('jobs.start', { action: 'delete', target: { keyValues: ['NOT-A-KEY-1'] } });
    await settled(job.id);
    expect(t.core.jobs.forget('another-profile', job.id)).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect((await t.must('jobs.list')).jobs.some((j) => j.id === job.id)).toBe(true);
    expect(await t.call('jobs.forget', { jobId: '6f1d2c3b-4a59-4e68-9b7a-8c9d0e1f2a3b' })).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect(await t.call('jobs.forget', { jobId: 'not-a-uuid' })).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
  });
});

describe('listing older jobs', () => {
  it('lists the 20 newest with how many older ones are left out, and those too when asked', async () => {
    for (const j of (await t.must('jobs.list')).jobs) await t.must('jobs.forget', { jobId: j.id });
    const ids: string[] = [];
    for (let i = 0; i < 23; i++) {
      const job = await t.must('jobs.start', { action: 'delete', target: { keyValues: [`NOT-A-KEY-H${String(i).padStart(2, '0')}`] } });
      await settled(job.id);
      ids.push(job.id);
    }
    const first = await t.must('jobs.list');
    expect(first.jobs).toHaveLength(20);
    expect(first.unlisted).toBe(3);
    // Newest first; the three oldest are the ones left out.
    expect(first.jobs.map((j) => j.id)).toEqual(ids.slice(3).reverse());
    const all = await t.must('jobs.list', { recent: 40 });
    expect(all.jobs.map((j) => j.id)).toEqual([...ids].reverse());
    expect(all.unlisted).toBeUndefined();
    expect(await t.call('jobs.list', { recent: 0 })).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
  });
});
