// A job's rate and time left: main's when it has them, else measured in the window from the answers it has seen;
// none before an answer, none once the job stops.
import { describe, expect, it } from 'vitest';
import type { JobSummary } from '../../src/shared/domain.ts';
import { jobLine, withPace } from '../../src/renderer/src/lib/jobs.ts';

const job = (over: Partial<JobSummary>): JobSummary => ({
  id: 'j1',
  profileId: 'sandbox',
  action: 'generate',
  days: null,
  note: null,
  state: 'running',
  reason: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  finishedAt: null,
  total: 300_000,
  counts: { pending: 300_000, sent: 0, done: 0, failed: 0, unknown: 0 },
  ratePerSecond: null,
  etaSeconds: null,
  concurrency: 1,
  ceiling: 1,
  pausedUntil: null,
  version: 1,
  ...over,
});
const T0 = Date.parse('2026-01-01T00:00:00.000Z');

describe('job pace', () => {
  it('before any answer, says the first request is on its way', () => {
    const j = withPace(
      job({ counts: { pending: 200_000, sent: 100_000, done: 0, failed: 0, unknown: 0 } }),
      { id: 'j1', at: T0, settled: 0 },
      T0 + 5_000,
    );
    expect(j.ratePerSecond).toBeNull();
    expect(jobLine(j)).toBe('Generate, running: sending the first request, 0 of 300,000 done until it answers.');
    expect(jobLine(job({ action: 'delete', total: 40, counts: { pending: 30, sent: 10, done: 0, failed: 0, unknown: 0 } }))).toBe(
      'Delete, running: sending the first requests, 0 of 40 done until they answer.',
    );
  });

  it('measures the answers since the window first saw the job', () => {
    const j = withPace(
      job({ counts: { pending: 100_000, sent: 100_000, done: 100_000, failed: 0, unknown: 0 } }),
      { id: 'j1', at: T0, settled: 0 },
      T0 + 10_000,
    );
    expect(j.ratePerSecond).toBe(10_000);
    expect(j.etaSeconds).toBe(20);
    expect(jobLine(j)).toBe('Generate, running: 100,000 of 300,000 done, 10,000 keys/s, about 20 s left.');
  });

  it('counts only what answered after the base', () => {
    const j = withPace(
      job({ counts: { pending: 0, sent: 100_000, done: 200_000, failed: 0, unknown: 0 } }),
      { id: 'j1', at: T0, settled: 100_000 },
      T0 + 50_000,
    );
    expect(j.ratePerSecond).toBe(2_000);
    expect(j.etaSeconds).toBe(50);
  });

  it("keeps main's own figures when it has them", () => {
    const mains = job({
      counts: { pending: 0, sent: 100_000, done: 200_000, failed: 0, unknown: 0 },
      ratePerSecond: 40_000,
      etaSeconds: 3,
    });
    expect(withPace(mains, { id: 'j1', at: T0, settled: 0 }, T0 + 1_000)).toBe(mains);
    const stopped = job({ state: 'cancelled', counts: { pending: 100_000, sent: 0, done: 200_000, failed: 0, unknown: 0 } });
    expect(withPace(stopped, { id: 'j1', at: T0, settled: 0 }, T0 + 1_000).ratePerSecond).toBeNull();
    const other = job({ counts: { pending: 100_000, sent: 0, done: 200_000, failed: 0, unknown: 0 } });
    expect(withPace(other, { id: 'j2', at: T0, settled: 0 }, T0 + 1_000).ratePerSecond).toBeNull();
  });

  it('gives no rate until enough answers, then 1 key/s', () => {
    const early = job({
      action: 'extend',
      days: 1,
      total: 741_267,
      counts: { pending: 741_200, sent: 63, done: 4, failed: 0, unknown: 0 },
      ratePerSecond: 1,
      etaSeconds: 1_309_000,
    });
    expect(jobLine(early)).toBe('Extend by 1 day, running: 4 of 741,267 done, estimating the time left.');
    const settled = job({
      action: 'extend',
      days: 2,
      total: 741_267,
      counts: { pending: 600_000, sent: 267, done: 141_000, failed: 0, unknown: 0 },
      ratePerSecond: 1_200,
      etaSeconds: 500,
    });
    expect(jobLine(settled)).toBe('Extend by 2 days, running: 141,000 of 741,267 done, 1,200 keys/s, about 8 min left.');
    const slow = job({
      action: 'delete',
      total: 10,
      counts: { pending: 5, sent: 1, done: 4, failed: 0, unknown: 0 },
      ratePerSecond: 1,
      etaSeconds: 6,
    });
    expect(jobLine(slow)).toBe('Delete, running: 4 of 10 done, 1 key/s, about 6 s left.');
  });

  it("after a resume, rates only this run's answers", () => {
    // 1,582 done before the resume, a burst of 146 answers in the run's first second: no figure yet.
    const resumed = job({
      action: 'extend',
      days: 10,
      total: 5_000,
      counts: { pending: 3_200, sent: 72, done: 1_728, failed: 0, unknown: 0 },
      ratePerSecond: 244,
      etaSeconds: 14,
      runAnswered: 146,
    });
    expect(jobLine(resumed)).toBe('Extend by 10 days, running: 1,728 of 5,000 done, estimating the time left.');
    // Once this run has answered its share of what it had left, the rate shows.
    const later = job({
      action: 'extend',
      days: 10,
      total: 5_000,
      counts: { pending: 2_900, sent: 12, done: 2_088, failed: 0, unknown: 0 },
      ratePerSecond: 60,
      etaSeconds: 49,
      runAnswered: 506,
    });
    expect(jobLine(later)).toBe('Extend by 10 days, running: 2,088 of 5,000 done, 60 keys/s, about 49 s left.');
  });

  it('says how many requests await a silent service, with no rate', () => {
    const hung = job({
      action: 'extend',
      days: 10,
      total: 5_000,
      counts: { pending: 2_000, sent: 4, done: 2_982, failed: 0, unknown: 14 },
      notAnswering: { since: '2026-01-01T00:00:05.000Z', awaiting: 4 },
    });
    const paced = withPace(hung, { id: 'j1', at: T0, settled: 0 }, T0 + 60_000);
    expect(paced.ratePerSecond).toBeNull();
    const line = jobLine(paced);
    expect(line).toMatch(
      /^Extend by 10 days, running: 2,982 of 5,000 done, 14 unknown; the service has not answered since .+; 4 requests await an answer; until it answers, at most one request at a time is sent, to check \(it may take effect\), and the job stops once 3 of those in a row get no answer\.$/,
    );
    expect(line).not.toMatch(/keys\/s|left/);
  });
});
