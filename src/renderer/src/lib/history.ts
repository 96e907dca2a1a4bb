// From the execution history main hands over to what the Overview chart draws: per bucket, its time, the
// running total at its end, and how many executions it added.
import type { ExecutionSample } from '../../../shared/domain.ts';

export interface ChartBucket {
  /** Bucket time, ms since the epoch. */
  at: number;
  /** The running total (the execution count) at the end of the bucket. */
  total: number;
  /** Executions counted during the bucket: the rise since the previous bucket, never negative. */
  added: number;
}

/** A bucket as main sends it: its time and the lowest and highest count read in it (equal for a raw sample). */
export type HistoryPoint = { at: string; min: number; max: number } | ExecutionSample;

const range = (p: HistoryPoint): { min: number; max: number } =>
  'count' in p ? { min: p.count, max: p.count } : { min: p.min, max: p.max };

export function toChartBuckets(points: readonly HistoryPoint[]): ChartBucket[] {
  const out: ChartBucket[] = [];
  let previous: number | null = null;
  for (const p of points) {
    const at = Date.parse(p.at);
    if (Number.isNaN(at)) continue;
    const { min, max } = range(p);
    // The first bucket's rise is what it saw itself; later ones also count what happened since the last.
    const added = Math.max(0, max - (previous ?? min));
    out.push({ at, total: max, added });
    previous = max;
  }
  return out;
}
