// Preloaded into the harness by the rss bench (`node --import bench/lib/memory-probe.ts`): on SIGUSR2 it prints one
// line, `keydesk-memory {json}`, with where the process's memory is, so the bench can report the parts of the
// RSS it reads from /proc. Nothing here runs in Keydesk itself.
import { readFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';

export interface MemoryParts {
  /** /proc/self/status, KiB: anonymous (heaps, malloc) and file-backed (the binary, libraries) resident pages. */
  rssAnonKiB: number;
  rssFileKiB: number;
  /** The highest RSS so far (VmHWM), KiB. */
  rssPeakKiB: number;
  /** process.memoryUsage(), bytes. */
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  /** V8's young generation (both semi-spaces), committed bytes. */
  newSpace: number;
  /**
   * From /proc/self/smaps, KiB resident: V8's heap pages (anonymous 256 KiB mappings on a 256 KiB boundary,
   * including free pages V8 keeps pooled, which heapTotal leaves out); malloc's main heap ([heap]: SQLite's page
   * caches, Node's buffers, and memory freed to malloc but not returned); every other anonymous mapping (thread
   * arenas, stacks, large objects and large buffers).
   */
  v8PagesKiB: number;
  mallocHeapKiB: number;
  otherAnonKiB: number;
}

const PAGE_KIB = 256;

function smapsParts(): Pick<MemoryParts, 'v8PagesKiB' | 'mallocHeapKiB' | 'otherAnonKiB'> {
  const parts = { v8PagesKiB: 0, mallocHeapKiB: 0, otherAnonKiB: 0 };
  let region: { start: number; kib: number; name: string } | null = null;
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) {
      const start = Number.parseInt(head[1] ?? '0', 16);
      region = { start, kib: (Number.parseInt(head[2] ?? '0', 16) - start) / 1024, name: head[3] ?? '' };
      continue;
    }
    const anon = /^Anonymous:\s+(\d+) kB/.exec(line);
    if (!anon || !region) continue;
    const kib = Number(anon[1]);
    if (region.name === '[heap]') parts.mallocHeapKiB += kib;
    else if (region.name === '' && region.kib === PAGE_KIB && region.start % (PAGE_KIB * 1024) === 0) parts.v8PagesKiB += kib;
    else parts.otherAnonKiB += kib;
  }
  return parts;
}

process.on('SIGUSR2', () => {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN);
  const m = process.memoryUsage();
  const parts: MemoryParts = {
    rssAnonKiB: kib('RssAnon'),
    rssFileKiB: kib('RssFile'),
    rssPeakKiB: kib('VmHWM'),
    heapTotal: m.heapTotal,
    heapUsed: m.heapUsed,
    external: m.external,
    arrayBuffers: m.arrayBuffers,
    newSpace: getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0,
    ...smapsParts(),
  };
  process.stdout.write(`keydesk-memory ${JSON.stringify(parts)}\n`);
});
