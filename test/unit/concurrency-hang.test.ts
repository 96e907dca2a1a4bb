// A service that stops answering (accepts, never answers) while a job runs: the in-flight limit halves, nothing
// more is opened into the hang but a single probe, and once it answers again the pace from before comes back
// within RECOVER_ANSWERS clean answers. Time comes in as arguments: counts, not speeds, are asserted.
import { describe, expect, it } from 'vitest';
import { AdaptiveConcurrency, RECOVER_ANSWERS, SILENT_MS } from '../../src/main/jobs/concurrency.ts';
import { HUNG_AFTER_PROBES } from '../../src/shared/rules.ts';

describe('adaptive concurrency against a hung service', () => {
  it('regains the limit from before a hang after RECOVER_ANSWERS clean answers', () => {
    const c = new AdaptiveConcurrency(64);
    let now = 0;
    // Fast clean answers grow the limit.
    for (let i = 0; i < 40; i++) c.answered(c.sent(now), 5, (now += 5));
    const before = c.limit;
    expect(before).toBeGreaterThan(8);
    expect(c.limitAt(now)).toBe(before);

    // The service hangs with `before` requests in flight.
    const hung = Array.from({ length: before }, () => c.sent(now));
    expect(c.silentSince(now + SILENT_MS - 1)).toBeNull();
    now += SILENT_MS;
    expect(c.silentSince(now)).not.toBeNull();
    // Held: no room beside the hung requests.
    expect(c.limitAt(now) - c.awaiting).toBeLessThanOrEqual(0);
    // They time out one by one: unknown, never answered. The limit halves; still nothing more than one in flight.
    for (const t of hung) c.noAnswer(t, (now += 10));
    expect(c.limit).toBeLessThan(before);
    expect(c.limitAt(now)).toBe(1);
    const probe = c.sent(now);
    expect(c.limitAt(now) - c.awaiting).toBe(0);
    c.noAnswer(probe, (now += 15_000));
    expect(c.limitAt(now)).toBe(1);

    // Answering again: the first answer ends the hold; RECOVER_ANSWERS clean answers bring the limit back.
    for (let i = 0; i < RECOVER_ANSWERS; i++) {
      const t = c.sent(now);
      c.answered(t, 5, (now += 5));
      expect(c.silentSince(now)).toBeNull();
    }
    expect(c.limit).toBeGreaterThanOrEqual(before);
  });

  it('after a hang, a 429 sets the pace over the earlier one', () => {
    const c = new AdaptiveConcurrency(64);
    let now = 0;
    for (let i = 0; i < 40; i++) c.answered(c.sent(now), 5, (now += 5));
    const before = c.limit;
    c.noAnswer(c.sent(now), (now += SILENT_MS));
    c.overloaded(c.sent(now), (now += 5), 1);
    for (let i = 0; i < RECOVER_ANSWERS; i++) c.answered(c.sent(now), 5, (now += 5));
    expect(c.limit).toBeLessThan(before);
  });

  it('gives the moment the service will count as not answering', () => {
    const c = new AdaptiveConcurrency(8, 1_000);
    // Nothing in flight: nothing to wait for.
    expect(c.silentAt(0)).toBeNull();
    const first = c.sent(100);
    c.sent(300);
    // The oldest request in flight, plus the silence allowed; not a moment sooner.
    expect(c.silentAt(400)).toBe(1_100);
    expect(c.silentSince(1_099)).toBeNull();
    expect(c.silentSince(1_100)).toBe(100);
    // Once it counts as not answering, there is no moment left to wait for.
    expect(c.silentAt(1_100)).toBeNull();
    // An answer ends the silence; the next moment runs from it, the later of it and the oldest still in flight.
    c.answered(first, 5, 1_200);
    expect(c.silentSince(1_200)).toBeNull();
    expect(c.silentAt(1_200)).toBe(2_200);
  });

  it('a request whose headers came does not count toward a silence', () => {
    const c = new AdaptiveConcurrency(8, 1_000);
    const big = c.sent(0);
    expect(c.silentSince(1_000)).toBe(0);
    c.heard(big, 1_500);
    // The service answers: no silence while the body arrives, and no moment to wait for while nothing else is out.
    expect(c.silentSince(1_500)).toBeNull();
    expect(c.silentSince(60_000)).toBeNull();
    expect(c.silentAt(60_000)).toBeNull();
    expect(c.awaiting).toBe(1);
    // Another request out and unanswered still counts.
    c.sent(2_000);
    expect(c.silentAt(2_000)).toBe(3_000);
    expect(c.silentSince(3_000)).toBe(2_000);
    c.answered(big, 5, 3_100);
    expect(c.awaiting).toBe(1);
  });

  it('counts as hung after HUNG_AFTER_PROBES unanswered probes in a row', () => {
    const c = new AdaptiveConcurrency(8);
    let now = 0;
    for (let i = 0; i < 10; i++) c.answered(c.sent(now), 5, (now += 5));
    // However many were on the wire when the hang began, their timeouts alone are not enough: no probe among them.
    const wave = Array.from({ length: c.limit }, () => c.sent(now));
    for (const t of wave) c.noAnswer(t, (now += 15_000));
    expect(c.hung).toBe(false);
    const probe = (): void => c.noAnswer(c.sent(now), (now += 15_000));
    for (let i = 0; i < HUNG_AFTER_PROBES - 1; i++) probe();
    expect(c.hung).toBe(false);
    // An answer (a refusal of the item is one too) ends the run; its headers alone do not.
    c.answered(c.sent(now), 5, (now += 5));
    for (let i = 0; i < HUNG_AFTER_PROBES; i++) {
      expect(c.hung).toBe(false);
      const t = c.sent(now);
      if (i === 1) c.heard(t, now + 1);
      c.noAnswer(t, (now += 15_000));
    }
    // The first of these began the run (no probe); the next HUNG_AFTER_PROBES - 1 are probes: one more is needed.
    expect(c.hung).toBe(false);
    probe();
    expect(c.hung).toBe(true);
    expect(c.unansweredRun).toEqual({ requests: HUNG_AFTER_PROBES + 1, timedOut: HUNG_AFTER_PROBES + 1, probes: HUNG_AFTER_PROBES });
    c.overloaded(c.sent(now), (now += 5), undefined);
    expect(c.hung).toBe(false);
    // An answer Keydesk could not read (a 2xx it cannot parse) is an answer too: held, but the run starts again.
    for (let i = 0; i < HUNG_AFTER_PROBES; i++) probe();
    c.unreadable(c.sent(now), (now += 5));
    expect(c.limitAt(now)).toBe(1);
    for (let i = 0; i < HUNG_AFTER_PROBES; i++) probe();
    expect(c.hung).toBe(false);
    probe();
    expect(c.hung).toBe(true);
  });

  it('lost connections alone never make it hung; among timeouts they count', () => {
    const c = new AdaptiveConcurrency(8);
    let now = 0;
    const lose = (): void => c.connectionLost(c.sent(now), (now += 1));
    for (let i = 0; i < HUNG_AFTER_PROBES + 1; i++) lose();
    expect(c.hung).toBe(false);
    c.noAnswer(c.sent(now), (now += 15_000));
    expect(c.hung).toBe(true);
    expect(c.unansweredRun).toEqual({ requests: HUNG_AFTER_PROBES + 2, timedOut: 1, probes: HUNG_AFTER_PROBES + 1 });
  });
});
