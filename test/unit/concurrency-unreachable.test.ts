// A service that is gone (its connections fail: refused, reset, closed with no answer) while a job runs: it counts as
// unreachable only after UNREACHABLE_AFTER lost connections in a row with a probe among them (one sent after the first
// had failed), so a burst of resets on the requests already in flight (a proxy restarting) is not enough; any answer
// ends the run, and a timeout (a slow service, the hang's) neither adds to it nor ends it.
import { describe, expect, it } from 'vitest';
import { AdaptiveConcurrency, UNREACHABLE_AFTER } from '../../src/main/jobs/concurrency.ts';

describe('adaptive concurrency against a service that is gone', () => {
  it('counts as unreachable only once a probe after the losses is lost', () => {
    const c = new AdaptiveConcurrency(64);
    let now = 0;
    for (let i = 0; i < 20; i++) c.answered(c.sent(now), 5, (now += 5));
    // More than UNREACHABLE_AFTER requests on the wire lose their connections at once: not yet, no probe among them.
    const onWire = Array.from({ length: UNREACHABLE_AFTER + 3 }, () => c.sent(now));
    for (const t of onWire) c.connectionLost(t, (now += 1));
    expect(c.unreachable).toBe(false);
    // Held to one probe, as a hang is; the probe is lost too: gone.
    expect(c.limitAt(now)).toBe(1);
    c.connectionLost(c.sent(now), (now += 1));
    expect(c.unreachable).toBe(true);
    expect(c.lostConnections).toBe(UNREACHABLE_AFTER + 4);
  });

  it('needs UNREACHABLE_AFTER losses in a row; an answer restarts the count', () => {
    const c = new AdaptiveConcurrency(8);
    let now = 0;
    const lose = (): void => c.connectionLost(c.sent(now), (now += 1));
    for (let i = 0; i < UNREACHABLE_AFTER - 1; i++) lose();
    expect(c.unreachable).toBe(false);
    // An answer (here a refusal of the item: still an answer) ends the run.
    c.answered(c.sent(now), 5, (now += 5));
    for (let i = 0; i < UNREACHABLE_AFTER - 1; i++) lose();
    expect(c.unreachable).toBe(false);
    // A timeout is no answer, and not a lost connection either: the run goes on, one short.
    c.noAnswer(c.sent(now), (now += 15_000));
    expect(c.unreachable).toBe(false);
    lose();
    expect(c.unreachable).toBe(true);
    // An overload is an answer too.
    c.overloaded(c.sent(now), (now += 5), undefined);
    expect(c.unreachable).toBe(false);
  });
});
