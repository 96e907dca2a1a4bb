// `rss`: the harness process's resident memory after generating 200,000 keys through its bridge (target ≤ 300 MB),
// with its parts; `--rss-against <tree>` alternates rounds with another built checkout of Keydesk.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { readAnswer } from '../../src/harness/answer-frame.ts';
import type { MemoryParts } from '../lib/memory-probe.ts';
import type { BenchOptions } from '../lib/options.ts';
import { ROOT, work } from '../lib/sandbox.ts';
import { fmt } from '../lib/stats.ts';
import { record } from '../lib/table.ts';

/** The harness's resident memory at one moment. */
interface HarnessMemory {
  /** VmRSS, MiB. */
  rssMiB: number;
  parts: MemoryParts;
}

/**
 * The harness (Electron main's core behind a loopback bridge) as a separate process: RSS when it has started,
 * and again 1 s after generating `batches` × 100,000 keys through its bridge, with the parts from this tree's
 * memory probe (the same instrument for either tree, so an older checkout needs none of its own).
 */
async function harnessRss(
  root: string,
  userData: string,
  batches: number,
): Promise<{ start: HarnessMemory; after: HarnessMemory; ledgerRows: number }> {
  const child = spawn(
    process.execPath,
    [
      '--disable-warning=ExperimentalWarning',
      '--import',
      join(ROOT, 'bench/lib/memory-probe.ts'),
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

export async function benchRss({ rssAgainst: against, rssRounds: rounds }: BenchOptions): Promise<void> {
  console.error('rss: the harness process after generating 200,000 keys through its bridge');
  const mib = (bytes: number) => bytes / 1024 / 1024;
  const parts = ({ rssMiB, parts: p }: HarnessMemory) =>
    `${fmt(rssMiB, 'MiB')} (peak so far ${fmt(p.rssPeakKiB / 1024, 'MiB')}) = file-backed ${fmt(p.rssFileKiB / 1024, 'MiB')} + anonymous ${fmt(p.rssAnonKiB / 1024, 'MiB')}: ` +
    `V8 heap pages ${fmt(p.v8PagesKiB / 1024, 'MiB')} (heapTotal ${fmt(mib(p.heapTotal), 'MiB')}, ${fmt(mib(p.heapUsed), 'MiB')} used, young ` +
    `generation ${fmt(mib(p.newSpace), 'MiB')}), malloc heap ${fmt(p.mallocHeapKiB / 1024, 'MiB')} (SQLite caches, buffers, freed but kept), ` +
    `other anonymous ${fmt(p.otherAnonKiB / 1024, 'MiB')} (thread arenas, stacks, large objects); external ${fmt(mib(p.external), 'MiB')}`;
  const ours: { start: HarnessMemory; after: HarnessMemory }[] = [];
  const theirs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    // Alternating which goes first, so a burst of other load lands on both.
    const trees = against === null ? [ROOT] : round % 2 === 0 ? [ROOT, against] : [against, ROOT];
    for (const tree of trees) {
      const userData = join(work, `rss-userdata-${round}-${tree === ROOT ? 'ours' : 'against'}`);
      const load = loadavg()
        .map((l) => l.toFixed(2))
        .join(' ');
      const r = await harnessRss(tree, userData, 2);
      rmSync(userData, { recursive: true, force: true });
      if (r.ledgerRows !== 200_000) throw new Error(`the ledger holds ${r.ledgerRows} rows`);
      console.error(`  round ${round + 1}, ${tree === ROOT ? 'this tree' : against}, load average ${load}:`);
      console.error(`    at start: ${parts(r.start)}`);
      console.error(`    after 200,000 keys: ${parts(r.after)}`);
      if (tree === ROOT) ours.push(r);
      else theirs.push(r.after.rssMiB);
    }
  }
  const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
  if (against !== null) console.error(`  this tree: ${list(ours.map((r) => r.after.rssMiB))} MiB; ${against}: ${list(theirs)} MiB`);
  // The target holds for every run: the worst round is the figure.
  const r = ours.reduce((a, b) => (b.after.rssMiB > a.after.rssMiB ? b : a));
  const { parts: p } = r.after;
  record(
    `harness RSS after generating 200,000 keys (baseline: RSS once started)${rounds > 1 ? `, the worst of ${rounds} rounds` : ''}`,
    `${fmt(r.after.rssMiB, 'MiB')} (peak ${fmt(p.rssPeakKiB / 1024, 'MiB')}; heap ${fmt(mib(p.heapUsed), 'MiB')} used of ${fmt(mib(p.heapTotal), 'MiB')}, young generation ${fmt(mib(p.newSpace), 'MiB')})`,
    fmt(r.start.rssMiB, 'MiB'),
    r.after.rssMiB,
    '≤ 300 MB',
    r.after.rssMiB * 1.048576 <= 300,
  );
}
