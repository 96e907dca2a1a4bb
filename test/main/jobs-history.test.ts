// A profile's job history through dispatch on a real core (the embedded sandbox): jobs.list's newest jobs and the
// older ones on request; jobs.forget, where a stopped job leaves the list with its items and its record of the keys
// it made, while the keys stay in the ledger and its one audit entry keeps its counts; a job still running is refused,
// and another profile's job is not found.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_PROFILE_ID } from '../../src/main/core.ts';
import { SANDBOX_DB_FILE } from '../../src/sandbox/paths.ts';
import type { JobState } from '../../src/shared/domain.ts';
import type { JobSummary } from '../../src/shared/domain.ts';
import { batchValues } from '../../src/shared/key-batch.ts';
import { startTestCore, type TestCore } from '../support/core.ts';
import { startRemoteSandbox } from '../support/remote-sandbox.ts';

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
  it('removes a finished job and its items, keeping ledger keys and audit', async () => {
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
    await t.core.writer.idle();
    const ledger = await t.must('ledger.query', {
      filter: { text: 'forget me' },
      sort: { field: 'value', dir: 'asc' },
      offset: 0,
      limit: 100,
    });
    expect(ledger.total).toBe(30);
    expect(ledger.rows.every((r) => r.expiresAt?.startsWith('2099-01-02'))).toBe(true);
    expect((await t.must('audit.list', { filter: {}, offset: 0, limit: 1 })).total).toBe(auditBefore);

    // A generate job forgotten: its keys stay in the ledger; its record of them goes.
    await t.must('jobs.forget', { jobId: made.id });
    expect((await t.must('jobs.list')).jobs).toEqual([]);
    expect([...t.core.db.iterateJobKeys(made.id, SANDBOX_PROFILE_ID)]).toEqual([]);
    expect(
      (await t.must('ledger.query', { filter: { text: 'forget me' }, sort: { field: 'value', dir: 'asc' }, offset: 0, limit: 1 })).total,
    ).toBe(30);
  });

  it('refuses a job main still runs, and removes it once stopped', async () => {
    await t.must('keys.generate', { expire: '2099-01-01', count: 1_000, isPremium: false, note: 'forget running' });
    await t.core.writer.idle();
    await t.must('jobs.setCeiling', { profileId: SANDBOX_PROFILE_ID, ceiling: 1 });
    try {
      const started = await t.must('jobs.start', { action: 'extend', target: { filter: { text: 'forget running' } }, days: 1 });
      const refused = await t.call('jobs.forget', { jobId: started.id });
      expect(refused).toMatchObject({
        ok: false,
        code: 'CONFLICT',
        message: 'That job is still running: cancel it and wait for it to end, then remove it.',
      });
      await t.must('jobs.cancel', { jobId: started.id });
      const stopped = await settled(started.id);
      expect(stopped.state).toBe('cancelled');
      await t.must('jobs.forget', { jobId: started.id });
      expect((await t.must('jobs.list')).jobs.some((j) => j.id === started.id)).toBe(false);
    } finally {
      await t.must('jobs.setCeiling', { profileId: SANDBOX_PROFILE_ID, ceiling: null });
    }
  });

  it("refuses another profile's job and an id that is no job's", async () => {
    const job = await t.must('jobs.start', { action: 'delete', target: { keyValues: ['NOT-A-KEY-1'] } });
    await settled(job.id);
    expect(await t.core.jobs.forget('another-profile', job.id)).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect((await t.must('jobs.list')).jobs.some((j) => j.id === job.id)).toBe(true);
    expect(await t.call('jobs.forget', { jobId: '6f1d2c3b-4a59-4e68-9b7a-8c9d0e1f2a3b' })).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect(await t.call('jobs.forget', { jobId: 'not-a-uuid' })).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
  });
});

describe('listing older jobs', () => {
  it('lists the 20 newest and counts the older ones left out', async () => {
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

  it('lists exactly 20 more on "Show older", despite older interrupted jobs shown', async () => {
    for (const j of (await t.must('jobs.list', { recent: 1_000 })).jobs) await t.must('jobs.forget', { jobId: j.id });
    // 45 stopped jobs, newest first by index; the 21st to 23rd newest were interrupted, so they are listed at any age.
    const ids = Array.from({ length: 45 }, () => randomUUID());
    ids.forEach((id, i) => {
      const createdAt = new Date(Date.UTC(2026, 0, 1, 0, 0, 45 - i)).toISOString();
      t.writable().createJob(
        { id, profileId: SANDBOX_PROFILE_ID, action: 'delete', params: '{}', createdAt },
        { keyValues: [`NOT-A-KEY-O${String(i)}`] },
      );
      const state: JobState = i >= 20 && i <= 22 ? 'interrupted' : 'finished';
      t.writable().setJobState(id, state, null, createdAt);
    });
    const first = await t.must('jobs.list');
    expect(first.jobs.map((j) => j.id)).toEqual(ids.slice(0, 23));
    expect(first.unlisted).toBe(22);
    // recent + 20 would add only 17 (three of those places hold jobs already listed): main says which recent adds 20.
    expect(first.next).toBe(43);
    const second = await t.must('jobs.list', { recent: first.next ?? 0 });
    expect(second.jobs.map((j) => j.id)).toEqual(ids.slice(0, 43));
    expect(second.unlisted).toBe(2);
    expect(second.next).toBe(45);
    const third = await t.must('jobs.list', { recent: second.next ?? 0 });
    expect(third.jobs).toHaveLength(45);
    expect(third.unlisted).toBeUndefined();
    expect(third.next).toBeUndefined();
    for (const id of ids) await t.must('jobs.forget', { jobId: id });
  });
});

describe('listing as many jobs as main lists', () => {
  it('counts older jobs left out but offers no next list at JOBS_LIST_MAX', async () => {
    const { JOBS_LIST_MAX } = await import('../../src/shared/contract.ts');
    const have = t.core.db.jobTotal(SANDBOX_PROFILE_ID);
    for (let i = have; i < JOBS_LIST_MAX + 5; i++) {
      const id = randomUUID();
      const at = new Date(Date.UTC(2019, 0, 1, 0, 0, 0, i)).toISOString();
      t.writable().createJob(
        { id, profileId: SANDBOX_PROFILE_ID, action: 'delete', params: '{}', createdAt: at },
        { keyValues: ['NOT-A-KEY-M'] },
      );
      t.writable().setJobState(id, 'finished', null, at);
    }
    const shorter = await t.must('jobs.list', { recent: JOBS_LIST_MAX - 20 });
    expect(shorter.next).toBe(JOBS_LIST_MAX);
    const longest = await t.must('jobs.list', { recent: JOBS_LIST_MAX });
    expect(longest.jobs).toHaveLength(JOBS_LIST_MAX);
    expect(longest.unlisted).toBe(5);
    expect(longest.next).toBeUndefined();
  });
});

describe('a resume waiting for the ledger', () => {
  it('lists the job as starting until the ledger is done', async () => {
    const id = randomUUID();
    const createdAt = new Date().toISOString();
    t.writable().createJob(
      { id, profileId: SANDBOX_PROFILE_ID, action: 'delete', params: '{}', createdAt },
      { keyValues: ['NOT-A-KEY-S1', 'NOT-A-KEY-S2'] },
    );
    t.writable().setJobState(id, 'cancelled', null, createdAt);
    const heard: JobSummary[] = [];
    const off = t.core.on('jobs.progress', (s) => {
      if (s.id === id) heard.push(s);
    });
    // The ledger still recording a large generate's keys (tens of seconds at 300,000): held here until released.
    // (The resume waits for the writes queued before it: Writer.flushed.)
    let release = (): void => undefined;
    const recorded = new Promise<void>((r) => (release = r));
    const flushed = t.core.writer.flushed.bind(t.core.writer);
    t.core.writer.flushed = () => recorded.then(flushed);
    try {
      const resumed = t.call('jobs.resume', { jobId: id });
      const listed = (await t.must('jobs.list')).jobs.find((j) => j.id === id);
      expect(listed).toMatchObject({ state: 'running', finishedAt: null, reason: null, counts: { pending: 2, done: 0 } });
      expect(listed?.startingSince).toEqual(expect.any(String));
      expect(await t.must('jobs.get', { jobId: id })).toMatchObject({ state: 'running', finishedAt: null });
      // A window that follows events hears it too, and one on another profile is told it is about to send.
      expect(heard.at(-1)).toMatchObject({ state: 'running', finishedAt: null });
      expect(t.core.jobs.runningElsewhere('another-profile')).toMatchObject([
        { id, state: 'running', finishedAt: null, startingSince: listed?.startingSince },
      ]);
      expect(t.core.jobs.runningElsewhere(SANDBOX_PROFILE_ID)).toEqual([]);
      expect(await t.call('jobs.resume', { jobId: id })).toMatchObject({
        ok: false,
        code: 'CONFLICT',
        message: 'That job is already running.',
      });
      expect(await t.call('jobs.forget', { jobId: id })).toMatchObject({ ok: false, code: 'CONFLICT' });
      release();
      const answer = await resumed;
      expect(answer.ok).toBe(true);
      const ended = await settled(id);
      expect(ended).toMatchObject({ state: 'finished', counts: { pending: 0, failed: 2 } });
      expect(ended.startingSince).toBeUndefined();
    } finally {
      release();
      t.core.writer.flushed = flushed;
      off();
    }
  });

  it('lists a job getting ready to resume last, however old', async () => {
    const id = randomUUID();
    t.writable().createJob(
      { id, profileId: SANDBOX_PROFILE_ID, action: 'delete', params: '{}', createdAt: '2020-01-01T00:00:00.000Z' },
      { keyValues: ['NOT-A-KEY-O1'] },
    );
    t.writable().setJobState(id, 'cancelled', null, '2020-01-01T00:00:01.000Z');
    for (let i = 0; i < 20; i++) {
      const newer = randomUUID();
      const at = new Date(Date.UTC(2020, 0, 2, 0, 0, i)).toISOString();
      t.writable().createJob(
        { id: newer, profileId: SANDBOX_PROFILE_ID, action: 'delete', params: '{}', createdAt: at },
        { keyValues: ['NOT-A-KEY-N'] },
      );
      t.writable().setJobState(newer, 'finished', null, at);
    }
    const before = await t.must('jobs.list');
    expect(before.jobs.map((j) => j.id)).not.toContain(id);
    let release = (): void => undefined;
    const recorded = new Promise<void>((r) => (release = r));
    const flushed = t.core.writer.flushed.bind(t.core.writer);
    t.core.writer.flushed = () => recorded.then(flushed);
    try {
      const resumed = t.call('jobs.resume', { jobId: id });
      // A window reloaded now (or All keys attaching its jobs) asks for the list.
      const listed = await t.must('jobs.list');
      expect(listed.jobs.at(-1)).toMatchObject({ id, state: 'running', finishedAt: null });
      expect(listed.jobs.at(-1)?.startingSince).toEqual(expect.any(String));
      expect(listed.jobs).toHaveLength(before.jobs.length + 1);
      expect(listed.unlisted ?? 0).toBe((before.unlisted ?? 0) - 1);
      release();
      expect((await resumed).ok).toBe(true);
      expect(await settled(id)).toMatchObject({ state: 'finished', counts: { failed: 1 } });
    } finally {
      release();
      t.core.writer.flushed = flushed;
    }
  });

  it('is cancelled while it waits: sends nothing and ends cancelled', async () => {
    // Three real keys of the embedded sandbox: a delete the job sent would show there.
    const { generated } = await t.must('keys.generate', { expire: '2099-01-01', count: 3, isPremium: false, note: 'cancel starting' });
    const keys = batchValues(generated).sort();
    await t.core.writer.idle();
    const id = randomUUID();
    const createdAt = new Date().toISOString();
    t.writable().createJob({ id, profileId: SANDBOX_PROFILE_ID, action: 'delete', params: '{}', createdAt }, { keyValues: keys });
    // The first was sent before, with no answer: unknown. The user now asks to send the unknown one again too.
    t.writable().jobStep(null, { jobId: id, max: 1 });
    t.writable().endJobRun(id, 'interrupted', 'Stopped for the test.', createdAt);
    expect(t.core.db.jobCounts(id)).toMatchObject({ pending: 2, unknown: 1 });
    const heard: JobSummary[] = [];
    const off = t.core.on('jobs.progress', (s) => {
      if (s.id === id) heard.push(s);
    });
    let release = (): void => undefined;
    const recorded = new Promise<void>((r) => (release = r));
    const flushed = t.core.writer.flushed.bind(t.core.writer);
    t.core.writer.flushed = () => recorded.then(flushed);
    const deletesBefore = (await t.must('audit.list', { filter: { action: 'keys.delete' }, offset: 0, limit: 1 })).total;
    try {
      const resumed = t.call('jobs.resume', { jobId: id, retryUnknown: true });
      await expect.poll(() => heard.at(-1)?.startingSince).toEqual(expect.any(String));

      const cancelled = await t.call('jobs.cancel', { jobId: id });
      // Stopped by the user at once; its end is being written (cancelling).
      expect(cancelled).toMatchObject({ ok: true, data: { id, state: 'cancelled', reason: null, finishedAt: null } });
      expect(cancelled.ok && cancelled.data.startingSince).toBeUndefined();
      // The resume answers with the job as it ended, without waiting for the ledger.
      const answer = await resumed;
      expect(answer).toMatchObject({
        ok: true,
        data: { id, state: 'cancelled', reason: null, counts: { pending: 2, unknown: 1, sent: 0, done: 0, failed: 0 } },
      });
      expect(answer.ok && answer.data.finishedAt).toEqual(expect.any(String));
      // Every window hears the end.
      expect(heard.at(-1)).toMatchObject({
        state: 'cancelled',
        finishedAt: answer.ok ? answer.data.finishedAt : '',
        counts: { pending: 2, unknown: 1 },
      });
      expect(heard.at(-1)?.startingSince).toBeUndefined();
      expect(t.core.db.job(id)).toMatchObject({ state: 'cancelled', reason: null });
      // Its items as they stood: the unknown one unknown (not held to be sent again), the others not sent.
      expect(t.core.db.jobItems(id, undefined, 0, 10).items.map((i) => [i.target, i.state])).toEqual([
        [keys[0], 'unknown'],
        [keys[1], 'pending'],
        [keys[2], 'pending'],
      ]);

      // Once the ledger is done, nothing is sent: the sandbox still has every key, and no delete was made.
      release();
      await t.core.writer.idle();
      await t.core.jobs.settled(id);
      expect(t.core.db.job(id)?.state).toBe('cancelled');
      const sandbox = new DatabaseSync(join(t.userData, SANDBOX_DB_FILE), { readOnly: true });
      try {
        const still = sandbox.prepare('SELECT value FROM keys WHERE value IN (?, ?, ?) ORDER BY value').all(...keys) as { value: string }[];
        expect(still.map((k) => k.value)).toEqual(keys);
      } finally {
        sandbox.close();
      }
      expect((await t.must('audit.list', { filter: { action: 'keys.delete' }, offset: 0, limit: 1 })).total).toBe(deletesBefore);
      // And it can be resumed later, as any cancelled job.
      expect(await t.call('jobs.resume', { jobId: id })).toMatchObject({ ok: true });
      expect(await settled(id)).toMatchObject({ state: 'finished', counts: { done: 2, unknown: 1, pending: 0 } });
    } finally {
      release();
      t.core.writer.flushed = flushed;
      off();
    }
  });

  it('waits only for ledger writes queued before it, not a running generate', async () => {
    const id = randomUUID();
    const createdAt = new Date().toISOString();
    t.writable().createJob(
      { id, profileId: SANDBOX_PROFILE_ID, action: 'delete', params: '{}', createdAt },
      { keyValues: ['NOT-A-KEY-W1'] },
    );
    t.writable().setJobState(id, 'cancelled', null, createdAt);
    // Another job's generate under way: its answer read on the writer's thread, its keys held until judged. The
    // ledger is not idle until then, however long that is (a generate job's next batch is read meanwhile).
    const intake = t.core.writer.intake();
    const body = JSON.stringify({
      message: 'Generated.',
      generatedKeys: [{ value: 'HELD1-HELD1-HELD1-HELD1-HELD1', note: 'held', expiresAt: '2099-01-01T00:00:00.000Z', isPremium: false }],
    });
    await intake.read(new TextEncoder().encode(body).buffer);
    expect(intake.batch?.count).toBe(1);
    let idle = false;
    void t.core.writer.idle().then(() => (idle = true));
    // A write queued before the resume: the resume waits for it.
    const before = {
      id: '',
      value: 'QUEUED-BEFORE-RESUME',
      note: 'queued before',
      status: 'generated' as const,
      isPremium: false,
      expire: '2099-01-01',
      expiresByDaysKey: false,
      daysKey: null,
      expiresAt: null,
      hwid: null,
      createdAt,
      activatedAt: null,
      lastResetAt: null,
      serviceId: '',
    };
    let written = false;
    void t.core.writer.recordKeys(SANDBOX_PROFILE_ID, [before]).then(() => (written = true));
    try {
      const answer = await t.call('jobs.resume', { jobId: id });
      expect(written).toBe(true);
      expect(answer).toMatchObject({ ok: true, data: { id, state: 'running' } });
      expect(await settled(id)).toMatchObject({ state: 'finished', counts: { failed: 1, pending: 0 } });
      // All of it while the generate's keys were still held: the ledger was never idle.
      expect(idle).toBe(false);
    } finally {
      intake.release();
    }
    await t.core.writer.idle();
  });

  it('runs the job on its own profile when the person switches profile', async () => {
    // A core of its own: the switch would change the profile the other tests here work on.
    const own = await startTestCore();
    const remote = await startRemoteSandbox({ name: 'Other Shop', identifier: 'other-shop' });
    let release = (): void => undefined;
    try {
      const other = await own.must('profiles.add', {
        name: 'Other Shop',
        baseUrl: remote.url,
        apiKey: remote.apiKey,
        serviceIdentifier: 'other-shop',
      });
      await own.must('profiles.select', { id: SANDBOX_PROFILE_ID });
      const id = randomUUID();
      const createdAt = new Date().toISOString();
      own
        .writable()
        .createJob(
          { id, profileId: SANDBOX_PROFILE_ID, action: 'delete', params: '{}', createdAt },
          { keyValues: ['NOT-A-KEY-P1', 'NOT-A-KEY-P2'] },
        );
      own.writable().setJobState(id, 'cancelled', null, createdAt);
      const recorded = new Promise<void>((r) => (release = r));
      const flushed = own.core.writer.flushed.bind(own.core.writer);
      own.core.writer.flushed = () => recorded.then(flushed);
      const resumed = own.call('jobs.resume', { jobId: id });
      expect((await own.must('jobs.get', { jobId: id })).startingSince).toEqual(expect.any(String));
      // The job reads "Starting" (up to a minute): the person goes to the other profile meanwhile.
      await own.must('profiles.select', { id: other.id });
      release();
      expect(await resumed).toMatchObject({ ok: true, data: { id, state: 'running' } });
      await own.core.jobs.settled(id);
      // Sent to the sandbox, the job's own service, with the sandbox's apiKey: it answered each (no such key).
      expect(own.core.db.job(id)).toMatchObject({ state: 'finished', reason: null });
      expect(own.core.db.jobCounts(id)).toMatchObject({ pending: 0, sent: 0, failed: 2, unknown: 0 });
      expect(own.core.db.jobItems(id, 'failed', 0, 10).items.map((i) => i.code)).toEqual(['NOT_FOUND', 'NOT_FOUND']);
    } finally {
      release();
      await own.close();
      await remote.close();
    }
  });
});
