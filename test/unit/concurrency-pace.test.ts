// The in-flight limit finds a remote service's pace: it grows to the ceiling while latency holds, eases down as
// latency rises with load, and halves on 429, 5xx or a timeout. A simulated service; time comes in as arguments.
import { describe, expect, it } from 'vitest';
import { AdaptiveConcurrency, START_CONCURRENCY } from '../../src/main/jobs/concurrency.ts';

/**
 * Runs `c` against a service whose latency is `latencyMs(inFlight, now)`, keeping the limit full, from `from` for
 * `forMs` of simulated time; returns the time it stopped and the highest limit seen.
 */
function simulate(
  c: AdaptiveConcurrency,
  latencyMs: (inFlight: number, now: number) => number,
  forMs: number,
  from = 0,
): { now: number; peak: number } {
  const wire: { ticket: number; sentAt: number; due: number }[] = [];
  let now = from;
  let peak = c.limit;
  while (now < from + forMs) {
    while (wire.length < c.limitAt(now)) {
      const due = now + latencyMs(wire.length + 1, now);
      wire.push({ ticket: c.sent(now), sentAt: now, due });
    }
    wire.sort((a, b) => a.due - b.due);
    const next = wire.shift();
    if (next === undefined) break;
    now = next.due;
    c.answered(next.ticket, now - next.sentAt, now);
    peak = Math.max(peak, c.limit);
  }
  return { now, peak };
}

describe('adaptive concurrency toward a remote service', () => {
  it('doubles to 16, then grows one a round trip to the ceiling', () => {
    const c = new AdaptiveConcurrency(64);
    expect(c.limit).toBe(START_CONCURRENCY);
    let { now } = simulate(c, () => 100, 250);
    expect(c.limit).toBe(16);
    // Ten round trips later, about ten more.
    ({ now } = simulate(c, () => 100, 1_000, now));
    expect(c.limit).toBeGreaterThanOrEqual(24);
    expect(c.limit).toBeLessThanOrEqual(28);
    simulate(c, () => 100, 5_000, now);
    expect(c.limit).toBe(64);
  });

  it('grows again one a round trip after a halving, at steady latency', () => {
    const c = new AdaptiveConcurrency(256);
    const { now } = simulate(c, () => 100, 500);
    c.overloaded(c.sent(now), now, undefined);
    const halved = c.limit;
    simulate(c, () => 100, 2_000, now);
    expect(c.limit).toBeGreaterThanOrEqual(halved + 15);
    expect(c.limit).toBeLessThanOrEqual(halved + 21);
  });

  it('stops short of the ceiling where queueing doubles the latency', () => {
    const c = new AdaptiveConcurrency(256);
    // 100 ms up to 20 in flight; beyond, each request more waits 10 ms in the service's queue.
    const queueing = (inFlight: number): number => 100 + Math.max(0, inFlight - 20) * 10;
    const { now, peak } = simulate(c, queueing, 5_000);
    // Growth stops about where the latency doubled (30 in flight), far below the ceiling.
    expect(peak).toBeLessThan(64);
    expect(c.limit).toBeGreaterThanOrEqual(25);
    expect(c.limit).toBeLessThanOrEqual(40);
    // The baseline rises slowly: ten seconds on, the limit is still far from the ceiling.
    simulate(c, queueing, 10_000, now);
    expect(c.limit).toBeLessThan(50);
  });

  it('eases the limit down when the service slows at the same load', () => {
    const c = new AdaptiveConcurrency(64);
    const { now } = simulate(c, () => 100, 6_000);
    expect(c.limit).toBe(64);
    // The service now takes four times as long to answer the same requests.
    simulate(c, () => 400, 4_000, now);
    expect(c.limit).toBeLessThan(40);
    // Latency alone never takes it below HEADROOM ÷ (1 − 0.5).
    expect(c.limit).toBeGreaterThanOrEqual(8);
  });

  it('takes a lasting latency change as the norm and grows again', () => {
    const c = new AdaptiveConcurrency(64);
    let { now } = simulate(c, () => 100, 6_000);
    ({ now } = simulate(c, () => 400, 2_000, now));
    const eased = c.limit;
    expect(eased).toBeLessThan(64);
    simulate(c, () => 400, 120_000, now);
    expect(c.limit).toBe(64);
  });

  it.each([
    ['a 429 with Retry-After', (c: AdaptiveConcurrency, t: number, now: number) => c.overloaded(t, now, 1)],
    ['a 5xx', (c: AdaptiveConcurrency, t: number, now: number) => c.overloaded(t, now, undefined)],
    ['a timeout', (c: AdaptiveConcurrency, t: number, now: number) => c.noAnswer(t, now)],
  ])('halves the limit once a round trip on %s', (_what, fail) => {
    const c = new AdaptiveConcurrency(64);
    const { now } = simulate(c, () => 100, 6_000);
    const wave = Array.from({ length: c.limit }, () => c.sent(now));
    // Every request of the wave fails; only the first halves, as the others were sent before it.
    for (const t of wave) fail(c, t, now + 100);
    expect(c.limit).toBe(32);
    // The next round trip's failure halves again.
    fail(c, c.sent(now + 100), now + 200);
    expect(c.limit).toBe(16);
  });
});
