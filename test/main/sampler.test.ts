// Main's sampling of the execution count while Keydesk runs: a tick records a sample of the active profile and
// tells the window, a read this interval spares the service, and the history names where Keydesk was closed.
import { afterEach, describe, expect, it } from 'vitest';
import type { EventMap } from '../../src/shared/contract.ts';
import { CountSampler } from '../../src/main/sampler.ts';
import { startTestCore, type TestCore } from '../support/core.ts';

let t: TestCore | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

describe("main's count sampler", () => {
  it('records a sample of the active profile and tells the window', async () => {
    t = await startTestCore();
    await t.must('executions.push');
    const heard: EventMap['executions.sampled'][] = [];
    t.core.on('executions.sampled', (e) => heard.push(e));
    // The push sampled the count: a tick within half an interval spares the service.
    const sampler = new CountSampler(t.core, 60_000);
    await sampler.tick();
    expect(heard).toEqual([]);
    // With no interval to spare, the tick reads the count and records it.
    const eager = new CountSampler(t.core, 0);
    await eager.tick();
    expect(heard).toMatchObject([{ profileId: 'sandbox', count: 1 }]);
    expect(t.core.db.latestSample('sandbox')).toEqual({ count: 1, at: heard[0]?.at });
    await Promise.all([sampler.stop(), eager.stop()]);
  });

  it("follows the Settings view's sampling interval as it changes", async () => {
    t = await startTestCore();
    const sampler = new CountSampler(t.core);
    expect(sampler.intervalMs).toBe(t.core.settings.value.sampleEverySeconds * 1000);
    t.core.settings.update({ sampleEverySeconds: 15 });
    expect(sampler.intervalMs).toBe(15_000);
    await sampler.stop();
    t.core.settings.update({ sampleEverySeconds: 30 });
    expect(sampler.intervalMs).toBe(15_000);
  });

  it('names where Keydesk was closed between two runs in the history', async () => {
    t = await startTestCore();
    // Two earlier runs, an hour apart, as their samplers noted them, and this one's tick.
    const now = Date.now();
    const at = (hoursAgo: number) => new Date(now - hoursAgo * 3_600_000).toISOString();
    await t.core.writer.run('runAlive', { startedAt: at(5), at: at(4) });
    await t.core.writer.run('runAlive', { startedAt: at(3), at: at(2) });
    await new CountSampler(t.core, 60_000).tick();
    const history = await t.must('executions.history', { range: '24h' });
    expect(history.closed?.[0]).toEqual({ from: at(4), to: at(3) });
    expect(history.closed).toHaveLength(2);
    // The last hour names only the span that reaches into it: from the second run's end to this one's start.
    const lastHour = (await t.must('executions.history', { range: '1h' })).closed ?? [];
    expect(lastHour.map((c) => c.from)).toEqual([at(2)]);
  });
});
