// A real core in a temporary userData, driven through dispatch (the path IPC and the harness take).
import { join } from 'node:path';
import { Core, type CoreOptions } from '../../src/main/core.ts';
import { createHandlers, type Handlers } from '../../src/main/handlers/index.ts';
import { dispatch } from '../../src/main/ipc/dispatch.ts';
import { MemorySecretStore } from '../../src/main/secrets/secret-store.ts';
import { LocalDb } from '../../src/main/store/local-db.ts';
import type { OperationInput, OperationName, OperationOutput } from '../../src/shared/contract.ts';
import type { Result } from '../../src/shared/result.ts';
import { tempDir } from './temp-dir.ts';

export interface TestCore {
  core: Core;
  handlers: Handlers;
  userData: string;
  call<N extends OperationName>(name: N, input?: OperationInput<N>): Promise<Result<OperationOutput<N>>>;
  /** Calls and returns the data; a failure throws with its code and message. */
  must<N extends OperationName>(name: N, input?: OperationInput<N>): Promise<OperationOutput<N>>;
  /** A connection that writes keydesk.db beside the core's writer, for a test's setup (main's only reads). */
  writable(): LocalDb;
  close(): Promise<void>;
}

export async function startTestCore(options: Partial<CoreOptions> = {}): Promise<TestCore> {
  const userData = options.userDataDir ?? tempDir('keydesk-userdata-');
  const exportsDir = tempDir('keydesk-exports-');
  const core = await Core.start({
    secrets: new MemorySecretStore(),
    version: '0.0.0-test',
    askSavePath: (name) => Promise.resolve(join(exportsDir, name)),
    // Any free port, nothing stored: tests run side by side and keep 8787 for a Keydesk in use.
    sandboxPort: 0,
    ...options,
    userDataDir: userData,
  });
  const handlers = createHandlers(core);
  const call = async <N extends OperationName>(name: N, input?: OperationInput<N>): Promise<Result<OperationOutput<N>>> =>
    (await dispatch(handlers, name, input)) as Result<OperationOutput<N>>;
  const must = async <N extends OperationName>(name: N, input?: OperationInput<N>): Promise<OperationOutput<N>> => {
    const r = await call(name, input);
    if (!r.ok) throw new Error(`${name} failed: ${r.code} ${r.message} ${r.detail ?? ''}`);
    return r.data;
  };
  let writable: LocalDb | null = null;
  return {
    core,
    handlers,
    userData,
    call,
    must,
    writable: () => (writable ??= new LocalDb(join(userData, 'keydesk.db'))),
    close: async () => {
      writable?.close();
      await core.close();
    },
  };
}
