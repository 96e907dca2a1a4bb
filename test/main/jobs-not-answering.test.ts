// A service that takes a job's requests and answers none, with no timeout to end them: nothing at all happens in
// the job (no answer, no timeout, nothing more sent), and still its progress must say, once the silence has lasted
// long enough, that the service is not answering and since when. The run's timer that says it goes with the run.
// The boundary is the point (a service that never answers), so the service is a loopback server that holds every
// request; the silence allowed is shortened through the engine's option, and waited for by events, not sleeps.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ServiceClient } from '../../src/main/client/service-client.ts';
import { JobService, realClock } from '../../src/main/jobs/job-service.ts';
import { LocalDb } from '../../src/main/store/local-db.ts';
import type { JobSummary } from '../../src/shared/domain.ts';
import { tempDir } from '../support/temp-dir.ts';

let server: Server;
let url = '';
const held: IncomingMessage[] = [];
/** Each held request's response and the key it names, for a test that answers one. */
const answers = new Map<IncomingMessage, { res: ServerResponse; key: string }>();
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    // Taken, never answered (unless a test answers it).
    req.on('end', () => {
      answers.set(req, { res, key: (JSON.parse(body || '{}') as { keyValue?: string }).keyValue ?? '' });
      held.push(req);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

/**
 * The job engine's timers (set in src/main/jobs) not yet fired or cleared, and how many it set in all: the
 * global setTimeout and clearTimeout watched for the test's length.
 */
function watchEngineTimers(): { live: Set<unknown>; set: () => number; restore: () => void } {
  const live = new Set<unknown>();
  let set = 0;
  const realSet = globalThis.setTimeout;
  const realClear = globalThis.clearTimeout;
  const setSpy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((
    fn: (...a: unknown[]) => void,
    ms?: number,
    ...args: unknown[]
  ) => {
    // Set by the engine's own code (the first frame past this spy and vitest's), not by the client or undici it calls.
    const frames = new Error().stack?.split('\n').slice(2) ?? [];
    const caller = frames.find((f) => !f.includes('node_modules') && !f.includes('jobs-not-answering.test')) ?? '';
    const engine = /[\\/]src[\\/]main[\\/]jobs[\\/]/.test(caller);
    const timer = realSet(
      (...a: unknown[]) => {
        live.delete(timer);
        fn(...a);
      },
      ms,
      ...args,
    );
    if (engine) {
      live.add(timer);
      set++;
    }
    return timer;
  }) as unknown as typeof setTimeout);
  const clearSpy = vi.spyOn(globalThis, 'clearTimeout').mockImplementation((timer) => {
    live.delete(timer);
    realClear(timer);
  });
  return {
    live,
    set: () => set,
    restore: () => {
      setSpy.mockRestore();
      clearSpy.mockRestore();
    },
  };
}

describe('a job whose service answers nothing at all', () => {
  it('says the service is not answering once the silence passes', async () => {
    const db = new LocalDb(join(tempDir('keydesk-silent-'), 'keydesk.db'));
    // No timeout comes within the test: only the silence says the service is not answering.
    const client = new ServiceClient(
      { baseUrl: url, validationUrl: `${url}/v2_validation`, apiKey: 'k' },
      { retryDelaysMs: [], timeouts: { connectMs: 5_000, headersMs: 600_000, bodyMs: 600_000 } },
    );
    const events: (JobSummary & { at: number })[] = [];
    const jobs = new JobService({
      db,
      profile: (id) => ({ id, name: 'Silent', kind: 'remote' }),
      clientFor: () => Promise.resolve(client),
      emit: (s) => events.push({ ...s, at: Date.now() }),
      silentMs: 500,
    });
    const timers = watchEngineTimers();
    try {
      await jobs.setCeiling('p1', 2);
      const startedAt = Date.now();
      const started = await jobs.start('p1', { action: 'delete', target: { keyValues: ['S1', 'S2', 'S3'] } });
      if (!started.ok) throw new Error(started.message);
      const id = started.data.id;
      await expect.poll(() => held.length).toBe(2);

      // Nothing answers and nothing times out; the event comes by itself once the silence has lasted.
      await expect.poll(() => events.some((e) => e.notAnswering !== undefined), { timeout: 30_000 }).toBe(true);
      const said = events.find((e) => e.notAnswering !== undefined);
      expect(said).toMatchObject({
        id,
        state: 'running',
        ratePerSecond: null,
        etaSeconds: null,
        counts: { sent: 2, pending: 1, done: 0, unknown: 0 },
        notAnswering: { awaiting: 2 },
      });
      const since = Date.parse(said?.notAnswering?.since ?? '');
      // Since the requests went out: after the start, before the event (a second either way for the two clocks).
      expect(since).toBeGreaterThanOrEqual(startedAt - 1_000);
      expect(since).toBeLessThanOrEqual((said?.at ?? 0) + 1_000);
      // Nothing more was sent into the silence.
      expect(held).toHaveLength(2);
      // Asked for now, the job says the same (since: the same moment, give or take the clocks' rounding).
      const now = jobs.get('p1', id)?.notAnswering;
      expect(now?.awaiting).toBe(2);
      expect(Math.abs(Date.parse(now?.since ?? '') - since)).toBeLessThan(1_000);

      // The run ends (cancelled; its two requests' connections drop: unknown): its timers go with it.
      jobs.cancel('p1', id);
      for (const req of held.splice(0)) req.socket.destroy();
      await jobs.settled(id);
      expect(events.at(-1)).toMatchObject({ id, state: 'cancelled', counts: { sent: 0, unknown: 2, pending: 1 } });
      // The run set timers (its silence watch at least), and none is left once it has ended.
      expect(timers.set()).toBeGreaterThan(0);
      expect(timers.live.size).toBe(0);
    } finally {
      timers.restore();
      await jobs.close();
      db.close();
    }
  });
});

describe('a job whose service answers again after a silence', () => {
  it('stops saying the service is not answering once an answer comes', async () => {
    const db = new LocalDb(join(tempDir('keydesk-silent-'), 'keydesk.db'));
    const client = new ServiceClient(
      { baseUrl: url, validationUrl: `${url}/v2_validation`, apiKey: 'k' },
      { retryDelaysMs: [], timeouts: { connectMs: 5_000, headersMs: 600_000, bodyMs: 600_000 } },
    );
    const events: JobSummary[] = [];
    const jobs = new JobService({
      db,
      profile: (id) => ({ id, name: 'Silent', kind: 'remote' }),
      clientFor: () => Promise.resolve(client),
      emit: (s) => events.push(s),
      silentMs: 500,
    });
    try {
      await jobs.setCeiling('p1', 2);
      const started = await jobs.start('p1', { action: 'delete', target: { keyValues: ['A1', 'A2'] } });
      if (!started.ok) throw new Error(started.message);
      const id = started.data.id;
      await expect.poll(() => held.length).toBe(2);
      // On failure the job as it stands says why (stopped, or counting no silence).
      await expect
        .poll(() => events.some((e) => e.notAnswering !== undefined), { timeout: 30_000 })
        .toBe(true)
        .catch((error: unknown) => {
          const run = (jobs as unknown as { engine: { runs: Map<string, Record<string, unknown>> } }).engine.runs.get(id);
          const c = run?.['control'] as Record<string, unknown> | undefined;
          const diag = {
            job: jobs.get('p1', id),
            stop: run?.['stop'],
            said:
              run?.['said'] === undefined
                ? null
                : { ...(run['said'] as object), silence: (run['said'] as { silence: unknown }).silence !== null },
            wire: run?.['wire'] === undefined ? null : { ...(run['wire'] as object), abort: undefined },
            inflightAt: c === undefined ? null : [...(c['inflightAt'] as Map<number, number>).entries()],
            heard: c === undefined ? null : [...(c['heardTickets'] as Set<number>)],
            lastAnswerAtMs: c?.['lastAnswerAtMs'],
            noAnswerSinceMs: c?.['noAnswerSinceMs'],
            now: performance.now(),
            events: events.length,
          };
          throw new Error(`${String(error)} ${JSON.stringify(diag)}`);
        });

      // One request is answered; the other is still held, so the job is still running.
      const said = events.length;
      const [first] = held.splice(0, 1);
      const answer = answers.get(first as IncomingMessage);
      answer?.res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, deletedKey: answer.key }));
      await expect
        .poll(
          () => events.slice(said).find((e) => e.id === id && e.state === 'running' && e.counts.done === 1 && e.notAnswering === undefined),
          { timeout: 30_000 },
        )
        .toBeDefined();

      jobs.cancel('p1', id);
      for (const req of held.splice(0)) req.socket.destroy();
      await jobs.settled(id);
      expect(jobs.get('p1', id)).toMatchObject({ state: 'cancelled', counts: { done: 1, unknown: 1, sent: 0 } });
    } finally {
      await jobs.close();
      db.close();
    }
  });
});

describe('a generate job whose answer has begun and whose body is still arriving', () => {
  it('does not say the service is not answering once headers came', async () => {
    // The answer's headers and the start of its body go at once; the rest waits until the test lets it go.
    let release: (() => void) | null = null;
    let asked = false;
    const slow = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        asked = true;
        res.writeHead(201, { 'content-type': 'application/json' });
        res.write('{"success":true,"message":"Generated","generatedKeys":[');
        release = () => res.end('{"value":"G-1","note":"slow","status":"generated"}]}');
      });
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
    const db = new LocalDb(join(tempDir('keydesk-slow-body-'), 'keydesk.db'));
    const client = new ServiceClient(
      { baseUrl: base, validationUrl: `${base}/v2_validation`, apiKey: 'k' },
      { retryDelaysMs: [], timeouts: { connectMs: 5_000, headersMs: 600_000, bodyMs: 600_000 } },
    );
    // The engine's clock is the test's: once the request is out, time jumps past the silence allowed.
    let now = 0;
    const jobs = new JobService({
      db,
      profile: (id) => ({ id, name: 'Slow', kind: 'remote' }),
      clientFor: () => Promise.resolve(client),
      emit: () => undefined,
      silentMs: 500,
      clock: { now: () => now, sleep: (ms, signal) => realClock.sleep(ms, signal) },
    });
    try {
      const started = await jobs.start('p1', { action: 'generate', count: 1, expire: '2099-01-01', isPremium: false, note: 'slow' });
      if (!started.ok) throw new Error(started.message);
      const id = started.data.id;
      await expect.poll(() => asked).toBe(true);
      now = 60_000;
      // Still running, its request still out (the body is held), and the service counts as answering.
      await expect.poll(() => jobs.get('p1', id)?.notAnswering, { timeout: 30_000 }).toBeUndefined();
      expect(jobs.get('p1', id)).toMatchObject({ state: 'running', counts: { sent: 1, done: 0 } });
      (release as (() => void) | null)?.();
      await jobs.settled(id);
      expect(jobs.get('p1', id)).toMatchObject({ state: 'finished', counts: { done: 1 } });
    } finally {
      (release as (() => void) | null)?.();
      await jobs.close();
      db.close();
      slow.closeAllConnections();
      await new Promise((r) => slow.close(r));
    }
  });
});

describe('a job Keydesk quits under while its requests are still held', () => {
  it('says nothing more after close() when those requests answer later', async () => {
    const db = new LocalDb(join(tempDir('keydesk-silent-quit-'), 'keydesk.db'));
    const client = new ServiceClient(
      { baseUrl: url, validationUrl: `${url}/v2_validation`, apiKey: 'k' },
      { retryDelaysMs: [], timeouts: { connectMs: 5_000, headersMs: 600_000, bodyMs: 600_000 } },
    );
    const events: JobSummary[] = [];
    const jobs = new JobService({
      db,
      profile: (id) => ({ id, name: 'Silent', kind: 'remote' }),
      clientFor: () => Promise.resolve(client),
      emit: (s) => events.push(s),
      silentMs: 600_000,
    });
    const timers = watchEngineTimers();
    try {
      await jobs.setCeiling('p1', 2);
      const started = await jobs.start('p1', { action: 'delete', target: { keyValues: ['Q1', 'Q2', 'Q3'] } });
      if (!started.ok) throw new Error(started.message);
      const id = started.data.id;
      await expect.poll(() => held.length).toBe(2);

      // Quitting: the requests are still held when its grace and budget end (the run's silence watch still set).
      await jobs.close();
      // None of the run's timers outlives the quit, though the run itself still waits on its requests.
      expect(timers.live.size).toBe(0);
      const saidBefore = events.length;
      // They answer afterwards, one by one (the service went on): the run takes them in and ends.
      for (const req of held.splice(0)) {
        const answer = answers.get(req);
        answer?.res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, deletedKey: answer.key }));
      }
      await jobs.settled(id);
      // A closed engine's core is gone: no progress, no "not answering" is said to it.
      expect(events.slice(saidBefore)).toEqual([]);
      expect(timers.live.size).toBe(0);
    } finally {
      timers.restore();
      for (const req of held.splice(0)) req.socket.destroy();
      await jobs.close();
      db.close();
    }
  });
});
