// A thread's last full collection before it ends (the ledger writer's, writer.worker.ts).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * V8's full collection at its most thorough (what it runs before giving up on memory: at least two major
 * collections): it also gives back the free heap pages V8 keeps pooled for the whole process. A thread that ends
 * leaves its pages in that pool, about 20–30 MiB after reading and writing 100,000 keys, and the pool is emptied
 * only by the next memory-reducing collection, about 8 s later (V8's memory reducer). Collected first, the thread
 * ends with a heap of a few pages.
 *
 * The `gc` function is taken from a context made while --expose-gc is set, and the flag is cleared at once (a
 * worker takes no V8 flags of its own: execArgv refuses --expose-gc). V8's flags are the whole process's, so the
 * window is too: a context made on another thread in that moment (a new writer thread starting, say) also gets a
 * `gc` global. The window is one context's creation long and harmless: a `gc` there does nothing unasked.
 * Electron's main process lets flags change after start (it runs V8 with --no-freeze-flags-after-init).
 *
 * Returns whether the collection ran (false: no `gc` could be had).
 */
export function collectAllGarbage(): boolean {
  // Already there when the process was started with --expose-gc: then the flag is left as it was.
  let gc: unknown = (globalThis as { gc?: unknown }).gc;
  if (typeof gc !== 'function') {
    setFlagsFromString('--expose-gc');
    try {
      gc = runInNewContext('gc');
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
  if (typeof gc !== 'function') return false;
  (gc as (options: object) => void)({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return true;
}
