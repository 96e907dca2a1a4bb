// `ratelimit`: a bulk extend job against a sandbox started with --rate-limit 50, for 20 s: the rate it sustains, the
// share of 429s, and from the sandbox's file afterwards, that no key was lost or extended twice.
import { join } from 'node:path';
import type { JobSummary } from '../../src/shared/domain.ts';
import { startCore, type BenchCore } from '../lib/core.ts';
import { createService, expiries, generateRaw, startSandbox, work } from '../lib/sandbox.ts';
import { fmt } from '../lib/stats.ts';
import { record } from '../lib/table.ts';

/** The rate-limited run: a job over `keys`, cancelled after `seconds`; what the sandbox then holds is checked. */
async function rateLimitedBulk(
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

export async function benchRateLimit(): Promise<void> {
  const seconds = 20;
  console.error(`ratelimit: a bulk extend job against a sandbox started with --rate-limit 50, for ${seconds} s`);
  const db = join(work, 'ratelimit.db');
  const apiKey = createService(db, 'bench');
  const sandbox = await startSandbox(db, ['--rate-limit', '50']);
  const origin = sandbox.url;
  const keys = await generateRaw(origin, apiKey, 2_000, 'rate limited', '2099-01-01');
  await new Promise((r) => setTimeout(r, 1_100)); // the generate call used a token: start from a full bucket
  const c = await startCore(join(work, 'ratelimit-core'), origin, apiKey, true);
  let result;
  try {
    result = await rateLimitedBulk(c, keys, seconds);
  } finally {
    await c.core.close();
  }
  // What the sandbox holds: every key the job says is done moved exactly one day; every other key did not move.
  sandbox.child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  const after = expiries(db);
  const base = Date.UTC(2099, 0, 1, 23, 59, 59, 999);
  let movedOnce = 0;
  let movedTwice = 0;
  for (const k of keys) {
    const days = Math.round(((after.get(k) ?? base) - base) / 86_400_000);
    if (days === 1) movedOnce++;
    else if (days !== 0) movedTwice++;
  }
  const refused = result.attempts - result.settled;
  const share = refused / result.attempts;
  const lostOrTwice = movedTwice + Math.abs(movedOnce - result.job.counts.done) + result.job.counts.unknown;
  console.error(
    `  ${result.attempts} requests, ${refused} answered 429; ${result.job.counts.done} done, ${result.job.counts.unknown} unknown (${result.job.reason ?? 'no reason given'}); the sandbox moved ${movedOnce} once, ${movedTwice} more than once`,
  );
  record(
    `bulk against --rate-limit 50 for ${seconds} s: sustained keys/s (target ≥ 45)`,
    fmt(result.rate, 'keys/s'),
    '50 keys/s',
    result.rate / 50,
    '≥ 0.9',
    result.rate >= 45,
  );
  record(
    '… 429s as a share of requests',
    `${(share * 100).toFixed(1)} %`,
    `${refused} of ${result.attempts}`,
    share,
    '≤ 5 %',
    share <= 0.05,
  );
  record(
    '… items lost or sent twice (done ≠ moved once, or moved twice, or unknown)',
    String(lostOrTwice),
    '',
    lostOrTwice,
    '0',
    lostOrTwice === 0,
  );
}
