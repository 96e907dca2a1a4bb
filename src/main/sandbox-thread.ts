// The embedded sandbox on a thread of its own (sandbox.worker.ts): making 100,000 keys costs its event loop, not main's.
import { Worker } from 'node:worker_threads';
import { logWorkerOutput, THREAD_STDERR } from './worker-output.ts';

export interface SandboxWorkerData {
  file: string;
  cacheKiB: number;
  service: { name: string; identifier: string };
  /** The demo service's key as stored; null when none is (the thread issues a new one). */
  apiKey: string | null;
  /** Ports to listen on, the first free one taken (0: any free port). */
  ports: number[];
}
export type SandboxFromMain = { kind: 'stop'; graceMs: number };
export type SandboxToMain =
  { kind: 'started'; url: string; apiKey: string } | { kind: 'failed'; code: string | null; message: string } | { kind: 'stopped' };

/** Where the embedded sandbox listens when nothing is stored: a vendor's app under test is pointed here once. */
export const DEFAULT_SANDBOX_PORT = 8787;

/** `preferred`, else the next free port above it (a hundred tried), else any free port. */
export function sandboxPortsToTry(preferred: number): number[] {
  const ports: number[] = [];
  for (let p = preferred; p < preferred + 100 && p <= 65_535; p++) ports.push(p);
  return [...ports, 0];
}

/** A start that failed, with the code the thread saw (ERR_SQLITE_*, EADDRINUSE) for the words main shows. */
export class SandboxStartError extends Error {
  readonly code: string | null;
  constructor(message: string, code: string | null) {
    super(message);
    this.code = code;
  }
}

export interface SandboxThread {
  readonly url: string;
  /** The demo service's key, as the thread found or made it. */
  readonly apiKey: string;
  /** The thread's id (tests: the sandbox serves from another thread than main's). */
  readonly threadId: number;
  /** Lets requests in flight finish, closes the store and ends the thread, within `budgetMs`. */
  close(budgetMs: number): Promise<void>;
}

/** The worker's entry: the .ts beside this file in source, the bundled .js in out/main (electron.vite.config.ts). */
function workerUrl(): URL {
  return new URL(`./sandbox.worker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url);
}

/** Starts the thread; rejects with a SandboxStartError when it cannot serve. `onExit`: the thread ended unasked. */
export function startSandboxThread(data: SandboxWorkerData, onExit: (code: number) => void): Promise<SandboxThread> {
  const worker = new Worker(workerUrl(), { ...THREAD_STDERR, workerData: data });
  logWorkerOutput(worker, 'sandbox');
  let started = false;
  let stopping = false;
  return new Promise((resolve, reject) => {
    worker.on('error', (error: Error & { code?: unknown }) => {
      console.error('keydesk: the embedded sandbox thread failed:', error);
      reject(new SandboxStartError(error.message, typeof error.code === 'string' ? error.code : null));
    });
    worker.on('exit', (code) => {
      if (!started) reject(new SandboxStartError(`The sandbox thread ended (exit code ${code}).`, null));
      else if (!stopping) onExit(code);
    });
    worker.on('message', (message: SandboxToMain) => {
      if (message.kind === 'failed') {
        reject(new SandboxStartError(message.message, message.code));
        void worker.terminate();
      }
      if (message.kind !== 'started') return;
      started = true;
      resolve({
        url: message.url,
        apiKey: message.apiKey,
        threadId: worker.threadId,
        close: async (budgetMs) => {
          if (stopping) return;
          stopping = true;
          let timer: NodeJS.Timeout | undefined;
          const stopped = new Promise<void>((done) => {
            worker.on('message', (m: SandboxToMain) => m.kind === 'stopped' && done());
            worker.once('exit', () => done());
          });
          // Requests in flight get most of the budget; the store's close and the thread's end the rest.
          worker.postMessage({ kind: 'stop', graceMs: Math.max(0, budgetMs - 250) } satisfies SandboxFromMain);
          await Promise.race([stopped, new Promise<void>((done) => (timer = setTimeout(done, budgetMs)))]);
          clearTimeout(timer);
          await worker.terminate();
        },
      });
    });
  });
}
