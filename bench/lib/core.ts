// A core as the harness runs it (dispatch, handlers, job engine, ledger) with a remote profile on a bench sandbox.
import { Core } from '../../src/main/core.ts';
import { createHandlers, type Handlers } from '../../src/main/handlers/index.ts';
import { dispatch } from '../../src/main/ipc/dispatch.ts';
import { MemorySecretStore } from '../../src/main/secrets/secret-store.ts';
import type { OperationInput, OperationName, OperationOutput } from '../../src/shared/contract.ts';
import type { Result } from '../../src/shared/result.ts';

export interface BenchCore {
  core: Core;
  call<N extends OperationName>(name: N, input: OperationInput<N>): Promise<OperationOutput<N>>;
  /** Attempts the core's client made (for counting 429s; 0 unless started with countAttempts). */
  attempts: () => number;
}

/**
 * A core with a remote profile on `origin`, selected. `countAttempts` hooks the client's attempt log (for counting
 * 429s), which the app does not: a hooked request also builds its redacted URL.
 */
export async function startCore(userDataDir: string, origin: string, apiKey: string, countAttempts = false): Promise<BenchCore> {
  let attempts = 0;
  const core = await Core.start({
    userDataDir,
    secrets: new MemorySecretStore(),
    version: 'bench',
    askSavePath: () => Promise.resolve(null),
    ...(countAttempts
      ? {
          clientOptions: {
            onAttempt: () => {
              attempts++;
            },
          },
        }
      : {}),
  });
  const handlers: Handlers = createHandlers(core);
  const call = async <N extends OperationName>(name: N, input: OperationInput<N>): Promise<OperationOutput<N>> => {
    const r = (await dispatch(handlers, name, input)) as Result<OperationOutput<N>>;
    if (!r.ok) throw new Error(`${name}: ${r.code} ${r.message}`);
    return r.data;
  };
  const profile = await call('profiles.add', { name: 'Bench', baseUrl: origin, apiKey, serviceIdentifier: 'bench' });
  await call('profiles.select', { id: profile.id });
  return { core, call, attempts: () => attempts };
}
