// `import`: an import job's lookups of 100,000 keys Keydesk never saw ÷ raw undici looking the same keys up the
// same way (active, then generated) at the same 16 in flight; alternating, on the same keys (lookups change nothing).
// The sandbox finds a key by value through its unique index, so a lookup costs the same at any size.
import { join } from 'node:path';
import { Pool } from 'undici';
import { ROUTES } from '../../src/shared/wire.ts';
import { startCore } from '../lib/core.ts';
import { createService, generateRaw, startSandbox, work } from '../lib/sandbox.ts';
import { fmt } from '../lib/stats.ts';
import { record } from '../lib/table.ts';

const KEYS = 100_000;
const IN_FLIGHT = 16;
const ROUNDS = 2;
/** No round starts past this, so the case ends within about 10 minutes on a busy machine (one round then). */
const ROUNDS_WITHIN_MS = 5 * 60_000;

/** Raw undici: each key fetched from the active list, then (404) the generated one; keys per second. */
async function rawLookups(origin: string, apiKey: string, keys: readonly string[]): Promise<number> {
  const pool = new Pool(origin, { connections: IN_FLIGHT, pipelining: 1 });
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < keys.length) {
        const key = keys[next++] ?? '';
        for (const route of [ROUTES.fetchKey, ROUTES.fetchGeneratedKey]) {
          const res = await pool.request({
            method: 'GET',
            path: `${route.path}?${new URLSearchParams({ apiKey, fetch: key, limit: '1' }).toString()}`,
          });
          await res.body.dump();
          if (res.statusCode === 200) break;
          if (res.statusCode !== 404) throw new Error(`raw lookup: HTTP ${res.statusCode}`);
        }
      }
    }),
  );
  const rate = keys.length / ((performance.now() - t0) / 1000);
  await pool.close();
  return rate;
}

export async function benchImport(): Promise<void> {
  console.error(`import: lookups of ${KEYS.toLocaleString('en-US')} keys as an import job vs raw undici at ${IN_FLIGHT} in flight`);
  const db = join(work, 'import.db');
  const apiKey = createService(db, 'bench');
  const sandbox = await startSandbox(db);
  const keys = await generateRaw(sandbox.url, apiKey, KEYS, 'sold before Keydesk');
  const c = await startCore(join(work, 'import-core'), sandbox.url, apiKey);
  await c.call('jobs.setCeiling', { profileId: c.core.profiles.activeProfileId ?? '', ceiling: IN_FLIGHT });
  const rows = keys.map((value) => ({ value }));
  try {
    const raw: number[] = [];
    const ours: number[] = [];
    const t0 = performance.now();
    for (let round = 0; round < ROUNDS && (round === 0 || performance.now() - t0 < ROUNDS_WITHIN_MS); round++) {
      raw.push(await rawLookups(sandbox.url, apiKey, keys));
      const started = performance.now();
      const job = await c.call('import.start', { source: `bench round ${round + 1}`, rows });
      await c.core.jobs.settled(job.id);
      ours.push(KEYS / ((performance.now() - started) / 1000));
      const done = await c.call('jobs.get', { jobId: job.id });
      if (done.counts.done !== KEYS) throw new Error(`import: ${JSON.stringify(done.counts)}`);
      console.error(`  round ${round + 1}: import ${fmt(ours[round] ?? 0, 'keys/s')}, raw ${fmt(raw[round] ?? 0, 'keys/s')}`);
    }
    const best = Math.max(...ours);
    const bestRaw = Math.max(...raw);
    record(
      `import of ${KEYS.toLocaleString('en-US')} keys: the job's lookups (active, then generated) ÷ raw undici the same way at ${IN_FLIGHT} in flight, best of ${ours.length} alternating rounds`,
      fmt(best, 'keys/s'),
      fmt(bestRaw, 'keys/s'),
      best / bestRaw,
      '≥ 0.5',
      best / bestRaw >= 0.5,
    );
  } finally {
    await c.core.close();
    sandbox.child.kill('SIGTERM');
  }
}
