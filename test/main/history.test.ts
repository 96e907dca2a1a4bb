// executions.history through dispatch over a million samples (about 58 days of sampling every 5 s): "All time"
// answers with at most the chart's width of buckets, and the retention rule thins the backlog in the background.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_PROFILE_ID } from '../../src/main/core.ts';
import { seedSamples } from '../support/samples.ts';
import { startTestCore, type TestCore } from '../support/core.ts';

const N = 1_000_000;
const STEP = 5_000;
let t: TestCore;
let end: number;

beforeAll(async () => {
  t = await startTestCore({ thinEveryMs: 0 });
  end = Date.now() - 60_000;
  seedSamples(join(t.userData, 'keydesk.db'), SANDBOX_PROFILE_ID, N, end - (N - 1) * STEP, STEP);
}, 180_000);
afterAll(() => t.close());

describe('executions.history over 1,000,000 samples', () => {
  it('answers All time in at most the asked-for buckets, first to last', async () => {
    const all = await t.must('executions.history', { range: 'all', points: 800 });
    expect(all.samples).toBe(N);
    expect(all.buckets.length).toBeGreaterThan(700);
    expect(all.buckets.length).toBeLessThanOrEqual(800);
    expect(all.buckets[0]).toMatchObject({ min: 0 });
    expect(all.buckets.at(-1)).toMatchObject({ at: new Date(end).toISOString(), max: N - 1 });
  }, 120_000);

  it('uses 600 buckets unless asked, and its own samples for short ranges', async () => {
    const all = await t.must('executions.history', { range: 'all' });
    expect(all.buckets.length).toBeLessThanOrEqual(600);
    const day = await t.must('executions.history', { range: '24h', points: 4_000 });
    // The samples of the last 24 hours, less the minute before `end` and the seconds this test has run.
    expect(day.samples).toBeLessThanOrEqual(Math.floor((86_400_000 - 60_000) / STEP) + 1);
    expect(day.samples).toBeGreaterThan(Math.floor((86_400_000 - 600_000) / STEP));
    expect(day.buckets.length).toBeLessThanOrEqual(4_000);
    expect(day.buckets.at(-1)?.max).toBe(N - 1);
  }, 120_000);

  it('thins the backlog by the retention rule, keeping the last day whole', async () => {
    const before = await t.must('executions.history', { range: '24h', points: 4_000 });
    await t.core.thinSamples();
    const after = await t.must('executions.history', { range: 'all', points: 800 });
    expect(after.samples).toBeLessThan(N / 5);
    expect(after.buckets[0]?.min).toBe(0);
    expect(after.buckets.at(-1)?.max).toBe(N - 1);
    // The last day before the newest sample is whole.
    expect((await t.must('executions.history', { range: '24h', points: 4_000 })).samples).toBeGreaterThanOrEqual(before.samples - 12);
  }, 180_000);
});
