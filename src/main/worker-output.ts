// What main's threads print: a thread's console.error goes to the terminal only, never through main's console, so
// each thread's stderr is handed to main, which passes it on and writes it to main.log.
import type { Worker } from 'node:worker_threads';
import { log } from './log.ts';

/** Worker options that hand the thread's stderr to main: pass the worker to logWorkerOutput next. */
export const THREAD_STDERR = { stderr: true } as const;

/** Each write to `worker`'s stderr goes on to main's stderr, and into main.log named by `thread`. */
export function logWorkerOutput(worker: Worker, thread: string): void {
  worker.stderr.setEncoding('utf8');
  worker.stderr.on('data', (chunk: string) => {
    process.stderr.write(chunk);
    const text = chunk.trimEnd();
    if (text !== '') log.error(`${thread} thread: ${text}`);
  });
}
