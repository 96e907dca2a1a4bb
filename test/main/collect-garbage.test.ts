// collectAllGarbage (src/main/store/collect-garbage.ts), the ledger writer thread's last act: on a fresh thread,
// as the writer runs it, it must really collect, at V8's most thorough (last-resort: two major collections or
// more, where an ordinary gc() runs one and the gc extension accepts an unknown flavor without a word).
import { once } from 'node:events';
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';
import { expect, it } from 'vitest';
import type { CollectGarbageProbe } from '../support/collect-garbage-probe.worker.ts';

it("runs V8's last-resort collection on the thread, then hides `gc` again", async () => {
  const worker = new Worker(new URL('../support/collect-garbage-probe.worker.ts', import.meta.url));
  const [probe] = (await once(worker, 'message')) as [CollectGarbageProbe];
  expect(probe.collected).toBe(true);
  expect(probe.majorCollections).toBeGreaterThanOrEqual(2);
  // The flag was on for a moment to take the collector; it is off again, for that thread and for this one.
  expect(probe.gcAfter).toBe('undefined');
  expect(runInNewContext('typeof gc')).toBe('undefined');
  await worker.terminate();
});
