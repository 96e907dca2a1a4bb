// A bulk start and the exports while a generate keeps the ledger writer busy, on a real core (the embedded sandbox):
// each waits for the writes queued before it was asked (Writer.flushed), not for an empty queue (idle), which a
// generate job under way keeps from happening for as long as its batches keep coming. A generate under way is held
// here as jobs-history.test.ts holds one: its answer read on the writer's thread, its keys held until judged.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_PROFILE_ID } from '../../src/main/core.ts';
import type { AnswerIntake } from '../../src/main/store/writer.ts';
import { batchValues } from '../../src/shared/key-batch.ts';
import { startTestCore, type TestCore } from '../support/core.ts';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(async () => {
  await t.close();
});

/** A generate under way: its answer read and its key held, so the ledger writer is not idle until it is judged. */
async function generateUnderWay(value: string, note: string): Promise<AnswerIntake> {
  const intake = t.core.writer.intake();
  const body = JSON.stringify({
    message: 'Generated.',
    generatedKeys: [{ value, note, expiresAt: '2099-01-01T00:00:00.000Z', isPremium: false }],
  });
  await intake.read(new TextEncoder().encode(body).buffer);
  expect(intake.batch?.count).toBe(1);
  return intake;
}

/** The call's answer, or a failure that says what hung: an answer this late means it waited for the generate. */
async function answersWhileBusy<T>(what: string, answer: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not answer in 30 s: it waited for the generate under way to be recorded`)),
      30_000,
    );
  });
  try {
    return await Promise.race([answer, hung]);
  } finally {
    clearTimeout(timer);
  }
}

describe('a bulk start while a generate keeps the ledger busy', () => {
  it('starts at once, targeting every key recorded or queued before it', async () => {
    const note = 'busy start';
    // Recorded before: written to the ledger.
    const first = batchValues((await t.must('keys.generate', { expire: '2099-01-01', count: 20, isPremium: false, note })).generated);
    await t.core.writer.flushed();
    const underWay = await generateUnderWay('BUSY1-BUSY1-BUSY1-BUSY1-BUSY1', note);
    try {
      // Queued before the click: keys.generate answers once its keys are queued, not written.
      const second = batchValues((await t.must('keys.generate', { expire: '2099-01-01', count: 30, isPremium: false, note })).generated);
      const started = await answersWhileBusy(
        'jobs.start',
        t.call('jobs.start', { action: 'extend', target: { filter: { text: note } }, days: 1 }),
      );
      expect(started).toMatchObject({ ok: true, data: { state: 'running' } });
      const jobId = started.ok ? started.data.id : '';
      // The generate's key arrives after the click, with the same note: it is no target of the job.
      const after = await underWay.record(SANDBOX_PROFILE_ID);
      expect(after).toEqual({ written: 1, failed: 0, failure: null });
      await t.core.jobs.settled(jobId);
      const items = t.core.db.jobItems(jobId, undefined, 0, 100);
      expect(items.items.map((i) => i.target).sort()).toEqual([...first, ...second].sort());
      expect(t.core.db.jobCounts(jobId)).toMatchObject({ done: 50, failed: 0, unknown: 0, pending: 0 });
    } finally {
      underWay.release();
    }
    await t.core.writer.idle();
  });
});

describe('the exports while a generate keeps the ledger busy', () => {
  it('answer at once with every key recorded or queued before the ask', async () => {
    const note = 'busy export';
    const job = await t.must('jobs.start', { action: 'generate', count: 25, expire: '2099-01-01', isPremium: false, note });
    await t.core.jobs.settled(job.id);
    const underWay = await generateUnderWay('BUSY2-BUSY2-BUSY2-BUSY2-BUSY2', 'busy export elsewhere');
    try {
      // Queued before the exports are asked (keys.generate answers before its keys are written).
      const generated = batchValues((await t.must('keys.generate', { expire: '2099-01-01', count: 15, isPremium: false, note })).generated);
      const jobKeys = [...t.core.db.iterateJobKeys(job.id, SANDBOX_PROFILE_ID)].map((r) => r.value);
      expect(jobKeys).toHaveLength(25);

      const readValues = (path: string | null): string[] => {
        expect(path).toEqual(expect.any(String));
        return (JSON.parse(readFileSync(path ?? '', 'utf8')) as { value: string }[]).map((r) => r.value).sort();
      };
      const keysOfJob = await answersWhileBusy(
        'jobs.export (keys)',
        t.call('jobs.export', { jobId: job.id, format: 'json', what: 'keys' }),
      );
      expect(keysOfJob.ok).toBe(true);
      expect(readValues(keysOfJob.ok ? keysOfJob.data.path : null)).toEqual(jobKeys.sort());

      const dialog = await answersWhileBusy('keys.export', t.call('keys.export', { keyValues: generated, format: 'json' }));
      expect(dialog.ok).toBe(true);
      expect(readValues(dialog.ok ? dialog.data.path : null)).toEqual([...generated].sort());

      const all = await answersWhileBusy(
        'ledger.export',
        t.call('ledger.export', { filter: { text: note }, sort: { field: 'value', dir: 'asc' }, format: 'json' }),
      );
      expect(all.ok).toBe(true);
      expect(readValues(all.ok ? all.data.path : null)).toEqual([...jobKeys, ...generated].sort());
    } finally {
      underWay.release();
    }
    await t.core.writer.idle();
  });
});
