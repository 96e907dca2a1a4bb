// `throughput`: the sandbox's /v2_validation and push-execution-count under closed-loop load ÷ a bare node:http
// server answering fixed JSON, alternating in the same run.
import { join } from 'node:path';
import { Pool } from 'undici';
import type { BenchOptions } from '../lib/options.ts';
import { createService, startChild, startSandbox, work } from '../lib/sandbox.ts';
import { fmt, median } from '../lib/stats.ts';
import { record } from '../lib/table.ts';

/** Closed-loop load: `connections` requests always in flight for `seconds`; returns requests per second. */
async function throughput(origin: string, method: 'GET' | 'POST', path: string, seconds: number, connections: number): Promise<number> {
  const pool = new Pool(origin, { connections, pipelining: 1 });
  let done = 0;
  const end = performance.now() + seconds * 1000;
  const loop = async (): Promise<void> => {
    while (performance.now() < end) {
      const res = await pool.request({ method, path });
      await res.body.dump();
      if (res.statusCode !== 200) throw new Error(`${method} ${path.slice(0, 40)}: HTTP ${res.statusCode}`);
      done++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, loop));
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  return done / elapsed;
}

export async function benchThroughput({ seconds, connections }: BenchOptions): Promise<void> {
  console.error('throughput: bare node:http vs the sandbox, alternating runs of', seconds, 's,', connections, 'connections');
  const db = join(work, 'throughput.db');
  const apiKey = createService(db, 'bench');
  const sandbox = (await startSandbox(db)).url;
  const baseline = (await startChild('bench/lib/baseline-server.ts', [], /baseline on (http:\/\/\S+)\n/)).url;

  const gen = await fetch(`${sandbox}/api/generate-key/get?apiKey=${apiKey}&expire=2099-01-01&count=1&isPremium=false`);
  const value = ((await gen.json()) as { generatedKeys: { value: string }[] }).generatedKeys[0]?.value ?? '';
  const validatePath = `/v2_validation?key=${value}&service=bench&hwid=BENCH-HWID`;
  await fetch(`${sandbox}${validatePath}`); // activates and binds: the steady state of a protected app
  const pushPath = `/api/push-execution-count?apiKey=${encodeURIComponent(apiKey)}`;

  await throughput(baseline, 'GET', '/', 0.5, connections);
  await throughput(sandbox, 'GET', validatePath, 0.5, connections);
  const base: number[] = [];
  const validation: number[] = [];
  const push: number[] = [];
  for (let round = 0; round < 3; round++) {
    base.push(await throughput(baseline, 'GET', '/', seconds, connections));
    validation.push(await throughput(sandbox, 'GET', validatePath, seconds, connections));
    push.push(await throughput(sandbox, 'POST', pushPath, seconds, connections));
  }
  const b = median(base);
  const v = median(validation);
  const p = median(push);
  record('/v2_validation throughput ÷ bare node:http', fmt(v, 'req/s'), fmt(b, 'req/s'), v / b, '≥ 0.5', v / b >= 0.5);
  record('push-execution-count throughput ÷ bare node:http', fmt(p, 'req/s'), fmt(b, 'req/s'), p / b, '≥ 0.3', p / b >= 0.3);
}
