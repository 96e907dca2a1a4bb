// Runs collectAllGarbage() on a fresh, idle worker thread (test/main/collect-garbage.test.ts) and posts back what
// it returned, how many major collections V8 reported while it ran, and whether a context made after it has `gc`.
import { constants, performance, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { runInNewContext } from 'node:vm';
import { parentPort } from 'node:worker_threads';
import { collectAllGarbage } from '../../src/main/store/collect-garbage.ts';

export interface CollectGarbageProbe {
  collected: boolean;
  majorCollections: number;
  gcAfter: string;
}

const entries: PerformanceEntry[] = [];
const observer = new PerformanceObserver((list) => entries.push(...list.getEntries()));
observer.observe({ entryTypes: ['gc'] });
const from = performance.now();
const collected = collectAllGarbage();
const to = performance.now();
// Node queues a collection's entry from the collection's end, to be delivered on the next turn of the loop.
await new Promise((resolve) => setImmediate(resolve));
entries.push(...observer.takeRecords());
observer.disconnect();
const majorCollections = entries.filter((e) => {
  const kind = (e as { detail?: { kind?: number } | null }).detail?.kind;
  return kind === constants.NODE_PERFORMANCE_GC_MAJOR && e.startTime >= from && e.startTime <= to;
}).length;
parentPort?.postMessage({ collected, majorCollections, gcAfter: runInNewContext('typeof gc') as string } satisfies CollectGarbageProbe);
