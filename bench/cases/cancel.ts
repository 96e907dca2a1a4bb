// `cancel`: bulk extend jobs through the core, each cancelled mid-run; a pass-through in front of the sandbox notes
// when requests reach it, so the figure is what the service sees after a cancel (target: nothing after 200 ms).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Pool } from 'undici';
import type { JobSummary } from '../../src/shared/domain.ts';
import { startCore, type BenchCore } from '../lib/core.ts';
import { createService, generateRaw, startSandbox, work } from '../lib/sandbox.ts';
import { fmt, p95 } from '../lib/stats.ts';
import { record } from '../lib/table.ts';

/** A pass-through in front of `origin` that notes when each request reaches it: what the service sees, and when. */
async function arrivalRecorder(origin: string): Promise<{ url: string; arrivals: number[]; close(): Promise<void> }> {
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
async function cancelLatency(
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

export async function benchCancel(): Promise<void> {
  const runs = 9;
  console.error(
    `cancel: ${runs} bulk extend jobs through the core, each cancelled mid-run; a pass-through notes when requests reach the sandbox`,
  );
  const db = join(work, 'cancel.db');
  const apiKey = createService(db, 'bench');
  const origin = (await startSandbox(db)).url;
  const recorder = await arrivalRecorder(origin);
  const c = await startCore(join(work, 'cancel-core'), recorder.url, apiKey);
  await c.call('jobs.setCeiling', { profileId: c.core.profiles.activeProfileId ?? '', ceiling: 16 });
  const lastSend: number[] = [];
  const cancelled: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const keys = await generateRaw(origin, apiKey, 5_000, `cancel ${i}`);
      const r = await cancelLatency(c, recorder, keys, 300 + 50 * i);
      if (r.job.counts.pending === 0) throw new Error('cancel: the job ended before it was cancelled; give it more keys');
      lastSend.push(r.lastSendMs);
      cancelled.push(r.cancelledMs);
      console.error(
        `  cancel ${i + 1}: last request reached the sandbox ${fmt(r.lastSendMs, 'ms')} after (${r.sentAfter} on the wire), recorded cancelled after ${fmt(r.cancelledMs, 'ms')}; ${r.job.counts.done} done, ${r.job.counts.pending} never sent`,
      );
    }
  } finally {
    await c.core.close();
    await recorder.close();
  }
  record(
    `cancel → no more requests reach the sandbox: p95 of ${runs} cancels (16 in flight)`,
    fmt(p95(lastSend), 'ms'),
    '200 ms',
    p95(lastSend) / 200,
    '≤ 200 ms',
    p95(lastSend) <= 200,
  );
  record(
    `cancel → the job recorded as cancelled (its answers in): p95 of ${runs} cancels`,
    fmt(p95(cancelled), 'ms'),
    '200 ms',
    p95(cancelled) / 200,
    '≤ 200 ms',
    p95(cancelled) <= 200,
  );
}
