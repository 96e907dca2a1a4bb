// Bench figures for issue 10: bulk jobs through the core against raw undici and a one-at-a-time loop, a
// rate-limited sandbox, generate through the core against the HTTP call alone, and the harness's memory.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Pool, request } from 'undici';
import { Core } from '../src/main/core.ts';
import { createHandlers, type Handlers } from '../src/main/handlers/index.ts';
import { dispatch } from '../src/main/ipc/dispatch.ts';
import { MemorySecretStore } from '../src/main/secrets/secret-store.ts';
import { SandboxStore } from '../src/sandbox/store.ts';
import type { OperationInput, OperationName, OperationOutput } from '../src/shared/contract.ts';
import type { JobSummary } from '../src/shared/domain.ts';
import type { Result } from '../src/shared/result.ts';
import { ROUTES } from '../src/shared/wire.ts';
import { readAnswer } from '../src/harness/answer-frame.ts';
import { batchValues } from '../src/shared/key-batch.ts';
import type { MemoryParts } from './memory-probe.ts';

export type BulkAction = 'extend' | 'resetHwid' | 'delete';
const ROUTE = { extend: ROUTES.expandExpiration, resetHwid: ROUTES.resetHwid, delete: ROUTES.deleteKey } as const;

/** One bulk request as the wire contract has it, built by hand: what a raw client sends. */
function rawRequest(
  action: BulkAction,
  apiKey: string,
  keyValue: string,
): { method: 'POST'; path: string; body?: string; headers?: Record<string, string> } {
  const route = ROUTE[action];
  const params: Record<string, string> = { apiKey, keyValue, ...(action === 'extend' ? { days: '1' } : {}) };
  if (route.apiKey === 'body') {
    return { method: 'POST', path: route.path, body: JSON.stringify(params), headers: { 'content-type': 'application/json' } };
  }
  return { method: 'POST', path: `${route.path}?${new URLSearchParams(params).toString()}` };
}

/** Raw undici, `inFlight` requests at a time over the keys; keys per second. */
export async function rawBulk(origin: string, apiKey: string, action: BulkAction, keys: readonly string[], inFlight = 16): Promise<number> {
  const pool = new Pool(origin, { connections: inFlight, pipelining: 1 });
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < keys.length) {
        const key = keys[next++] ?? '';
        const res = await pool.request(rawRequest(action, apiKey, key));
        await res.body.dump();
        if (res.statusCode !== 200) throw new Error(`raw ${action}: HTTP ${res.statusCode}`);
      }
    }),
  );
  const rate = keys.length / ((performance.now() - t0) / 1000);
  await pool.close();
  return rate;
}

/** Activates keys (a validation binds each to a HWID), so an HWID reset has something to reset. */
export async function activate(origin: string, service: string, keys: readonly string[], inFlight = 16): Promise<void> {
  const pool = new Pool(origin, { connections: inFlight, pipelining: 1 });
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < keys.length) {
        const key = keys[next++] ?? '';
        const res = await pool.request({
          method: 'GET',
          path: `${ROUTES.validate.path}?${new URLSearchParams({ key, service, hwid: `HW-${key}` }).toString()}`,
        });
        await res.body.dump();
      }
    }),
  );
  await pool.close();
}

/** The official client's way: one fetch at a time; keys per second over at most `seconds`. */
export async function sequentialBulk(
  origin: string,
  apiKey: string,
  action: BulkAction,
  keys: readonly string[],
  seconds: number,
): Promise<number> {
  const end = performance.now() + seconds * 1000;
  const t0 = performance.now();
  let n = 0;
  for (const key of keys) {
    if (performance.now() > end) break;
    const r = rawRequest(action, apiKey, key);
    const res = await fetch(origin + r.path, { method: r.method, body: r.body ?? null, headers: r.headers ?? {} });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`sequential ${action}: HTTP ${res.status}`);
    n++;
  }
  return n / ((performance.now() - t0) / 1000);
}

export interface BenchCore {
  core: Core;
  call<N extends OperationName>(name: N, input: OperationInput<N>): Promise<OperationOutput<N>>;
  /** Attempts the core's client made (for counting 429s; 0 unless started with countAttempts). */
  attempts: () => number;
}

/**
 * A core (as the harness runs it) with a remote profile on `origin`, selected. `countAttempts` hooks the client's
 * attempt log (for counting 429s), which the app does not: a hooked request also builds its redacted URL.
 */
export async function startCore(userDataDir: string, origin: string, apiKey: string, countAttempts = false): Promise<BenchCore> {
  let attempts = 0;
  const core = await Core.start({
    userDataDir,
    secrets: new MemorySecretStore(),
    version: 'bench',
    askSavePath: () => Promise.resolve(null),
    ...(countAttempts
      ? {
          clientOptions: {
            onAttempt: () => {
              attempts++;
            },
          },
        }
      : {}),
  });
  const handlers: Handlers = createHandlers(core);
  const call = async <N extends OperationName>(name: N, input: OperationInput<N>): Promise<OperationOutput<N>> => {
    const r = (await dispatch(handlers, name, input)) as Result<OperationOutput<N>>;
    if (!r.ok) throw new Error(`${name}: ${r.code} ${r.message}`);
    return r.data;
  };
  const profile = await call('profiles.add', { name: 'Bench', baseUrl: origin, apiKey, serviceIdentifier: 'bench' });
  await call('profiles.select', { id: profile.id });
  return { core, call, attempts: () => attempts };
}

/** A bulk job through the core (dispatch, job engine, client, ledger, audit) to its end; keys per second. */
export async function coreBulk(c: BenchCore, action: BulkAction, keys: string[]): Promise<{ rate: number; job: JobSummary }> {
  const t0 = performance.now();
  const target = { keyValues: keys };
  const started = await c.call('jobs.start', action === 'extend' ? { action, target, days: 1 } : { action, target });
  await c.core.jobs.settled(started.id);
  const rate = keys.length / ((performance.now() - t0) / 1000);
  const job = await c.call('jobs.get', { jobId: started.id });
  if (job.counts.done !== keys.length) throw new Error(`core ${action}: ${JSON.stringify(job.counts)}`);
  return { rate, job };
}

/** `count` keys generated through the core (keys.generate), once the ledger has recorded them all. */
export async function generateCore(c: BenchCore, count: number, note: string): Promise<string[]> {
  const { generated } = await c.call('keys.generate', { expire: '2099-01-01', count, isPremium: false, note });
  await c.core.ledger.idle();
  return batchValues(generated);
}

/**
 * The core's ledger learns that keys customers activated are active, as a vendor's does when All keys or Keys
 * fetches the active keys: a bulk HWID reset leaves out keys the ledger shows as generated.
 */
export async function learnActive(c: BenchCore, note: string, count: number): Promise<void> {
  for (let offset = 0; offset < count; offset += 1_000) await c.call('keys.fetchActive', { term: note, limit: 1_000, offset });
  await c.core.ledger.idle();
}

/** `count` keys generated on the service over HTTP (not recorded by the core). */
export async function generateRaw(origin: string, apiKey: string, count: number, note: string, expire = '2099-01-01'): Promise<string[]> {
  const res = await request(`${origin}${ROUTES.generateKeyPost.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey, expire, count, isPremium: false, note }),
  });
  const body = (await res.body.json()) as { generatedKeys: { value: string }[] };
  return body.generatedKeys.map((k) => k.value);
}

/** The rate-limited run: a job over `keys`, cancelled after `seconds`; what the sandbox then holds is checked. */
export async function rateLimitedBulk(
  c: BenchCore,
  keys: string[],
  seconds: number,
): Promise<{ rate: number; attempts: number; settled: number; job: JobSummary }> {
  const before = c.attempts();
  const started = await c.call('jobs.start', { action: 'extend', target: { keyValues: keys }, days: 1 });
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const atStop = await c.call('jobs.get', { jobId: started.id });
  const elapsed = (performance.now() - t0) / 1000;
  await c.call('jobs.cancel', { jobId: started.id });
  await c.core.jobs.settled(started.id);
  const job = await c.call('jobs.get', { jobId: started.id });
  const settled = job.counts.done + job.counts.failed + job.counts.unknown;
  return { rate: (atStop.counts.done + atStop.counts.failed) / elapsed, attempts: c.attempts() - before, settled, job };
}

/** Each key's expiry in the sandbox's file, by value. */
export function expiries(dbFile: string): Map<string, number> {
  const store = new SandboxStore(dbFile);
  try {
    return new Map(store.inspect('SELECT value, expires_at FROM keys').map((r) => [String(r.value), Number(r.expires_at)]));
  } finally {
    store.close();
  }
}

/** The harness as `npm run harness` runs it; generates keys through its bridge and reads its resident memory. */
export interface HarnessMemory {
  /** VmRSS, MiB. */
  rssMiB: number;
  parts: MemoryParts;
}

/**
 * The harness (Electron main's core behind a loopback bridge) as a separate process: RSS when it has started,
 * and again 1 s after generating `batches` × 100,000 keys through its bridge, with the parts from
 * bench/memory-probe.ts.
 */
export async function harnessRss(
  root: string,
  userData: string,
  batches: number,
): Promise<{ start: HarnessMemory; after: HarnessMemory; ledgerRows: number }> {
  const child = spawn(
    process.execPath,
    [
      '--disable-warning=ExperimentalWarning',
      '--import',
      join(root, 'bench/memory-probe.ts'),
      join(root, 'src/harness/cli.ts'),
      '--user-data',
      userData,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
  });
  const waitFor = async <T>(read: () => T | undefined): Promise<T> => {
    for (;;) {
      const v = read();
      if (v !== undefined) return v;
      if (child.exitCode !== null) throw new Error(`harness exited with ${child.exitCode}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const measure = async (): Promise<HarnessMemory> => {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid ?? 0}/status`, 'utf8'))?.[1] ?? Number.NaN);
    const from = out.length;
    child.kill('SIGUSR2');
    const line = await waitFor(() => /keydesk-memory (\{.*\})\n/.exec(out.slice(from))?.[1]);
    return { rssMiB: kb / 1024, parts: JSON.parse(line) as MemoryParts };
  };
  try {
    const url = await waitFor(() => /Keydesk harness on (http:\/\/\S+)\n/.exec(out)?.[1]);
    const html = await (await fetch(url)).text();
    const token = /name="keydesk-harness-token" content="([^"]+)"/.exec(html)?.[1] ?? '';
    const rpc = async (name: string, input: unknown): Promise<unknown> => {
      const res = await fetch(new URL(`/__keydesk/rpc/${name}`, url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-keydesk-token': token, origin: new URL(url).origin },
        body: JSON.stringify({ input }),
      });
      const r = (await readAnswer(res)) as { ok: boolean; message?: string; data?: unknown };
      if (!r.ok) throw new Error(`${name}: ${r.message ?? ''}`);
      return r.data;
    };
    await new Promise((r) => setTimeout(r, 1_000));
    const start = await measure();
    for (let b = 0; b < batches; b++)
      await rpc('keys.generate', { expire: '2099-01-01', count: 100_000, isPremium: false, note: `rss batch ${b}` });
    // keys.generate answers before its keys are in the ledger (main's ledger writer records them on a thread):
    // read the count once nothing is still being recorded.
    const query = () =>
      rpc('ledger.query', { filter: {}, sort: { field: 'createdAt', dir: 'desc' }, offset: 0, limit: 1, exactCount: true }) as Promise<{
        total: number;
        recording?: number;
      }>;
    let q = await query();
    while (q.recording !== undefined) {
      await new Promise((r) => setTimeout(r, 250));
      q = await query();
    }
    await new Promise((r) => setTimeout(r, 1_000));
    return { start, after: await measure(), ledgerRows: q.total };
  } finally {
    child.kill('SIGTERM');
  }
}

/** A pass-through in front of `origin` that notes when each request reaches it: what the service sees, and when. */
export async function arrivalRecorder(origin: string): Promise<{ url: string; arrivals: number[]; close(): Promise<void> }> {
  const pool = new Pool(origin, { connections: 64, pipelining: 1 });
  const arrivals: number[] = [];
  const server = createServer((req, res) => {
    arrivals.push(performance.now());
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'connection'));
      pool
        .request({ method: req.method ?? 'GET', path: req.url ?? '/', headers, body: chunks.length > 0 ? Buffer.concat(chunks) : null })
        .then(async (up) => {
          res.writeHead(up.statusCode, { 'content-type': String(up.headers['content-type'] ?? 'application/json') });
          res.end(Buffer.from(await up.body.arrayBuffer()));
        })
        .catch(() => res.destroy());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await pool.close();
    },
  };
}

/**
 * Cancels a running bulk job and times it: from the cancel call to the last request that reached the service
 * (0 when none came after it), and to the job recorded as cancelled (its last answer in, its end written).
 */
export async function cancelLatency(
  c: BenchCore,
  recorder: { arrivals: number[] },
  keys: string[],
  runForMs: number,
): Promise<{ lastSendMs: number; cancelledMs: number; sentAfter: number; job: JobSummary }> {
  const started = await c.call('jobs.start', { action: 'extend', target: { keyValues: keys }, days: 1 });
  await new Promise((r) => setTimeout(r, runForMs));
  const t0 = performance.now();
  const atCancel = await c.call('jobs.cancel', { jobId: started.id });
  await c.core.jobs.settled(started.id);
  const job = await c.call('jobs.get', { jobId: started.id });
  const cancelledMs = performance.now() - t0;
  if (atCancel.state !== 'cancelled' || job.state !== 'cancelled' || job.finishedAt === null)
    throw new Error(`cancel: ${atCancel.state} then ${job.state}`);
  const after = recorder.arrivals.filter((t) => t > t0);
  return { lastSendMs: Math.max(0, ...after.map((t) => t - t0)), cancelledMs, sentAfter: after.length, job };
}
