// The retention rule trusts the samples, not the clock: a wall clock that jumps while Keydesk runs is logged,
// and no sample is thinned until a restart.
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SANDBOX_PROFILE_ID } from '../../src/main/core.ts';
import { seedSamples } from '../support/samples.ts';
import { startTestCore, type TestCore } from '../support/core.ts';

const DAY = 86_400_000;
const BACKLOG = 720; // one clock hour, 40 days back, every 5 s: the rule keeps its lowest and highest
const RECENT = 60;
const started: TestCore[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const t of started.splice(0)) await t.close();
});

async function coreWithSamples(wallClock: () => number): Promise<TestCore> {
  const t = await startTestCore({ thinEveryMs: 0, wallClock });
  started.push(t);
  const file = join(t.userData, 'keydesk.db');
  const hour = 3_600_000;
  seedSamples(file, SANDBOX_PROFILE_ID, BACKLOG, Math.floor((Date.now() - 40 * DAY) / hour) * hour);
  seedSamples(file, SANDBOX_PROFILE_ID, RECENT, Date.now() - 120_000, 1_000);
  return t;
}

describe('sample retention and the clock', () => {
  it('thins an old backlog when the clock is steady', async () => {
    const t = await coreWithSamples(() => Date.now());
    await t.core.thinSamples();
    const all = await t.must('executions.history', { range: 'all', points: 4_000 });
    expect(all.samples).toBe(2 + RECENT);
  });

  it('logs a clock that jumps two days and thins nothing', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const t = await coreWithSamples(() => Date.now() + 2 * DAY);
    await t.core.thinSamples();
    const all = await t.must('executions.history', { range: 'all', points: 4_000 });
    expect(all.samples).toBe(BACKLOG + RECENT);
    expect(warn).toHaveBeenCalledWith('keydesk: the system clock moved 2880 min; samples are kept as they are.');
  });
});
