// A bulk extend, through the real core and job engine, against a service that stops answering: a loopback server
// in front of a real sandbox process passes requests on, then for a while takes them and holds them without an
// answer, counting every one that arrives. The client's own request timeout (clientOptions.timeouts, short here
// only) ends each held request as unknown. Proven by counts and events, never by how long anything took:
// - after the first timeouts, nothing more goes out into the hang than one probe at a time;
// - the job's progress says the service is not answering, and since when;
// - once the server answers again the job finishes; every key it calls done was extended exactly once on the
//   sandbox (read back from the sandbox: extend is not idempotent), the items whose requests hung are unknown,
//   and none of them was sent again.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/main/client/service-client.ts';
import { batchValues } from '../../src/shared/key-batch.ts';
import type { JobSummary } from '../../src/shared/domain.ts';
import { ROUTES } from '../../src/shared/wire.ts';
import { startTestCore, type TestCore } from '../support/core.ts';
import { createService, startSandbox, type SandboxProcess } from '../support/sandbox-process.ts';
import { tempDir } from '../support/temp-dir.ts';

const CEILING = 4;
const KEYS = 24;
/** Extends passed on before the server starts holding them. */
const PASSED_BEFORE_HANG = 6;

/** One request as the server saw it. */
interface Arrival {
  key: string;
  /** Taken during the hang, and held with no answer. */
  held: boolean;
  /** The job as main held it when the request arrived: its items on the wire, and those already unknown. */
  sentThen: number;
  unknownThen: number;
  /** The answer went back to the client. */
  answered: boolean;
  /** The client closed the request before it had an answer (its timeout). */
  gone: boolean;
  /** When the client gave up (Date.now()), for the bound on "not answering since". */
  goneAt?: number;
}

let t: TestCore;
let sandbox: SandboxProcess;
let proxy: Server;
let direct: ServiceClient;
let profileId = '';
let holding = false;
let hung = false;
let extendsSeen = 0;
const arrivals: Arrival[] = [];
const held: (() => void)[] = [];
const forwards: Promise<void>[] = [];
/** Every progress event main emitted, with when it came (Date.now()). */
const events: (JobSummary & { at: number })[] = [];

/** The running extend job as main holds it now (synchronous: the server's handler reads it as a request arrives). */
function runningJob(): JobSummary | undefined {
  return t.core.jobs.list(profileId).find((j) => j.action === 'extend' && j.state === 'running');
}

function forward(upstream: string, req: IncomingMessage, body: string, res: ServerResponse, arrival: Arrival | null): () => void {
  const url = new URL(req.url ?? '/', upstream);
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length')) as Record<
    string,
    string
  >;
  return () => {
    forwards.push(
      fetch(url, { method: req.method ?? 'GET', headers, body: req.method === 'GET' ? null : body }).then(async (up) => {
        const text = await up.text();
        // A request the client gave up on is still applied (a service that froze, then went on); its answer goes nowhere.
        if (res.destroyed || arrival?.gone === true) return;
        if (arrival) arrival.answered = true;
        res.writeHead(up.status, { 'content-type': 'application/json' }).end(text);
      }),
    );
  };
}

beforeAll(async () => {
  const db = join(tempDir('keydesk-hang-'), 'sandbox.db');
  const service = createService(db, 'Hung Shop', 'hung-shop');
  sandbox = await startSandbox({ db });
  direct = new ServiceClient(
    { baseUrl: sandbox.url, validationUrl: `${sandbox.url}/v2_validation`, apiKey: service.apiKey },
    { retryDelaysMs: [] },
  );
  proxy = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', sandbox.url);
      if (url.pathname !== ROUTES.expandExpiration.path) {
        forward(sandbox.url, req, body, res, null)();
        return;
      }
      // The hang begins once, after PASSED_BEFORE_HANG extends, and ends when the test lets it go.
      if (++extendsSeen > PASSED_BEFORE_HANG && !hung) {
        hung = true;
        holding = true;
      }
      const job = runningJob();
      const arrival: Arrival = {
        key: url.searchParams.get('keyValue') ?? '',
        held: holding,
        sentThen: job?.counts.sent ?? -1,
        unknownThen: job?.counts.unknown ?? -1,
        answered: false,
        gone: false,
      };
      arrivals.push(arrival);
      res.on('close', () => {
        if (arrival.answered) return;
        arrival.gone = true;
        arrival.goneAt = Date.now();
      });
      const pass = forward(sandbox.url, req, body, res, arrival);
      if (holding) held.push(pass);
      else pass();
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  // A short wait for an answer (the client's own option), so a held request is unknown within the test's time.
  t = await startTestCore({ clientOptions: { timeouts: { connectMs: 5_000, headersMs: 3_000, bodyMs: 3_000 }, retryDelaysMs: [] } });
  t.core.on('jobs.progress', (s) => events.push({ ...s, at: Date.now() }));
  const profile = await t.must('profiles.add', {
    name: 'Hung Shop',
    baseUrl: base,
    apiKey: service.apiKey,
    serviceIdentifier: 'hung-shop',
  });
  profileId = profile.id;
  await t.must('profiles.select', { id: profile.id });
  await t.core.jobs.setCeiling(profile.id, CEILING);
});
afterAll(async () => {
  await t.close();
  proxy.closeAllConnections();
  await new Promise((r) => proxy.close(r));
  await sandbox.stop();
});

/** A key's expiry as the sandbox holds it, read from the sandbox itself (not through the server in front). */
async function expiryOnSandbox(value: string): Promise<string | null> {
  const r = await direct.fetchGenerated(value);
  if (!r.ok) throw new Error(`${r.code} ${r.message}`);
  return r.data.keys.find((k) => k.value === value)?.expiresAt ?? null;
}

describe('a bulk extend whose service stops answering, through the real core', () => {
  it('probes the hang one at a time, leaving the hung keys unknown', async () => {
    const keys = batchValues(
      (await t.must('keys.generate', { expire: '2099-01-31', count: KEYS, isPremium: false, note: 'hang batch' })).generated,
    );
    await t.core.writer.idle();
    const before = new Date(Date.UTC(2099, 0, 31, 23, 59, 59, 999)).toISOString();
    const after = new Date(Date.UTC(2099, 1, 5, 23, 59, 59, 999)).toISOString();
    expect(await expiryOnSandbox(keys[0] ?? '')).toBe(before);

    const startedAt = Date.now();
    const job = await t.must('jobs.start', { action: 'extend', target: { keyValues: keys }, days: 5 });

    // The hang lasts until two requests have arrived after the first timeout: a probe timed out, and another went
    // (fewer probes with no answer than HUNG_AFTER_PROBES, after which the job stops: jobs-hung.test.ts).
    const probes = (): Arrival[] => arrivals.filter((a) => a.held && a.unknownThen > 0);
    await expect.poll(() => probes().length, { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
    const during = arrivals.filter((a) => a.held);
    // Every request that arrived after the first timeout was alone on the wire: the probe, and nothing beside it.
    expect(probes().map((a) => a.sentThen)).toEqual(probes().map(() => 1));
    // Before the first timeout, no more than the limit (at most the ceiling) went into the hang.
    expect(during.length - probes().length).toBeGreaterThan(0);
    expect(during.length - probes().length).toBeLessThanOrEqual(CEILING);

    // The job said so while it hung: not answering, since a moment between the job's start and the first timeout.
    const said = events.filter((e) => e.id === job.id && e.notAnswering !== undefined);
    expect(said.length).toBeGreaterThan(0);
    const firstGone = Math.min(...during.map((a) => a.goneAt ?? Number.POSITIVE_INFINITY));
    for (const e of said) {
      expect(e).toMatchObject({ state: 'running', ratePerSecond: null, etaSeconds: null });
      const since = Date.parse(e.notAnswering?.since ?? '');
      // performance.now() and Date.now() may drift apart by a little: a second either way is no claim on speed.
      expect(since).toBeGreaterThanOrEqual(startedAt - 1_000);
      expect(since).toBeLessThanOrEqual(Math.min(e.at, firstGone) + 1_000);
      expect(e.notAnswering?.awaiting).toBeLessThanOrEqual(CEILING);
    }

    // The service answers again: what it held goes on (the one still waiting gets its answer), and so does the job.
    const heldCount = during.length;
    holding = false;
    for (const pass of held.splice(0)) pass();
    await t.core.jobs.settled(job.id);
    await Promise.all(forwards);
    await t.core.writer.idle();

    const end = await t.must('jobs.get', { jobId: job.id });
    expect(end).toMatchObject({ state: 'finished', counts: { pending: 0, sent: 0, failed: 0 } });
    // Once answers came back, the job stopped saying the service was not answering while it still ran (an event of
    // the running job, after the last that said it); the end's summary alone would prove nothing, as main says
    // "not answering" only of a live run.
    const ofJob = events.filter((e) => e.id === job.id);
    const lastSaid = ofJob.findLastIndex((e) => e.notAnswering !== undefined);
    expect(lastSaid).toBeGreaterThanOrEqual(0);
    expect(ofJob.slice(lastSaid + 1).some((e) => e.state === 'running' && e.notAnswering === undefined)).toBe(true);
    expect(end.counts.done + end.counts.unknown).toBe(KEYS);
    const { items } = await t.must('jobs.items', { jobId: job.id, offset: 0, limit: 100 });
    const unknown = items
      .filter((i) => i.state === 'unknown')
      .map((i) => i.target)
      .sort();
    const done = items
      .filter((i) => i.state === 'done')
      .map((i) => i.target)
      .sort();

    // Each key's extend reached the server exactly once: nothing was sent again, the unknown ones included.
    const times = new Map<string, number>();
    for (const a of arrivals) times.set(a.key, (times.get(a.key) ?? 0) + 1);
    expect([...times.keys()].sort()).toEqual([...keys].sort());
    expect([...times.values()].every((n) => n === 1)).toBe(true);
    // The unknown items are exactly those whose requests the client gave up on: the ones that hung.
    expect(unknown).toEqual(
      arrivals
        .filter((a) => a.gone)
        .map((a) => a.key)
        .sort(),
    );
    expect(unknown.length).toBeGreaterThanOrEqual(heldCount - 1);
    expect(arrivals.filter((a) => a.gone).every((a) => a.held)).toBe(true);

    // On the sandbox, every done key is extended once (5 days, not 10); so is every unknown one, which the
    // service applied when it went on: the job calls them unknown, which is true, and never sent them again.
    for (const value of done) expect(await expiryOnSandbox(value), value).toBe(after);
    for (const value of unknown) expect(await expiryOnSandbox(value), value).toBe(after);
    // The ledger does not state the expiry seen before as fact for the unknown ones.
    const rows = (
      await t.must('ledger.query', { filter: { text: 'hang batch' }, sort: { field: 'value', dir: 'asc' }, offset: 0, limit: 100 })
    ).rows;
    expect(rows.filter((r) => r.expiryStale).map((r) => r.value)).toEqual(unknown);
  });
});
