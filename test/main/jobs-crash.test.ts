// A bulk job Keydesk stopped under: said to end when it was last known at work, and after a SIGKILL mid-job its
// items match what the real sandbox did, and a resume sends only the pending ones.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it, vi } from 'vitest';
import { Core } from '../../src/main/core.ts';
import { MemorySecretStore } from '../../src/main/secrets/secret-store.ts';
import { START_CONCURRENCY } from '../../src/main/jobs/concurrency.ts';
import { JobService } from '../../src/main/jobs/job-service.ts';
import { LocalDb } from '../../src/main/store/local-db.ts';
import { SANDBOX_DB_FILE } from '../../src/sandbox/paths.ts';
import { SandboxStore } from '../../src/sandbox/store.ts';
import { fakeService, service, until, values } from '../support/job-engine.ts';
import { killJobChildAfter } from '../support/job-crash.ts';
import { tempDir } from '../support/temp-dir.ts';

describe('a job Keydesk stopped under before any answer came', () => {
  it('is said to have stopped after its latest start or resume', async () => {
    // The service takes every request and never answers: no answer is ever recorded.
    const fake = await fakeService(() => 'handled');
    const db = new LocalDb(join(tempDir('keydesk-jobs-'), 'keydesk.db'));
    const stopped: JobService[] = [];
    // Keydesk stopping under a run, as the next start sees it: a new JobService on the same file.
    const restart = (): JobService => {
      const next = service(fake.url, db);
      stopped.push(next);
      return next;
    };
    try {
      const first = restart();
      // More keys than go out at once: some are still pending to resume.
      const started = await first.start('p1', { action: 'delete', target: { keyValues: values(START_CONCURRENCY * 4) } });
      if (!started.ok) throw new Error(started.message);
      const id = started.data.id;
      await until(() => fake.received.length >= 1);
      const afterFirst = restart().get('p1', id);
      expect(afterFirst).toMatchObject({
        state: 'interrupted',
        finishedAt: afterFirst?.createdAt,
        endUnseen: { lastAnswerAt: null, runStartedAt: afterFirst?.createdAt, resumed: false },
      });

      const before = fake.received.length;
      const resumed = await (stopped.at(-1) as JobService).resume('p1', id, false);
      if (!resumed.ok) throw new Error(resumed.message);
      await until(() => fake.received.length > before);
      const afterResume = restart().get('p1', id);
      const runStartedAt = afterResume?.endUnseen?.runStartedAt ?? '';
      expect(afterResume).toMatchObject({
        state: 'interrupted',
        finishedAt: runStartedAt,
        endUnseen: { lastAnswerAt: null, resumed: true },
      });
      expect(Date.parse(runStartedAt)).toBeGreaterThanOrEqual(Date.parse(afterResume?.createdAt ?? ''));
      expect(runStartedAt).not.toBe(afterResume?.createdAt);
    } finally {
      await fake.close();
      for (const s of stopped) await s.close();
      db.close();
    }
  });
});

describe('a crash mid-job', () => {
  it('leaves the job interrupted with items matching what the sandbox did', async () => {
    const dir = tempDir('keydesk-crash-');
    // The child prints progress lines; kill it once some items are done and many are still pending.
    const out = await killJobChildAfter('test/support/job-child.ts', dir, 20);
    const jobId = /^job (\S+)$/m.exec(out)?.[1] ?? '';

    const db = new LocalDb(join(dir, 'keydesk.db'));
    const sandbox = new SandboxStore(join(dir, SANDBOX_DB_FILE));
    const inSandbox = (): Set<string> => new Set(sandbox.inspect('SELECT value FROM keys').map((r) => String(r.value)));
    let pending: string[];
    let unknown: string[];
    try {
      // The job's last recorded activity, from the file's own record of it: the ledger rows its answers deleted are
      // written in the same transaction as the answers (none yet: the run's start).
      const reader = new DatabaseSync(join(dir, 'keydesk.db'), { readOnly: true });
      const lastAnswer = (
        reader.prepare("SELECT max(last_seen_at) AS at FROM ledger WHERE status = 'deleted'").get() as { at: string | null }
      ).at;
      reader.close();
      const runAt = db.job(jobId)?.runAt ?? null;
      // Its first run: it began when the job was started, and is no resume.
      expect(runAt).toBe(db.job(jobId)?.createdAt);
      expect(db.job(jobId)).toMatchObject({ state: 'running', answeredAt: lastAnswer });
      // The next start comes three days later (the clock says so; nothing waits for it).
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.parse(lastAnswer ?? runAt ?? '') + 3 * 24 * 3_600_000);
      let jobs: JobService;
      try {
        // What a restart does first: the job was running, so it is interrupted; items on the wire become unknown.
        jobs = new JobService({ db, profile: () => null, clientFor: () => Promise.resolve(null), emit: () => undefined });
      } finally {
        vi.useRealTimers();
      }
      // Its end is the last moment it was known at work, said as such: not the next start's time.
      expect(db.job(jobId)).toMatchObject({ state: 'interrupted', finishedAt: lastAnswer ?? runAt, endUnseen: true });
      expect(jobs.get('sandbox', jobId)).toMatchObject({
        state: 'interrupted',
        finishedAt: lastAnswer ?? runAt,
        endUnseen: { lastAnswerAt: lastAnswer, runStartedAt: runAt, resumed: false },
      });
      const items = db.jobItems(jobId, undefined, 0, 5_000).items;
      expect(items).toHaveLength(2_000);
      expect(items.filter((i) => i.state === 'sent')).toEqual([]);
      const present = inSandbox();
      // done: the sandbox deleted it; pending: the sandbox never saw it; unknown: either.
      for (const item of items.filter((i) => i.state === 'done')) expect(present.has(item.target), item.target).toBe(false);
      pending = items.filter((i) => i.state === 'pending').map((i) => i.target);
      unknown = items.filter((i) => i.state === 'unknown').map((i) => i.target);
      for (const v of pending) expect(present.has(v), v).toBe(true);
      // unknown: sent with no answer recorded. One request at a time was in flight, so at most one unknown key can
      // still be in the sandbox; the items claimed ahead of their requests and never sent are pending (the send log).
      expect(unknown.filter((v) => present.has(v)).length).toBeLessThanOrEqual(1);
      // The child printed 20 answered: each is recorded done, or was still waiting to be written (its group not yet
      // committed) and so is sent in the file, which the restart made unknown.
      expect(items.filter((i) => i.state === 'done' || i.state === 'unknown').length).toBeGreaterThanOrEqual(20);
      expect(pending.length).toBeGreaterThan(0);
      expect(jobs.list('sandbox').find((j) => j.id === jobId)?.counts.pending).toBe(pending.length);
    } finally {
      sandbox.close();
      db.close();
    }

    // A restart of the whole core, then the user resumes: the pending keys go, the unknown ones are not sent.
    const core = await Core.start({
      userDataDir: dir,
      secrets: new MemorySecretStore(),
      version: 'test',
      sandboxPort: 0,
      askSavePath: () => Promise.resolve(null),
    });
    try {
      const unknownBefore = new Set(unknown.filter((v) => core.db.jobItems(jobId, 'unknown', 0, 5_000).items.some((i) => i.target === v)));
      const resumed = await core.jobs.resume('sandbox', jobId, false);
      if (!resumed.ok) throw new Error(resumed.message);
      await core.jobs.settled(jobId);
      expect(core.jobs.get('sandbox', jobId)).toMatchObject({
        state: 'finished',
        counts: { pending: 0, sent: 0, unknown: unknown.length, done: 2_000 - unknown.length },
      });
      expect(
        core.db
          .jobItems(jobId, 'unknown', 0, 5_000)
          .items.map((i) => i.target)
          .sort(),
      ).toEqual([...unknownBefore].sort());
    } finally {
      await core.close();
    }
    const after = new SandboxStore(join(dir, SANDBOX_DB_FILE));
    try {
      const present = new Set(after.inspect('SELECT value FROM keys').map((r) => String(r.value)));
      for (const v of pending) expect(present.has(v), v).toBe(false);
    } finally {
      after.close();
    }
  });
});
