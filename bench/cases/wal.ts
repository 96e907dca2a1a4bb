// `wal`: the -wal file under long use. 200,000 mixed requests (pushes, extends, HWID resets, validations that bind
// again, keyless validations) against one sandbox, its size sampled, then its size 3 s after the load stops.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { Pool, request } from 'undici';
import type { BenchOptions } from '../lib/options.ts';
import { createService, startSandbox, work } from '../lib/sandbox.ts';
import { fmt } from '../lib/stats.ts';
import { record } from '../lib/table.ts';

const MiB = 1024 * 1024;

export async function benchWal({ connections }: BenchOptions): Promise<void> {
  const total = 200_000;
  console.error(`wal: ${total.toLocaleString('en-US')} mixed requests, ${connections} connections, -wal sampled every 50 ms`);
  const db = join(work, 'wal.db');
  const apiKey = createService(db, 'wal');
  const sandbox = (await startSandbox(db)).url;
  const detail = { 'Keydesk-Detail': 'full' };
  const gen = await request(
    `${sandbox}/api/generate-key/get?apiKey=${encodeURIComponent(apiKey)}&expire=2099-01-01&count=1000&isPremium=false&note=wal`,
    { headers: detail },
  );
  const keys = ((await gen.body.json()) as { generatedKeys: { value: string }[] }).generatedKeys.map((k) => k.value);
  await request(`${sandbox}/api/keyless/add`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey, hwid: 'LISTED' }),
  }).then((r) => r.body.dump());
  for (const key of keys) await request(`${sandbox}/v2_validation?key=${key}&service=wal&hwid=FIRST`).then((r) => r.body.dump());
  const q = (o: Record<string, string | number>) =>
    new URLSearchParams(Object.entries(o).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const walBytes = (): number => {
    try {
      return statSync(`${db}-wal`).size;
    } catch {
      return 0;
    }
  };
  const pool = new Pool(sandbox, { connections, pipelining: 1 });
  let max = 0;
  const sampler = setInterval(() => {
    max = Math.max(max, walBytes());
  }, 50);
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < total) {
        const i = next++;
        const key = keys[i % keys.length] ?? '';
        const kind = i % 5;
        const res = await pool.request(
          kind === 0
            ? { method: 'POST', path: `/api/push-execution-count?${q({ apiKey })}` }
            : kind === 1
              ? { method: 'POST', path: `/api/key/expand-expiration?${q({ apiKey, keyValue: key, days: 1 })}` }
              : kind === 2
                ? {
                    method: 'POST',
                    path: '/api/reset-hwid',
                    headers: { 'content-type': 'application/json' },
                    body: JSON.stringify({ apiKey, keyValue: key }),
                  }
                : kind === 3
                  ? { method: 'GET', path: `/v2_validation?${q({ key, service: 'wal', hwid: `H-${i}` })}` }
                  : { method: 'GET', path: `/v2_validation?${q({ key: 'keyless', service: 'wal', hwid: 'LISTED' })}` },
        );
        await res.body.dump();
        if (res.statusCode >= 500) throw new Error(`wal load: HTTP ${res.statusCode}`);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  max = Math.max(max, walBytes());
  await pool.close();
  await new Promise((r) => setTimeout(r, 3_000));
  const after = walBytes();
  console.error(`  ${Math.round(total / seconds).toLocaleString('en-US')} mixed req/s over ${seconds.toFixed(0)} s`);
  record(
    `-wal during ${total.toLocaleString('en-US')} mixed requests (largest seen) ÷ the 64 MiB bound`,
    fmt(max / MiB, 'MiB'),
    '64 MiB',
    max / (64 * MiB),
    '≤ 1',
    max <= 64 * MiB,
  );
  record('-wal 3 s after the load stops ÷ the 4 MiB bound', fmt(after / MiB, 'MiB'), '4 MiB', after / (4 * MiB), '≤ 1', after <= 4 * MiB);
}
