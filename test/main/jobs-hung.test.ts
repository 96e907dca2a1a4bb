// A bulk extend whose service takes requests and never answers them (hung), against a real sandbox process behind the
// loopback proxy of test/support/held-sandbox.ts, which from the PASSED_BEFORE_HANG-th extend on holds every extend
// it receives with no answer. The client's own request timeout (short here only) ends each held request as unknown.
// Proven by counts, item states and the sandbox's own expiries, never by how long anything took:
// - the job stops by itself, interrupted, once HUNG_AFTER_PROBES probes in a row (each alone on the wire after the
//   first timeout) got no answer, in words that say what happened and the way on;
// - the unknown items are exactly the requests that went into the hang: those on the wire when it began (at most
//   the ceiling) and the probes (HUNG_AFTER_PROBES), so at most CEILING + HUNG_AFTER_PROBES; every other key is
//   done or pending, never sent;
// - every done key was extended exactly once on the sandbox, and a resume against the answering sandbox finishes
//   the pending ones without sending an unknown one again.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/main/client/service-client.ts';
import { HUNG_AFTER_PROBES } from '../../src/shared/rules.ts';
import { JobService } from '../../src/main/jobs/job-service.ts';
import { LocalDb } from '../../src/main/store/local-db.ts';
import type { JobSummary } from '../../src/shared/domain.ts';
import { ROUTES } from '../../src/shared/wire.ts';
import { startHeldSandbox, type HeldSandbox } from '../support/held-sandbox.ts';
import { tempDir } from '../support/temp-dir.ts';

const CEILING = 4;
const KEYS = 40;
/** Extends passed on before the proxy starts holding them. */
const PASSED_BEFORE_HANG = 6;

/** One extend held by the proxy: its key, and the job as main held it when the request arrived. */
interface Arrival {
  key: string;
  sentThen: number;
  unknownThen: number;
}

let held: HeldSandbox;
let direct: ServiceClient;
let db: LocalDb;
let jobs: JobService;
let extendsSeen = 0;
/** The service answers again: extends are counted and passed on, none held. */
let answering = false;
const arrivals: Arrival[] = [];
const events: JobSummary[] = [];

function runningJob(): JobSummary | undefined {
  return jobs.list('p1').find((j) => j.state === 'running');
}

beforeAll(async () => {
  held = await startHeldSandbox({
    file: 'sandbox.db',
    name: 'Hung Shop',
    identifier: 'hung-shop',
    holding: true,
    // Every extend after the first PASSED_BEFORE_HANG is held, never answered while the test runs.
    holds: (req) => {
      if (new URL(req.url ?? '/', 'http://x').pathname !== ROUTES.expandExpiration.path) return false;
      if (++extendsSeen <= PASSED_BEFORE_HANG || answering) return false;
      const job = runningJob();
      arrivals.push({
        key: new URL(req.url ?? '/', 'http://x').searchParams.get('keyValue') ?? '',
        sentThen: job?.counts.sent ?? -1,
        unknownThen: job?.counts.unknown ?? -1,
      });
      return true;
    },
  });
  direct = new ServiceClient(
    { baseUrl: held.sandbox.url, validationUrl: `${held.sandbox.url}/v2_validation`, apiKey: held.apiKey },
    { retryDelaysMs: [] },
  );
  // A short wait for an answer (the client's own option) and a short silence (the engine's), so the hang is met
  // within the test's time; the rule that stops the job counts requests, not time.
  const client = new ServiceClient(
    { baseUrl: held.url, validationUrl: `${held.url}/v2_validation`, apiKey: held.apiKey },
    { retryDelaysMs: [], timeouts: { connectMs: 5_000, headersMs: 5_000, bodyMs: 5_000 } },
  );
  db = new LocalDb(join(tempDir('keydesk-hung-'), 'keydesk.db'));
  jobs = new JobService({
    db,
    profile: (id) => ({ id, name: 'Hung Shop', kind: 'remote' }),
    clientFor: () => Promise.resolve(client),
    emit: (s) => events.push(s),
    silentMs: 3_000,
  });
  await jobs.setCeiling('p1', CEILING);
});
afterAll(async () => {
  await jobs.close();
  db.close();
  await held.close();
});

/** A key's expiry as the sandbox holds it, read from the sandbox itself (not through the proxy). */
async function expiryOnSandbox(value: string): Promise<string | null> {
  const r = await direct.fetchGenerated(value);
  if (!r.ok) throw new Error(`${r.code} ${r.message}`);
  return r.data.keys.find((k) => k.value === value)?.expiresAt ?? null;
}

describe('a bulk extend whose service takes requests and answers none', () => {
  it('extends each key once across a hang, its stop and a resume', { timeout: 180_000 }, async () => {
    const generated = await direct.generate({ expire: '2099-01-31', count: KEYS, isPremium: false, note: 'hung batch' });
    if (!generated.ok) throw new Error(generated.message);
    const keys = generated.data.map((k) => k.value).sort();
    const before = new Date(Date.UTC(2099, 0, 31, 23, 59, 59, 999)).toISOString();
    const after = new Date(Date.UTC(2099, 1, 5, 23, 59, 59, 999)).toISOString();
    expect(await expiryOnSandbox(keys[0] ?? '')).toBe(before);

    const started = await jobs.start('p1', { action: 'extend', target: { keyValues: keys }, days: 5 });
    if (!started.ok) throw new Error(started.message);
    const id = started.data.id;
    // The job ends by itself: nothing answers, nothing is let through, nobody cancels. (Before, it sent a probe per
    // timeout for as long as the hang lasted; this poll's timeout is only the hang catcher.)
    await expect.poll(() => jobs.get('p1', id)?.state, { timeout: 90_000 }).toBe('interrupted');
    await jobs.settled(id);

    // Probes: the extends that arrived after the first timeout, each alone on the wire; exactly HUNG_AFTER_PROBES.
    const probes = arrivals.filter((a) => a.unknownThen > 0);
    expect(probes.map((a) => a.sentThen)).toEqual(Array.from({ length: HUNG_AFTER_PROBES }, () => 1));
    // Those on the wire when the hang began: at least one, at most the ceiling.
    const firstWave = arrivals.length - probes.length;
    expect(firstWave).toBeGreaterThan(0);
    expect(firstWave).toBeLessThanOrEqual(CEILING);
    expect(held.heldCount()).toBe(arrivals.length);

    const end = jobs.get('p1', id);
    expect(end?.counts).toEqual({
      pending: KEYS - PASSED_BEFORE_HANG - arrivals.length,
      sent: 0,
      done: PASSED_BEFORE_HANG,
      failed: 0,
      unknown: arrivals.length,
    });
    expect(end?.counts.unknown).toBeLessThanOrEqual(CEILING + HUNG_AFTER_PROBES);
    const pendingLeft = end?.counts.pending ?? 0;
    expect(end?.reason).toBe(
      `Hung Shop stopped answering: ${arrivals.length} requests in a row got no answer in time, the last ${HUNG_AFTER_PROBES} sent one at a time to check, so this job stopped sending. The ${pendingLeft} keys left were not sent (still pending): Resume the job once Hung Shop answers again.`,
    );
    // While it hung it said the service was not answering; its last word is the stop, which no longer says so.
    const ofJob = events.filter((e) => e.id === id);
    expect(ofJob.some((e) => e.state === 'running' && e.notAnswering !== undefined)).toBe(true);
    expect(ofJob.at(-1)).toMatchObject({ state: 'interrupted', reason: end?.reason });
    expect(ofJob.at(-1)?.notAnswering).toBeUndefined();
    // The file says the same once the run is over.
    expect(db.job(id)).toMatchObject({ state: 'interrupted', reason: end?.reason });

    const items = db.jobItems(id, undefined, 0, 1_000).items;
    const byState = (state: string): string[] =>
      items
        .filter((i) => i.state === state)
        .map((i) => i.target)
        .sort();
    expect(byState('unknown')).toEqual(arrivals.map((a) => a.key).sort());
    const done = byState('done');
    const pending = byState('pending');
    expect(done).toHaveLength(PASSED_BEFORE_HANG);
    // Done keys extended exactly once on the sandbox (5 days, not 10); pending ones never reached it.
    for (const value of done) expect(await expiryOnSandbox(value), value).toBe(after);
    for (const value of pending) expect(await expiryOnSandbox(value), value).toBe(before);

    // The service goes on: what it held is applied (the client gave up on it: its answers go nowhere).
    answering = true;
    held.release();
    // Holding again only to count what arrives (answering: nothing is held).
    held.hold();
    for (const a of arrivals) await expect.poll(() => expiryOnSandbox(a.key), { timeout: 30_000 }).toBe(after);

    // A resume against the answering sandbox sends the pending keys, and only them.
    const seenBefore = extendsSeen;
    const resumed = await jobs.resume('p1', id, false);
    expect(resumed.ok).toBe(true);
    await jobs.settled(id);
    expect(jobs.get('p1', id)).toMatchObject({
      state: 'finished',
      reason: null,
      counts: { pending: 0, sent: 0, failed: 0, done: KEYS - arrivals.length, unknown: arrivals.length },
    });
    expect(extendsSeen - seenBefore).toBe(pending.length);
    // Every key extended exactly once on the sandbox: the unknown ones were not sent again.
    for (const value of keys) expect(await expiryOnSandbox(value), value).toBe(after);
  });
});
