// `core`: one operation (identifier.check) through the whole core (dispatch, schema, handler, client) ÷ the same
// request with undici directly, both against the embedded sandbox.
import { join } from 'node:path';
import { request } from 'undici';
import { defaultDispatcher } from '../../src/main/client/service-client.ts';
import { Core, SANDBOX_PROFILE_ID } from '../../src/main/core.ts';
import { createHandlers } from '../../src/main/handlers/index.ts';
import { dispatch } from '../../src/main/ipc/dispatch.ts';
import { MemorySecretStore } from '../../src/main/secrets/secret-store.ts';
import { work } from '../lib/sandbox.ts';
import { fmt, median } from '../lib/stats.ts';
import { record } from '../lib/table.ts';

export async function benchCore(): Promise<void> {
  console.error('core: identifier.check through dispatch vs the same GET with undici directly, against the embedded sandbox');
  const secrets = new MemorySecretStore();
  const core = await Core.start({ userDataDir: join(work, 'core'), secrets, version: 'bench', askSavePath: () => Promise.resolve(null) });
  const handlers = createHandlers(core);
  const url = core.sandboxState().url ?? '';
  const apiKey = (await secrets.get(SANDBOX_PROFILE_ID)) ?? '';
  const direct = async (): Promise<void> => {
    const res = await request(`${url}/api/identifier-check?apiKey=${encodeURIComponent(apiKey)}&identifier=demo`, {
      dispatcher: defaultDispatcher(),
    });
    const body = (await res.body.json()) as { exists: boolean };
    if (!body.exists) throw new Error('identifier-check failed');
  };
  const viaCore = async (): Promise<void> => {
    const r = await dispatch(handlers, 'identifier.check', { identifier: 'demo' });
    if (!r.ok) throw new Error(r.message);
  };
  const time = async (fn: () => Promise<void>, n: number): Promise<number> => {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await fn();
    return (performance.now() - t0) / n;
  };
  await time(direct, 300);
  await time(viaCore, 300);
  const d: number[] = [];
  const c: number[] = [];
  for (let round = 0; round < 5; round++) {
    d.push(await time(direct, 1_000));
    c.push(await time(viaCore, 1_000));
  }
  await core.close();
  const dm = median(d);
  const cm = median(c);
  record(
    'one operation through the core ÷ the same request with undici directly',
    fmt(cm * 1000, 'µs'),
    fmt(dm * 1000, 'µs'),
    cm / dm,
    '≤ 1.3',
    cm / dm <= 1.3,
  );
}
