// A second sandbox in this process standing in for a remote service: an in-memory store with one service, served
// over real HTTP on 127.0.0.1, so a test's core talks to it exactly as it would to the hosted service.
import { startSandboxServer, type RunningSandbox } from '../../src/sandbox/server.ts';
import { SandboxStore } from '../../src/sandbox/store.ts';

export interface RemoteSandbox {
  url: string;
  /** The apiKey of its one service. */
  apiKey: string;
  store: SandboxStore;
  server: RunningSandbox;
  close(): Promise<void>;
}

export async function startRemoteSandbox(
  service: { name: string; identifier: string } = { name: 'Remote Co', identifier: 'remote-co' },
  options: { realOnly?: boolean } = {},
): Promise<RemoteSandbox> {
  const store = new SandboxStore(':memory:');
  const { apiKey } = store.createService(service.name, service.identifier);
  const server = await startSandboxServer({ store, realOnly: options.realOnly ?? false });
  return {
    url: server.url,
    apiKey,
    store,
    server,
    close: async () => {
      await server.close();
      store.close();
    },
  };
}
