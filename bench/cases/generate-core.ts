// `generate-core`: 100,000 keys through keys.generate (HTTP, reading, hand-off to the ledger writer) ÷ the same HTTP
// call alone (body parsed); also until the ledger holds them, the real dialect's call, and main's longest stall.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import { request } from 'undici';
import { DETAIL_FULL, DETAIL_HEADER, ROUTES } from '../../src/shared/wire.ts';
import { startCore } from '../lib/core.ts';
import { createService, generateRaw, startSandbox, work } from '../lib/sandbox.ts';
import { fmt, median, msList } from '../lib/stats.ts';
import { record } from '../lib/table.ts';

export async function benchGenerateCore(): Promise<void> {
  console.error(
    'generate-core: 100,000 keys through keys.generate (HTTP, reading, hand-off to the ledger writer) vs the same HTTP call alone (body parsed)',
  );
  const db = join(work, 'gencore.db');
  const apiKey = createService(db, 'bench');
  const origin = (await startSandbox(db)).url;
  const c = await startCore(join(work, 'gencore-core'), origin, apiKey);
  // The baseline is the request keys.generate sends (ServiceClient: JSON body, `Keydesk-Detail: full`, so the sandbox
  // answers in its detail dialect, about 33 MB for 100,000 keys), parsed. The real dialect's answer to the same call
  // is a third of that (value, note, expiry, premium per key): timed beside, for scale.
  const sameCall = async (note: string): Promise<number> => {
    const res = await request(`${origin}${ROUTES.generateKeyPost.path}`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json', [DETAIL_HEADER]: DETAIL_FULL },
      body: JSON.stringify({ apiKey, expire: '2099-01-01', count: 100_000, isPremium: false, note }),
    });
    const body = (await res.body.json()) as { generatedKeys?: unknown[] };
    return body.generatedKeys?.length ?? 0;
  };
  const ours: number[] = [];
  const held: number[] = [];
  const base: number[] = [];
  const real: number[] = [];
  /** The longest main's event loop went without turning while the ledger writer recorded a round's keys. */
  const stalls: number[] = [];
  const pause = () => new Promise((r) => setTimeout(r, 300));
  try {
    for (let round = 0; round < 5; round++) {
      let t0 = performance.now();
      if ((await sameCall(`http round ${round}`)) !== 100_000) throw new Error('generate failed');
      base.push(performance.now() - t0);
      await pause();
      t0 = performance.now();
      if ((await generateRaw(origin, apiKey, 100_000, `real dialect round ${round}`)).length !== 100_000)
        throw new Error('generate failed');
      real.push(performance.now() - t0);
      await pause();
      t0 = performance.now();
      const r = await c.call('keys.generate', { expire: '2099-01-01', count: 100_000, isPremium: false, note: `core round ${round}` });
      ours.push(performance.now() - t0);
      if (r.generated.count !== 100_000) throw new Error('generate through the core failed');
      // Until the ledger holds them: the writer drains before the next round, so rounds never overlap.
      const loop = monitorEventLoopDelay({ resolution: 10 });
      loop.enable();
      await c.core.writer.idle();
      held.push(performance.now() - t0);
      loop.disable();
      stalls.push(loop.max / 1e6);
      await pause();
    }
    const q = await c.call('ledger.query', {
      filter: {},
      sort: { field: 'createdAt', dir: 'desc' },
      offset: 0,
      limit: 1,
      exactCount: true,
    });
    if (q.total !== 500_000 || q.recording !== undefined) throw new Error(`the ledger holds ${q.total ?? '?'} rows after 5 rounds`);
  } finally {
    await c.core.close();
  }
  console.error(
    `  rounds (ms): keys.generate answers ${msList(ours)} / the ledger holds them ${msList(held)} / the same HTTP call ${msList(base)} / the real dialect's call ${msList(real)} / main's longest event-loop stall meanwhile ${msList(stalls)}`,
  );
  for (const xs of [ours, held, base, real, stalls]) xs.shift();
  const o = median(ours);
  const h = median(held);
  const b = median(base);
  const r = median(real);
  record(
    'generate 100,000 keys: keys.generate answers (HTTP, reading, hand-off to the ledger writer) ÷ the same HTTP call alone (body parsed)',
    fmt(o, 'ms'),
    fmt(b, 'ms'),
    o / b,
    '≤ 1.5',
    o / b <= 1.5,
  );
  record(
    "… until the ledger holds them (written on the ledger writer's thread) ÷ the same HTTP call alone",
    fmt(h, 'ms'),
    fmt(b, 'ms'),
    h / b,
    'reported',
    true,
  );
  record(
    '… keys.generate answers ÷ the call in the real dialect (a third of the body), for scale',
    fmt(o, 'ms'),
    fmt(r, 'ms'),
    o / r,
    'reported',
    true,
  );
  const stall = Math.max(...stalls);
  record(
    "… main's longest event-loop stall while the ledger writer records them (worst round; 10 ms resolution)",
    fmt(stall, 'ms'),
    '',
    stall,
    'reported',
    true,
  );
}
