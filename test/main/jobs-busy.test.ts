// A bulk job while another writer holds keydesk.db's write lock (BEGIN IMMEDIATE on a connection of another
// thread, as the ledger writer or main creating or removing a large job would): against the real sandbox, with the
// job's writes on the job writer thread as the app makes them. What the sandbox did is read from its own side
// (every delete it performed, by key), and what Keydesk recorded from the file.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServiceClient } from '../../src/main/client/service-client.ts';
import { JobService } from '../../src/main/jobs/job-service.ts';
import { ThreadJobWrites } from '../../src/main/jobs/job-writer.ts';
import { LocalDb } from '../../src/main/store/local-db.ts';
import { batchKeys } from '../../src/sandbox/store.ts';
import type { JobSummary } from '../../src/shared/domain.ts';
import { LockHolder, startDeleteLockedAt } from '../support/lock-holder.ts';
import { startRemoteSandbox, type RemoteSandbox } from '../support/remote-sandbox.ts';
import { tempDir } from '../support/temp-dir.ts';

interface Setup {
  file: string;
  db: LocalDb;
  jobs: JobService;
  remote: RemoteSandbox;
  holder: LockHolder;
  keys: string[];
  /** Every delete the sandbox performed, in order. */
  deletes: string[];
  /** Called by the sandbox with how many deletes it has performed, before it performs the next. */
  onDelete: ((n: number) => void) | null;
  events: JobSummary[];
  /** Starts another JobService on the same file (what the next start of Keydesk does). */
  restart(): JobService;
  /** The job writers of the services started, in order. */
  writers: ThreadJobWrites[];
  cleanup(): Promise<void>;
}

const live: Setup[] = [];
afterEach(async () => {
  for (const s of live.splice(0)) await s.cleanup();
});

async function setup(count: number, options: { ceiling: number; lockWaitMs?: number; writerBusyTimeoutMs?: number }): Promise<Setup> {
  const dir = tempDir('keydesk-busy-');
  const file = join(dir, 'keydesk.db');
  const remote = await startRemoteSandbox({ name: 'Busy Shop', identifier: 'busy-shop' });
  const service = remote.store.serviceByApiKey(remote.apiKey);
  if (!service) throw new Error('no service');
  const keys =
    count === 0
      ? []
      : batchKeys(
          remote.store.generateKeys(service.id, {
            count,
            isPremium: false,
            note: 'busy',
            expire: '2099-01-31',
            expiresByDaysKey: false,
            daysKey: null,
          }),
        )
          .map((k) => k.value)
          .sort();
  const db = new LocalDb(file);
  const holder = new LockHolder(file);
  const client = new ServiceClient(
    { baseUrl: remote.url, validationUrl: `${remote.url}/v2_validation`, apiKey: remote.apiKey },
    { retryDelaysMs: [] },
  );
  const services: JobService[] = [];
  const writers: ThreadJobWrites[] = [];
  const make = (): JobService => {
    const writes = new ThreadJobWrites(
      file,
      options.writerBusyTimeoutMs === undefined ? {} : { busyTimeoutMs: options.writerBusyTimeoutMs },
    );
    writers.push(writes);
    const jobs = new JobService({
      db,
      profile: (id) => ({ id, name: 'Busy Shop', kind: 'sandbox' }),
      clientFor: () => Promise.resolve(client),
      emit: (summary) => s.events.push(summary),
      writes,
      ...(options.lockWaitMs === undefined ? {} : { lockWaitMs: options.lockWaitMs }),
    });
    services.push(jobs);
    return jobs;
  };
  const s: Setup = {
    file,
    db,
    jobs: null as unknown as JobService,
    remote,
    holder,
    keys,
    deletes: [],
    onDelete: null,
    events: [],
    restart: make,
    writers,
    cleanup: async () => {
      await holder.close();
      for (const jobs of services) await jobs.close();
      db.close();
      await remote.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  s.jobs = make();
  s.jobs.setCeiling('p1', options.ceiling);
  const realDelete = remote.store.deleteKey.bind(remote.store);
  remote.store.deleteKey = (serviceId, value, generatedOnly) => {
    s.onDelete?.(s.deletes.length);
    const deleted = realDelete(serviceId, value, generatedOnly);
    s.deletes.push(value);
    return deleted;
  };
  live.push(s);
  return s;
}

/** Waits (polling; the test's own timeout is the hang catcher) until `check` holds. */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The job's items as the file has them: per state, the targets. */
function itemsByState(file: string, jobId: string): Record<string, string[]> {
  const reader = new DatabaseSync(file, { readOnly: true });
  try {
    const by: Record<string, string[]> = {};
    for (const r of reader.prepare('SELECT state, target FROM job_items WHERE job_id = ? ORDER BY target').all(jobId) as {
      state: string;
      target: string;
    }[]) {
      (by[r.state] ??= []).push(r.target);
    }
    return by;
  } finally {
    reader.close();
  }
}

/** Keys the sandbox deleted more than once (a key sent twice would be deleted, then refused: never "done" twice). */
function sentTwice(deletes: readonly string[]): string[] {
  const seen = new Set<string>();
  return deletes.filter((k) => seen.has(k) || (seen.add(k), false));
}

function count(file: string, sql: string, ...args: string[]): number {
  const reader = new DatabaseSync(file, { readOnly: true });
  try {
    return (reader.prepare(sql).get(...args) as { n: number }).n;
  } finally {
    reader.close();
  }
}

const auditedDeletes = (file: string): number => count(file, "SELECT count(*) AS n FROM audit WHERE action = 'keys.delete'");

const sorted = (list: readonly string[]): string[] => [...list].sort();

describe('a job while another writer holds keydesk.db', () => {
  it('waits out a 6 s lock mid-job and deletes each key once', { timeout: 180_000 }, async () => {
    const s = await setup(2_000, { ceiling: 8 });
    let pendingAtLock = -1;
    s.onDelete = (n) => {
      if (n !== 200) return;
      s.holder.lockNow();
      pendingAtLock = s.jobs.list('p1')[0]?.counts.pending ?? -1;
      // Held 6 s: longer than the job writer's busy timeout, before or after the fix.
      setTimeout(() => void s.holder.release(), 6_000);
    };
    const started = await s.jobs.start('p1', { action: 'delete', target: { keyValues: s.keys } });
    if (!started.ok) throw new Error(started.message);
    await until(() => s.jobs.get('p1', started.data.id)?.state !== 'running', 'the job to end');
    await s.jobs.settled(started.data.id);

    // Taken mid-job: most of the items were still to be claimed.
    expect(pendingAtLock).toBeGreaterThan(1_000);
    const summary = s.jobs.get('p1', started.data.id);
    expect(summary).toMatchObject({
      state: 'finished',
      reason: null,
      counts: { done: 2_000, pending: 0, sent: 0, failed: 0, unknown: 0 },
    });
    expect(s.db.job(started.data.id)?.state).toBe('finished');
    expect(itemsByState(s.file, started.data.id)).toEqual({ done: s.keys });
    // The sandbox's side: each key deleted once, none left.
    expect(sorted(s.deletes)).toEqual(s.keys);
    expect(sentTwice(s.deletes)).toEqual([]);
    expect(s.remote.store.inspect('SELECT count(*) AS n FROM keys')).toEqual([{ n: 0 }]);
    expect(auditedDeletes(s.file)).toBe(2_000);
  });

  it('shows the job ended while the lock holds back its end', { timeout: 180_000 }, async () => {
    const s = await setup(300, { ceiling: 8, lockWaitMs: 1_000 });
    // The last delete's answer, and so the job's end, meets the lock.
    const id = await startDeleteLockedAt(s, 299);
    await until(() => s.jobs.get('p1', id)?.state !== 'running', 'the job to be shown ended');

    // Every key was deleted and answered: the job finished, whatever the file can say yet.
    expect(s.holder.held).toBe(true);
    expect(s.jobs.get('p1', id)).toMatchObject({
      state: 'finished',
      reason: null,
      counts: { done: 300, pending: 0, sent: 0, failed: 0, unknown: 0 },
    });
    expect(s.events.at(-1)).toMatchObject({ id, state: 'finished' });
    expect(s.db.job(id)?.state).toBe('running');
    // Until its end is in the file, the job is neither run again nor removed (in words).
    const early = await s.jobs.resume('p1', id, true);
    expect(early).toMatchObject({ ok: false, code: 'CONFLICT' });
    expect(early.ok ? '' : early.message).toMatch(
      /^Keydesk's records are busy .*this job's end is not recorded yet\. Try again in a moment\.$/,
    );
    expect(s.jobs.forget('p1', id)).toMatchObject({ ok: false, code: 'CONFLICT' });

    await s.holder.release();
    await s.jobs.settled(id);
    expect(s.db.job(id)).toMatchObject({ state: 'finished', reason: null });
    expect(itemsByState(s.file, id)).toEqual({ done: s.keys });
    expect(auditedDeletes(s.file)).toBe(300);
    expect(sorted(s.deletes)).toEqual(s.keys);
    expect(sentTwice(s.deletes)).toEqual([]);
    // Now a resume finds nothing to send, and the job can be removed.
    expect(await s.jobs.resume('p1', id, false)).toMatchObject({ ok: true, data: { state: 'finished' } });
    expect(s.deletes).toHaveLength(300);
    expect(s.jobs.forget('p1', id)).toEqual({ ok: true, data: null });
  });

  it('stops interrupted, saying records were busy, when the lock outlasts the wait', { timeout: 180_000 }, async () => {
    const s = await setup(500, { ceiling: 4, lockWaitMs: 1_000 });
    const id = await startDeleteLockedAt(s, 100);
    await until(() => s.jobs.get('p1', id)?.state !== 'running', 'the job to stop');

    const stopped = s.jobs.get('p1', id);
    expect(s.holder.held).toBe(true);
    expect(stopped?.state).toBe('interrupted');
    expect(stopped?.reason).toMatch(
      /^Keydesk's records were busy: .* for over 1 second, so this job stopped sending\. Resume it to send the keys left\.$/,
    );
    expect(stopped?.reason).not.toMatch(/internal error/i);
    // Nothing is sent while the lock is held; what the sandbox did is what the job counts done.
    const done = s.deletes.length;
    expect(stopped?.counts).toEqual({ done, pending: 500 - done, sent: 0, failed: 0, unknown: 0 });

    await s.holder.release();
    await s.jobs.settled(id);
    expect(s.db.job(id)).toMatchObject({ state: 'interrupted', reason: stopped?.reason });
    const items = itemsByState(s.file, id);
    expect(items.done).toEqual(sorted(s.deletes));
    expect(items.pending).toEqual(s.keys.filter((k) => !s.deletes.includes(k)));
    expect(Object.keys(items).sort()).toEqual(['done', 'pending']);

    const resumed = await s.jobs.resume('p1', id, false);
    expect(resumed.ok).toBe(true);
    await s.jobs.settled(id);
    expect(s.jobs.get('p1', id)).toMatchObject({ state: 'finished', counts: { done: 500, pending: 0, sent: 0, failed: 0, unknown: 0 } });
    expect(sorted(s.deletes)).toEqual(s.keys);
    expect(sentTwice(s.deletes)).toEqual([]);
    expect(auditedDeletes(s.file)).toBe(500);
  });

  it('quitting leaves a job stuck on the lock for the next start', { timeout: 180_000 }, async () => {
    const s = await setup(500, { ceiling: 4, lockWaitMs: 1_000 });
    const id = await startDeleteLockedAt(s, 100);
    await until(() => s.jobs.get('p1', id)?.state !== 'running', 'the job to stop');
    expect(s.holder.held).toBe(true);

    // Quitting with the lock still held: close() ends (it does not wait for the lock), the file unchanged, and
    // main's log says the next start marks the job.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await s.jobs.close();
      expect(logged).toHaveBeenCalledWith(
        'keydesk: running jobs could not be marked interrupted on quitting:',
        expect.objectContaining({ errcode: 5 }),
      );
    } finally {
      logged.mockRestore();
    }
    expect(s.db.job(id)?.state).toBe('running');
    await s.holder.release();

    const next = s.restart();
    expect(next.get('p1', id)).toMatchObject({ state: 'interrupted', reason: 'Keydesk stopped while this job ran.' });
    const items = itemsByState(s.file, id);
    // Whatever was deleted and not recorded done is unknown: sent, its answer not in the file. Never pending.
    expect(sorted([...(items.done ?? []), ...(items.unknown ?? [])])).toEqual(sorted(s.deletes));
    expect(items.pending).toEqual(s.keys.filter((k) => !s.deletes.includes(k)));
    expect(items.sent).toBeUndefined();
    const resumed = await next.resume('p1', id, false);
    expect(resumed.ok).toBe(true);
    await next.settled(id);
    expect(sentTwice(s.deletes)).toEqual([]);
    expect(sorted(s.deletes)).toEqual(s.keys);
  });

  it('a quit writes a held-back end as the screen showed it', { timeout: 180_000 }, async () => {
    const s = await setup(300, { ceiling: 8, lockWaitMs: 1_000 });
    // The last delete's answer, and so the job's end, meets the lock: shown finished, still running in the file.
    const id = await startDeleteLockedAt(s, 299);
    await until(() => s.jobs.get('p1', id)?.state !== 'running', 'the job to be shown ended');
    expect(s.jobs.get('p1', id)).toMatchObject({ state: 'finished', reason: null });
    expect(s.db.job(id)?.state).toBe('running');
    // The lock is let go just as the quit's job writer goes, before its last statement on main's connection.
    const writer = s.writers[0] as ThreadJobWrites;
    const closeWriter = writer.close.bind(writer);
    writer.close = async (waitMs?: number) => {
      await s.holder.release();
      return closeWriter(waitMs);
    };
    await s.jobs.close();
    expect(s.db.job(id)).toMatchObject({ state: 'finished', reason: null, endUnseen: false });
    expect(itemsByState(s.file, id)).toEqual({ done: s.keys });
    expect(auditedDeletes(s.file)).toBe(300);
  });

  it('a quit resolves while another writer holds the lock throughout', { timeout: 180_000 }, async () => {
    // The job writer waits for the lock far longer than this test: only a quit with a budget of its own, lock waits
    // included, resolves while the lock is held.
    const s = await setup(500, { ceiling: 4, writerBusyTimeoutMs: 3_600_000 });
    s.onDelete = (n) => {
      if (n === 100) s.holder.lockNow();
    };
    const started = await s.jobs.start('p1', { action: 'delete', target: { keyValues: s.keys } });
    if (!started.ok) throw new Error(started.message);
    const id = started.data.id;
    await until(() => s.holder.held, 'the lock to be taken mid-job');

    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await s.jobs.close();
      // Resolved with the lock held: the file could not be told, and main's log says the next start does it.
      expect(s.holder.held).toBe(true);
      expect(logged).toHaveBeenCalledWith(
        'keydesk: running jobs could not be marked interrupted on quitting:',
        expect.objectContaining({ errcode: 5 }),
      );
    } finally {
      logged.mockRestore();
    }
    expect(s.db.job(id)?.state).toBe('running');
    // The quitting process is gone (its writer's thread with it, and the write it was waiting with), then the lock
    // is let go, and Keydesk starts again on the file.
    await s.holder.release();
    await s.writers[0]?.exited();
    const deleted = sorted(s.deletes);
    const reopened = new LocalDb(s.file);
    try {
      const stored = reopened.job(id);
      expect(stored?.state).toBe('running');
      const next = new JobService({
        db: reopened,
        profile: (p) => ({ id: p, name: 'Busy Shop', kind: 'sandbox' }),
        clientFor: () => Promise.resolve(null),
        emit: () => undefined,
      });
      const lastKnown = stored?.answeredAt ?? stored?.runAt ?? null;
      expect(lastKnown).not.toBeNull();
      expect(next.get('p1', id)).toMatchObject({
        state: 'interrupted',
        reason: 'Keydesk stopped while this job ran.',
        finishedAt: lastKnown,
        endUnseen: { lastAnswerAt: stored?.answeredAt ?? null },
      });
      const items = itemsByState(s.file, id);
      expect(items.sent).toBeUndefined();
      // Done only where the sandbox deleted it; every key it deleted done or unknown; none it deleted still pending.
      for (const k of items.done ?? []) expect(deleted, k).toContain(k);
      expect(sorted([...(items.done ?? []), ...(items.unknown ?? [])].filter((k) => deleted.includes(k)))).toEqual(deleted);
      expect((items.pending ?? []).filter((k) => deleted.includes(k))).toEqual([]);
      // Unknown only where a request went out: at most the 4 in flight at the quit were not deleted. Items claimed
      // ahead of their requests and never sent are pending (the run's send log, read by the next start).
      expect((items.unknown ?? []).filter((k) => !deleted.includes(k)).length).toBeLessThanOrEqual(4);
      expect(sorted([...(items.done ?? []), ...(items.unknown ?? []), ...(items.pending ?? [])])).toEqual(s.keys);
      await next.close();
    } finally {
      reopened.close();
    }
    expect(sentTwice(s.deletes)).toEqual([]);
  });

  it("keeps a generate's answer that meets the lock, recording it done later", { timeout: 180_000 }, async () => {
    const s = await setup(0, { ceiling: 8, lockWaitMs: 1_000 });
    const generate = s.remote.store.generateKeys.bind(s.remote.store);
    s.remote.store.generateKeys = (serviceId, params) => {
      const made = generate(serviceId, params);
      // Another writer takes the lock as the service makes the keys: the job's write of the answer meets it.
      s.holder.lockNow();
      return made;
    };
    const started = await s.jobs.start('p1', { action: 'generate', count: 10, isPremium: false, note: 'locked', expire: '2099-01-31' });
    if (!started.ok) throw new Error(started.message);
    const id = started.data.id;
    await until(() => s.jobs.get('p1', id)?.state !== 'running', 'the job to be shown ended');

    // The service made the batch and Keydesk read its answer: the job is done, whatever the file can say yet.
    expect(s.holder.held).toBe(true);
    expect(s.jobs.get('p1', id)).toMatchObject({
      state: 'finished',
      reason: null,
      counts: { done: 10, pending: 0, sent: 0, failed: 0, unknown: 0 },
    });
    expect(s.db.job(id)?.state).toBe('running');

    await s.holder.release();
    await s.jobs.settled(id);
    expect(s.db.job(id)).toMatchObject({ state: 'finished', reason: null });
    expect(itemsByState(s.file, id)).toEqual({ done: ['batch 1'] });
    const made = (s.remote.store.inspect('SELECT value FROM keys ORDER BY value') as { value: string }[]).map((k) => k.value);
    expect(made).toHaveLength(10);
    // The job's export has the keys the service made, and the audit log its one request.
    const reader = new DatabaseSync(s.file, { readOnly: true });
    try {
      expect(
        (reader.prepare('SELECT value FROM job_keys WHERE job_id = ? ORDER BY value').all(id) as { value: string }[]).map((k) => k.value),
      ).toEqual(made);
    } finally {
      reader.close();
    }
    expect(count(s.file, "SELECT count(*) AS n FROM audit WHERE action = 'keys.generate' AND outcome = 'ok'")).toBe(1);
  });

  it('tells the screen since when it has waited for the lock', { timeout: 180_000 }, async () => {
    const s = await setup(2_000, { ceiling: 8 });
    const id = await startDeleteLockedAt(s, 200);
    await until(() => s.events.some((e) => e.waitingForRecordsSince !== undefined), 'an event saying the job waits for the records');

    expect(s.holder.held).toBe(true);
    const waiting = s.events.findIndex((e) => e.waitingForRecordsSince !== undefined);
    expect(s.events[waiting]).toMatchObject({ id, state: 'running', ratePerSecond: null, etaSeconds: null });
    expect(Date.parse(s.events[waiting]?.waitingForRecordsSince ?? '')).not.toBeNaN();
    expect(s.jobs.get('p1', id)).toMatchObject({
      state: 'running',
      ratePerSecond: null,
      etaSeconds: null,
      waitingForRecordsSince: s.events[waiting]?.waitingForRecordsSince,
    });

    await s.holder.release();
    await s.jobs.settled(id);
    const after = s.events.slice(waiting).findIndex((e) => e.waitingForRecordsSince === undefined);
    expect(after).toBeGreaterThan(0);
    expect(s.events.at(-1)).toMatchObject({ id, state: 'finished', counts: { done: 2_000 } });
    expect(s.events.at(-1)?.waitingForRecordsSince).toBeUndefined();
    expect(sentTwice(s.deletes)).toEqual([]);
  });

  it('a cancel while the lock is held ends the job cancelled', { timeout: 180_000 }, async () => {
    // A wait far longer than this test: only a cancel that does not wait for the lock ends the job while it is held.
    const s = await setup(2_000, { ceiling: 8, lockWaitMs: 3_600_000 });
    const id = await startDeleteLockedAt(s, 200);
    await until(() => s.events.some((e) => e.waitingForRecordsSince !== undefined), 'the job to wait for the records');
    s.jobs.cancel('p1', id);
    await until(() => s.jobs.get('p1', id)?.finishedAt !== null, 'the job to be shown ended');

    expect(s.holder.held).toBe(true);
    const deleted = s.deletes.length;
    expect(s.jobs.get('p1', id)).toMatchObject({
      state: 'cancelled',
      counts: { done: deleted, pending: 2_000 - deleted, sent: 0, unknown: 0 },
    });
    expect(s.db.job(id)?.state).toBe('running');

    await s.holder.release();
    await s.jobs.settled(id);
    expect(s.db.job(id)?.state).toBe('cancelled');
    const items = itemsByState(s.file, id);
    expect(items.done).toEqual(sorted(s.deletes));
    expect(items.pending).toEqual(s.keys.filter((k) => !s.deletes.includes(k)));
    expect(Object.keys(items).sort()).toEqual(['done', 'pending']);
    expect(auditedDeletes(s.file)).toBe(deleted);
  });
});
