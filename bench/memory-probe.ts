// Preloaded into the harness by the rss bench (`node --import bench/memory-probe.ts`): on SIGUSR2 it prints one
// line, `keydesk-memory {json}`, with where the process's memory is, so the bench can report the parts of the
// RSS it reads from /proc. Nothing here runs in Keydesk itself.
import { readFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';

export interface MemoryParts {
  /** /proc/self/status, KiB: anonymous (heaps, malloc) and file-backed (the binary, libraries) resident pages. */
  rssAnonKiB: number;
  rssFileKiB: number;
  /** process.memoryUsage(), bytes. */
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  /** V8's young generation (both semi-spaces), committed bytes. */
  newSpace: number;
}

process.on('SIGUSR2', () => {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN);
  const m = process.memoryUsage();
  const parts: MemoryParts = {
    rssAnonKiB: kib('RssAnon'),
    rssFileKiB: kib('RssFile'),
    heapTotal: m.heapTotal,
    heapUsed: m.heapUsed,
    external: m.external,
    arrayBuffers: m.arrayBuffers,
    newSpace: getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0,
  };
  process.stdout.write(`keydesk-memory ${JSON.stringify(parts)}\n`);
});
