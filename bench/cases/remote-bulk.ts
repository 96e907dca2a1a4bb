// `remote`: bulk extend of 2,000 keys as a job on a remote profile (the default ceiling) ÷ raw undici at 32 in
// flight, both through a proxy adding 100 ms, then 300 ms, to each round trip; alternating rounds over fresh keys.
import { join } from 'node:path';
import { startCore } from '../lib/core.ts';
import { startDelayProxy } from '../lib/delay-proxy.ts';
import { createService, generateRaw, startSandbox, work } from '../lib/sandbox.ts';
import { fmt } from '../lib/stats.ts';
import { record } from '../lib/table.ts';
import { generateCore, rawBulk } from './bulk.ts';

const KEYS = 2_000;
const ROUNDS = 2;
const SCRIPT_IN_FLIGHT = 32;

export async function benchRemoteBulk(): Promise<void> {
  console.error(`remote: bulk extend of ${KEYS} keys through a delay proxy, the core's job vs raw undici at ${SCRIPT_IN_FLIGHT} in flight`);
  const db = join(work, 'remote.db');
  const apiKey = createService(db, 'bench');
  const sandbox = await startSandbox(db);
  for (const delayMs of [100, 300]) {
    const proxy = await startDelayProxy(sandbox.url, delayMs);
    const c = await startCore(join(work, `remote-core-${delayMs}`), proxy.url, apiKey);
    const { ceiling, isDefault } = await c.call('jobs.getCeiling', { profileId: c.core.profiles.activeProfileId ?? '' });
    try {
      const raw: number[] = [];
      const ours: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const rawKeys = await generateRaw(sandbox.url, apiKey, KEYS, `raw ${delayMs} ${round}`);
        // Through the core, so the ledger holds them, as it does keys a bulk action in All keys selects.
        const coreKeys = await generateCore(c, KEYS, `core ${delayMs} ${round}`);
        raw.push(await rawBulk(proxy.url, apiKey, 'extend', rawKeys, SCRIPT_IN_FLIGHT));
        const t0 = performance.now();
        const started = await c.call('jobs.start', { action: 'extend', target: { keyValues: coreKeys }, days: 1 });
        // The limit the job reached, looked at as it runs.
        let peak = 0;
        const watch = setInterval(() => {
          void c.call('jobs.get', { jobId: started.id }).then((j) => (peak = Math.max(peak, j.concurrency)));
        }, 100);
        await c.core.jobs.settled(started.id);
        clearInterval(watch);
        ours.push(KEYS / ((performance.now() - t0) / 1000));
        const job = await c.call('jobs.get', { jobId: started.id });
        if (job.counts.done !== KEYS) throw new Error(`remote extend: ${JSON.stringify(job.counts)}`);
        console.error(
          `  +${delayMs} ms round ${round + 1}: core ${fmt(ours[round] ?? 0, 'keys/s')} (limit reached ${peak} of ${ceiling}), raw ${fmt(raw[round] ?? 0, 'keys/s')}`,
        );
      }
      const best = Math.max(...ours);
      const bestRaw = Math.max(...raw);
      record(
        `bulk extend of ${KEYS} keys on a remote profile, +${delayMs} ms a round trip (ceiling ${ceiling}${isDefault ? ', the default' : ''}) ÷ raw undici at ${SCRIPT_IN_FLIGHT} in flight, best of ${ROUNDS} alternating rounds`,
        fmt(best, 'keys/s'),
        fmt(bestRaw, 'keys/s'),
        best / bestRaw,
        '≥ 0.8',
        best / bestRaw >= 0.8,
      );
    } finally {
      await c.core.close();
      await proxy.close();
    }
  }
  sandbox.child.kill('SIGTERM');
}
