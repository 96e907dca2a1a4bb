// The embedded sandbox's thread: opens its store, makes sure the demo service has a key, serves HTTP on loopback
// on the first free port of those main gives.
import { parentPort, workerData } from 'node:worker_threads';
import { startSandboxServer, type RunningSandbox } from '../sandbox/server.ts';
import { SandboxStore } from '../sandbox/store.ts';
import type { SandboxFromMain, SandboxToMain, SandboxWorkerData } from './sandbox-thread.ts';

const data = workerData as SandboxWorkerData;
const port = parentPort;
const post = (message: SandboxToMain): void => port?.postMessage(message);
let store: SandboxStore | null = null;
let server: RunningSandbox | null = null;

try {
  store = new SandboxStore(data.file, { cacheSizeKiB: data.cacheKiB });
  const { name, identifier } = data.service;
  let apiKey = data.apiKey;
  if (store.serviceByIdentifier(identifier) === null) apiKey = store.createService(name, identifier).apiKey;
  // The key was lost (session-only storage, a wiped keychain): a new one for the same service.
  else if (apiKey === null || store.serviceByApiKey(apiKey) === null) apiKey = store.rotateApiKey(identifier);
  for (const [i, candidate] of data.ports.entries()) {
    try {
      server = await startSandboxServer({ store, host: '127.0.0.1', port: candidate });
      break;
    } catch (error) {
      // Taken, or reserved by the system (Windows keeps ranges for Hyper-V and WSL): the next port may serve.
      const code = (error as { code?: unknown }).code;
      if (!(code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') || i === data.ports.length - 1) throw error;
    }
  }
  if (server === null) throw new Error('No port was given to listen on.');
  post({ kind: 'started', url: server.url, apiKey });
} catch (error) {
  store?.close();
  store = null;
  const code = (error as { code?: unknown } | null)?.code;
  post({ kind: 'failed', code: typeof code === 'string' ? code : null, message: error instanceof Error ? error.message : String(error) });
}

// The one message main sends: stop.
port?.on('message', (message: SandboxFromMain) => {
  void (async () => {
    await server?.close(message.graceMs);
    store?.close();
    post({ kind: 'stopped' });
    port.close();
  })();
});
