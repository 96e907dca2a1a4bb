// `million`: a generate job of 100,000 and of 1,000,000 keys through the core until All keys (ledger.query) shows
// every one, ÷ a plain undici script generating as many keys from the same sandbox in the same batches.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { GENERATE_BATCH } from '../../src/main/jobs/job-service.ts';
import { ROUTES } from '../../src/shared/wire.ts';
import { startCore, type BenchCore } from '../lib/core.ts';
import { createService, startSandbox, work } from '../lib/sandbox.ts';
import { fmt } from '../lib/stats.ts';
import { record } from '../lib/table.ts';

/** The sizes run; MILLION_SIZES (say `100000`) picks some, for before-and-after rounds that alternate. */
const SIZES = process.env.MILLION_SIZES?.split(',').map(Number) ?? [100_000, 1_000_000];
/** How often All keys is asked for its page and total while the keys go in: as often as the writer tells the window. */
const POLL_MS = 250;

/** The script: `count` keys in requests of the service's 100,000, one after another, each body parsed. */
async function script(origin: string, apiKey: string, count: number, note: string): Promise<number> {
  let made = 0;
  for (let left = count; left > 0; left -= GENERATE_BATCH) {
    const res = await request(`${origin}${ROUTES.generateKeyPost.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey, expire: '2099-01-01', count: Math.min(GENERATE_BATCH, left), isPremium: false, note }),
    });
    const body = (await res.body.json()) as { generatedKeys?: unknown[] };
    made += body.generatedKeys?.length ?? 0;
  }
  return made;
}

/** The highest RSS since the last reset (VmHWM, MiB), reset by writing 5 to clear_refs; null off Linux. */
function peakRss(reset: boolean): number | null {
  try {
    if (reset) writeFileSync('/proc/self/clear_refs', '5');
    const kib = /VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kib === undefined ? null : Number(kib) / 1024;
  } catch {
    return null;
  }
}

/**
 * Each thread's CPU since it started, over 200 ms (Linux, 100 ticks a second): the core's writer and reader threads
 * start with it, so theirs is the job's. Empty off Linux.
 */
function threadCpu(): string {
  const out: string[] = [];
  let tasks: string[];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return '';
  }
  for (const t of tasks) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
    } catch {
      continue;
    }
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ms = (Number(f[11]) + Number(f[12])) * 10;
    if (ms > 200) out.push(`${comm} ${ms} ms`);
  }
  return out.join(', ');
}

/** A generate job of `count` through the core: ms until its last request is answered, and until All keys shows all of them. */
async function core(c: BenchCore, count: number, note: string): Promise<{ job: number; shown: number }> {
  // All keys is open when the job starts, as for a vendor who watches the keys arrive: its reader is at work already.
  await c.call('ledger.query', { filter: {}, sort: { field: 'createdAt', dir: 'desc' }, offset: 0, limit: 100 });
  const t0 = performance.now();
  const started = await c.call('jobs.start', { action: 'generate', expire: '2099-01-01', count, isPremium: false, note });
  let job = Number.NaN;
  for (;;) {
    // The job counts an item done once its answer is read (its keys may still be recording).
    if (Number.isNaN(job) && (await c.call('jobs.get', { jobId: started.id })).counts.done === count) job = performance.now() - t0;
    const page = await c.call('ledger.query', { filter: {}, sort: { field: 'createdAt', dir: 'desc' }, offset: 0, limit: 100 });
    if (page.recordingFailed !== undefined) throw new Error(`million: recording failed: ${page.recordingFailed}`);
    if (page.total === count && page.recording === undefined) break;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const shown = performance.now() - t0;
  await c.core.jobs.settled(started.id);
  const summary = await c.call('jobs.get', { jobId: started.id });
  if (summary.counts.done !== count) throw new Error(`million: the job ended ${JSON.stringify(summary.counts)}`);
  return { job: Number.isNaN(job) ? shown : job, shown };
}

export async function benchMillion(): Promise<void> {
  console.error('million: a generate job until All keys shows its keys, vs a plain script generating as many from the same sandbox');
  const db = join(work, 'million.db');
  const apiKey = createService(db, 'bench');
  const origin = (await startSandbox(db)).url;
  for (const count of SIZES) {
    const n = count.toLocaleString('en-US');
    const t0 = performance.now();
    if ((await script(origin, apiKey, count, `script ${n}`)) !== count) throw new Error('million: the script got too few keys');
    const base = performance.now() - t0;
    // A fresh ledger per size: the figure is what recording these keys costs, not a ledger grown by earlier ones.
    const c = await startCore(join(work, `million-${count}`), origin, apiKey);
    let ours: { job: number; shown: number };
    let peak: number | null;
    let cpu: number;
    let threads: string;
    try {
      peakRss(true);
      // All of this process's threads (the core's, its writer's and reader's): less swayed by a loaded machine than time.
      const cpu0 = process.cpuUsage();
      ours = await core(c, count, `core ${n}`);
      const used = process.cpuUsage(cpu0);
      threads = threadCpu();
      cpu = (used.user + used.system) / 1000;
      peak = peakRss(false);
    } finally {
      await c.core.close();
    }
    console.error(
      `  ${n}: script ${Math.round(base)} ms; the job's requests ended at ${Math.round(ours.job)} ms, All keys showed them at ${Math.round(ours.shown)} ms; CPU ${Math.round(cpu)} ms; peak RSS ${peak?.toFixed(0) ?? '?'} MiB`,
    );
    if (threads) console.error(`  CPU per thread: ${threads}`);
    record(
      `generate ${n} keys until All keys shows them all ÷ a script generating them (undici, batches of 100,000)`,
      fmt(ours.shown, 'ms'),
      fmt(base, 'ms'),
      ours.shown / base,
      '≤ 3',
      ours.shown / base <= 3,
    );
    record(`… until the job's last answer is read ÷ the script`, fmt(ours.job, 'ms'), fmt(base, 'ms'), ours.job / base, 'reported', true);
    record(
      `… the bench process's CPU meanwhile (all its threads) ÷ the script's time`,
      fmt(cpu, 'ms'),
      fmt(base, 'ms'),
      cpu / base,
      'reported',
      true,
    );
    if (peak !== null)
      record(`… the bench process's peak RSS meanwhile (core and its writer thread)`, fmt(peak, 'MiB'), '', peak, 'reported', true);
  }
}
