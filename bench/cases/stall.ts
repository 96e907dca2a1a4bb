// `stall`: main's longest event-loop stall (a 5 ms interval's drift) during each act at 1,000,000
// keys: a generate of 100,000 through the core into the embedded sandbox, Count exactly over ~900,000, a 100,000-key job.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Core } from '../../src/main/core.ts';
import { createHandlers } from '../../src/main/handlers/index.ts';
import { dispatch } from '../../src/main/ipc/dispatch.ts';
import { MemorySecretStore } from '../../src/main/secrets/secret-store.ts';
import { LocalDb } from '../../src/main/store/local-db.ts';
import { LOCAL_DB_FILE } from '../../src/main/store/start-files.ts';
import { SANDBOX_DB_FILE } from '../../src/sandbox/paths.ts';
import { batchKeys, SandboxStore } from '../../src/sandbox/store.ts';
import type { OperationInput, OperationName, OperationOutput } from '../../src/shared/contract.ts';
import type { Result } from '../../src/shared/result.ts';
import { ledgerKey } from '../lib/ledger-key.ts';
import { work } from '../lib/sandbox.ts';
import { fmt, median, msList } from '../lib/stats.ts';
import { record } from '../lib/table.ts';

const TARGET_MS = 50;
const ROUNDS = 3;
const BATCH = 100_000;

/** The embedded sandbox's file and the ledger, filled before the core starts: 9 batches noted "bulk", one "other". */
function fill(dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const store = new SandboxStore(join(dir, SANDBOX_DB_FILE));
  const ledger = new LocalDb(join(dir, LOCAL_DB_FILE));
  const other: string[] = [];
  try {
    const { service } = store.createService('Demo', 'demo');
    for (let b = 0; b < 10; b++) {
      const note = b < 9 ? `bulk ${b}` : 'other';
      const params = { count: BATCH, isPremium: false, note, expire: '2099-01-01', expiresByDaysKey: false, daysKey: null };
      const keys = batchKeys(store.generateKeys(service.id, params));
      const at = new Date().toISOString();
      ledger.recordKeys(
        'sandbox',
        keys.map((k) => ledgerKey(k.value, { id: k.id, note, expiresAt: k.expiresAt, createdAt: at })),
      );
      if (b === 9) other.push(...keys.map((k) => k.value));
    }
  } finally {
    ledger.close();
    store.close();
  }
  return other;
}

export async function benchStall(): Promise<void> {
  console.error("stall: main's longest event-loop stall during each act at 1,000,000 keys (embedded sandbox)");
  const dir = join(work, 'stall');
  const t0 = performance.now();
  const other = fill(dir);
  console.error(`  filled the sandbox and the ledger with 1,000,000 keys in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const core = await Core.start({
    userDataDir: dir,
    secrets: new MemorySecretStore(),
    version: 'bench',
    askSavePath: () => Promise.resolve(null),
  });
  const handlers = createHandlers(core);
  const call = async <N extends OperationName>(name: N, input: OperationInput<N>): Promise<OperationOutput<N>> => {
    const r = (await dispatch(handlers, name, input)) as Result<OperationOutput<N>>;
    if (!r.ok) throw new Error(`${name}: ${r.code} ${r.message}`);
    return r.data;
  };
  /**
   * The longest main's event loop went without turning while `act` ran, in ms (a 5 ms interval's drift, the end
   * included), and the most CPU main's thread used in one such gap: on a busy machine a gap may be the OS's, not main's.
   */
  const stallOf = async (act: () => Promise<void>): Promise<{ wall: number; busy: number }> => {
    let last = performance.now();
    let lastCpu = process.threadCpuUsage();
    const worst = { wall: 0, busy: 0 };
    const gap = (): void => {
      const now = performance.now();
      const cpu = process.threadCpuUsage(lastCpu);
      worst.wall = Math.max(worst.wall, now - last - 5);
      worst.busy = Math.max(worst.busy, (cpu.user + cpu.system) / 1000 - 5);
      last = now;
      lastCpu = process.threadCpuUsage();
    };
    const tick = setInterval(gap, 5);
    try {
      await act();
    } finally {
      clearInterval(tick);
      gap();
    }
    return worst;
  };
  const pause = () => new Promise((r) => setTimeout(r, 500));
  const stalls: Record<string, { wall: number; busy: number }[]> = { generate: [], count: [], page: [], jobFilter: [], jobValues: [] };
  const job = async (target: { filter: { text: string } } | { keyValues: string[] }): Promise<void> => {
    const s = await call('jobs.start', { action: 'extend', days: 1, target });
    if (s.total !== BATCH) throw new Error(`the job has ${s.total} items`);
    call('jobs.cancel', { jobId: s.id }).catch(() => undefined);
    await core.jobs.settled(s.id);
    await call('jobs.forget', { jobId: s.id });
  };
  try {
    if (!core.sandboxState().running) throw new Error(`the embedded sandbox did not start: ${core.sandboxState().error ?? ''}`);
    await core.writer.idle();
    for (let round = 0; round < ROUNDS; round++) {
      stalls.generate?.push(
        await stallOf(async () => {
          const r = await call('keys.generate', { expire: '2099-01-01', count: BATCH, isPremium: false, note: `stall round ${round}` });
          if (r.generated.count !== BATCH) throw new Error('the generate failed');
          await core.writer.idle();
        }),
      );
      await pause();
      stalls.count?.push(
        await stallOf(async () => {
          const q = await call('ledger.query', {
            filter: { text: 'bulk' },
            sort: { field: 'createdAt', dir: 'desc' },
            offset: 0,
            limit: 1,
            exactCount: true,
          });
          if (q.total !== 9 * BATCH || q.totalCapped) throw new Error(`counted ${q.total ?? '?'} keys noted "bulk"`);
        }),
      );
      await pause();
      // A page with its capped count stays on main: its longest stall is reported beside the acts moved off it.
      stalls.page?.push(
        await stallOf(async () => {
          const q = await call('ledger.query', {
            filter: { text: 'bulk' },
            sort: { field: 'createdAt', dir: 'desc' },
            offset: 0,
            limit: 200,
          });
          if (q.rows.length !== 200 || !q.totalCapped) throw new Error('the first page of "bulk" was not a capped page of 200');
        }),
      );
      await pause();
      stalls.jobFilter?.push(await stallOf(() => job({ filter: { text: 'other' } })));
      await pause();
      stalls.jobValues?.push(await stallOf(() => job({ keyValues: other })));
      await pause();
    }
  } finally {
    await core.close(10_000);
  }
  const rows: [string, string][] = [
    ['generate', 'generate 100,000 keys into the embedded sandbox until the ledger holds them'],
    ['count', 'Count exactly over a filter matching 900,000 keys'],
    ['page', 'the first page of that filter, its count capped'],
    ['jobFilter', 'create a 100,000-key extend job from a filter'],
    ['jobValues', 'create a 100,000-key extend job from 100,000 selected values'],
  ];
  for (const [key, words] of rows) {
    const xs = stalls[key] ?? [];
    const wall = xs.map((x) => x.wall);
    const busy = xs.map((x) => x.busy);
    console.error(`  ${key}: main's longest stall per round (ms) ${msList(wall)}; main's CPU in its longest busy gap ${msList(busy)}`);
    const worst = Math.max(...wall);
    record(
      `main's longest stall at 1,000,000 keys: ${words} (worst of ${ROUNDS}, median ${fmt(median(wall), 'ms')}) ÷ ${TARGET_MS} ms`,
      fmt(worst, 'ms'),
      fmt(TARGET_MS, 'ms'),
      worst / TARGET_MS,
      '≤ 1',
      worst <= TARGET_MS,
    );
    const cpu = Math.max(...busy);
    record(
      `… main's own CPU time within one gap (the rest of a stall is the OS running other threads)`,
      fmt(cpu, 'ms'),
      '',
      cpu / TARGET_MS,
      'reported',
      true,
    );
  }
}
