import { Fragment, useEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { fmt, NOUNS } from '../lib/format.ts';
import type { ChartBucket } from '../lib/history.ts';
import { useDarkTheme } from '../lib/theme.ts';
import { SAMPLE_RETENTION } from '../../../shared/rules.ts';

const HEIGHT = 220;
/** Width of each y axis; the plot starts this far from the left. */
const AXIS_SIZE = 56;
// uPlot's Side is an ambient const enum, which isolated modules cannot read: its two values, by number.
// eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment -- Side.Left in uPlot.d.ts
const LEFT: uPlot.Axis.Side = 3;
// eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment -- Side.Right in uPlot.d.ts
const RIGHT: uPlot.Axis.Side = 1;

/** Steps for a count axis: whole numbers only (1, 2, 5, 10, 20, 50…), so no tick ever reads "0.5 executions". */
export const COUNT_STEPS: number[] = Array.from({ length: 15 }, (_, e) => [1, 2, 5].map((m) => m * 10 ** e)).flat();

/** Time tick labels from our Intl formatter; a tick that would read as its neighbour is left blank. */
export const timeTicks = (splits: number[], stepSeconds: number): string[] =>
  splits.map((s) => fmt.axisTime(s * 1000, stepSeconds * 1000)).map((label, i, all) => (i > 0 && label === all[i - 1] ? '' : label));

/** Times to the second where points are under a minute apart, so no two rows or tooltips read the same. */
export function timeLabel(buckets: readonly ChartBucket[]): (ms: number) => string {
  let closest = Number.POSITIVE_INFINITY;
  for (let i = 1; i < buckets.length; i++) closest = Math.min(closest, (buckets[i]?.at ?? 0) - (buckets[i - 1]?.at ?? 0));
  const format = closest < 60_000 ? fmt.dateTimeSeconds : fmt.dateTime;
  return (ms) => format(new Date(ms).toISOString());
}

/** The table's rows, one per time as shown: buckets that read the same are merged (later total, both counts). */
export function tableRows(buckets: readonly ChartBucket[], when: (ms: number) => string): ChartBucket[] {
  const out: ChartBucket[] = [];
  let label: string | null = null;
  for (const b of buckets) {
    const shown = when(b.at);
    const prev = out.at(-1);
    if (prev && shown === label) out[out.length - 1] = { at: b.at, total: b.total, added: prev.added + b.added };
    else out.push(b);
    label = shown;
  }
  return out;
}

/** A time the count was not read: from the last sample before a gap to the first one after it (ms). */
export interface Unread {
  from: number;
  to: number;
}

/** The shortest gap ever called "not read": a few missed polls are not an outage. */
export const UNREAD_FLOOR_MS = 60_000;

/**
 * With two samples there is no spacing to measure, so the bound follows SAMPLE_RETENTION: past a minute within the
 * last day, else up to two minute or hour slots (the older sample's age says which).
 */
export function twoSampleBound(from: number, now: number): number {
  const slot = SAMPLE_RETENTION.filter((tier) => now - from > tier.olderThanMs).reduce((widest, tier) => Math.max(widest, tier.slotMs), 0);
  return Math.max(UNREAD_FLOOR_MS, 2 * slot);
}

/**
 * The gaps: samples more than 3 times the median spacing apart (and at least a minute). No line is drawn across one
 * (a climb would say executions came steadily); the figures say the count was not read. Two samples: twoSampleBound.
 */
export function unreadSpans(buckets: readonly ChartBucket[], now = Date.now()): Unread[] {
  const spacing: number[] = [];
  for (let i = 1; i < buckets.length; i++) spacing.push((buckets[i]?.at ?? 0) - (buckets[i - 1]?.at ?? 0));
  const [from, to] = buckets;
  if (spacing.length === 1 && from && to) return to.at - from.at > twoSampleBound(from.at, now) ? [{ from: from.at, to: to.at }] : [];
  if (spacing.length < 2) return [];
  const sorted = [...spacing].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  const threshold = Math.max(3 * median, UNREAD_FLOOR_MS);
  const out: Unread[] = [];
  spacing.forEach((gap, i) => {
    const from = buckets[i]?.at;
    const to = buckets[i + 1]?.at;
    if (gap > threshold && from !== undefined && to !== undefined) out.push({ from, to });
  });
  return out;
}

/**
 * What uPlot draws: the buckets with a null point in each unread span, so the line and bars break there.
 * `bucketAt[i]` is the bucket at plot index i, or null in an unread span (`unreadAt[i]`).
 */
export function chartData(
  buckets: readonly ChartBucket[],
  unread: readonly Unread[],
): { data: uPlot.AlignedData; bucketAt: (ChartBucket | null)[]; unreadAt: (Unread | null)[] } {
  const xs: number[] = [];
  const added: (number | null)[] = [];
  const total: (number | null)[] = [];
  const bucketAt: (ChartBucket | null)[] = [];
  const unreadAt: (Unread | null)[] = [];
  let g = 0;
  for (const b of buckets) {
    const gap = unread[g];
    if (gap && gap.to === b.at) {
      xs.push((gap.from + gap.to) / 2000);
      added.push(null);
      total.push(null);
      bucketAt.push(null);
      unreadAt.push(gap);
      g++;
    }
    xs.push(b.at / 1000);
    added.push(b.added);
    total.push(b.total);
    bucketAt.push(b);
    unreadAt.push(null);
  }
  return { data: [xs, added, total], bucketAt, unreadAt };
}

/** The words for one unread span, with the times as the chart's other figures give them. */
export const unreadWords = (gap: Unread, when: (ms: number) => string): string => `Not read from ${when(gap.from)} to ${when(gap.to)}`;

/** An unread span in words: when Keydesk was closed in it, that (no sample could be taken), else "Not read". */
export function gapWords(gap: Unread, closed: readonly Unread[], when: (ms: number) => string): string {
  const within = closed.filter((c) => c.from < gap.to && c.to > gap.from);
  if (within.length === 0) return unreadWords(gap, when);
  return within.map((c) => `Keydesk was closed from ${when(c.from)} to ${when(c.to)}`).join('; ');
}

/** Least room between time ticks, in CSS pixels: a locale's longest tick ("12:44:50 PM") fits with a gap. */
const TIME_TICK_SPACE = 110;

/** The chart's colours come from the design tokens, so both themes (and a switch between them) are right. */
function palette() {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string) => css.getPropertyValue(name).trim();
  return {
    line: v('--chart-line'),
    bar: v('--chart-bar'),
    grid: v('--chart-grid'),
    text: v('--color-fg-muted'),
    font: `12px ${v('--font-sans') || 'sans-serif'}`,
  };
}

/** Plot indices of samples with no neighbour on either side (a gap or the end): a line would draw nothing there. */
function isolated(u: uPlot, seriesIdx: number): number[] | null {
  const ys = u.data[seriesIdx] ?? [];
  const alone: number[] = [];
  for (let i = 0; i < ys.length; i++) if (ys[i] != null && ys[i - 1] == null && ys[i + 1] == null) alone.push(i);
  return alone.length > 0 && ys.length > 1 ? alone : null;
}

function options(
  width: number,
  unread: () => readonly Unread[],
  onCursor: (idx: number | null, left: number, top: number, plotWidth: number) => void,
): uPlot.Options {
  const c = palette();
  const axis = (scale: string, side: uPlot.Axis.Side, values: uPlot.Axis['values']): uPlot.Axis => ({
    scale,
    side,
    stroke: c.text,
    font: c.font,
    grid: { show: side === LEFT, stroke: c.grid, width: 1 },
    ticks: { stroke: c.grid, width: 1, size: 4 },
    values,
    incrs: COUNT_STEPS,
    size: AXIS_SIZE,
  });
  return {
    width,
    height: HEIGHT,
    legend: { show: false },
    cursor: { drag: { x: false, y: false }, points: { size: 7 } },
    scales: { x: { time: true }, total: { auto: true }, added: { auto: true, range: (_u, _min, max) => [0, Math.max(1, max)] } },
    series: [
      {},
      {
        label: 'Executions per bucket',
        scale: 'added',
        fill: c.bar,
        stroke: c.bar,
        width: 0,
        paths: uPlot.paths.bars?.({ size: [0.7, 48] }),
        points: { show: false },
      },
      // No spanGaps: the line breaks at each unread span; a sample alone between two is drawn as a dot.
      { label: 'Running total', scale: 'total', stroke: c.line, width: 2, points: { show: false, filter: isolated } },
    ],
    axes: [
      {
        stroke: c.text,
        font: c.font,
        grid: { stroke: c.grid, width: 1 },
        ticks: { stroke: c.grid, width: 1, size: 4 },
        space: TIME_TICK_SPACE,
        values: (_u, splits, _axis, _space, step) => timeTicks(splits, step),
      },
      axis('total', LEFT, (_u, splits) => splits.map((v) => fmt.compact(v))),
      axis('added', RIGHT, (_u, splits) => splits.map((v) => fmt.compact(v))),
    ],
    hooks: {
      // The unread spans, shaded under the series, so the break reads as "not read" and not as a fault.
      drawClear: [
        (u) => {
          const { ctx } = u;
          ctx.save();
          ctx.fillStyle = c.grid;
          for (const gap of unread()) {
            const x0 = u.valToPos(gap.from / 1000, 'x', true);
            const x1 = u.valToPos(gap.to / 1000, 'x', true);
            ctx.fillRect(x0, u.bbox.top, Math.max(1, x1 - x0), u.bbox.height);
          }
          ctx.restore();
        },
      ],
      setCursor: [
        (u) => {
          const { idx, left, top } = u.cursor;
          onCursor(idx ?? null, left ?? 0, top ?? 0, u.over.clientWidth);
        },
      ],
    },
  };
}

/** The execution history: running total as a line, executions per bucket as bars, and the same figures in a table. */
export function HistoryChart({ buckets, closed = [] }: { buckets: readonly ChartBucket[]; closed?: readonly Unread[] }) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const [hover, setHover] = useState<{ idx: number; left: number; top: number; flip: boolean } | null>(null);
  const dark = useDarkTheme();
  const unread = useMemo(() => unreadSpans(buckets), [buckets]);
  const { data, bucketAt, unreadAt } = useMemo(() => chartData(buckets, unread), [buckets, unread]);
  // The draw hook reads the spans of the data last set, without making a new plot for each.
  const unreadNow = useRef(unread);

  // One plot per theme; new data goes into the same plot.
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const u = new uPlot(
      options(
        el.clientWidth || 600,
        () => unreadNow.current,
        (idx, left, top, plotWidth) => setHover(idx === null ? null : { idx, left, top, flip: left > plotWidth / 2 }),
      ),
      [[], [], []],
      el,
    );
    plot.current = u;
    const ro = new ResizeObserver(() => u.setSize({ width: el.clientWidth, height: HEIGHT }));
    ro.observe(el);
    return () => {
      ro.disconnect();
      u.destroy();
      plot.current = null;
    };
  }, [dark]);

  useEffect(() => {
    unreadNow.current = unread;
    plot.current?.setData(data);
  }, [data, unread, dark]);

  const at = hover ? bucketAt[hover.idx] : undefined;
  const gapAt = hover ? unreadAt[hover.idx] : undefined;
  const when = timeLabel(buckets);
  const first = buckets[0];
  const last = buckets.at(-1);
  const summary =
    first && last
      ? `Execution count from ${fmt.number(first.total)} to ${fmt.number(last.total)}, ${when(first.at)} to ${when(last.at)}` +
        (unread.length > 0 ? `. ${unread.map((g) => gapWords(g, closed, when)).join('; ')}: no line is drawn there` : '')
      : 'No history';
  const rows = tableRows(buckets, when);
  return (
    <figure className="history-chart">
      <div className="chart-legend" aria-hidden="true">
        <span className="legend-line">Running total (left axis)</span>
        <span className="legend-bar">Executions per interval (right axis)</span>
        {unread.length > 0 && <span className="legend-unread">Not read or Keydesk closed (no line)</span>}
      </div>
      <div className="chart-host" role="img" aria-label={summary}>
        <div ref={host} />
        {hover && (at || gapAt) && (
          <div
            className={hover.flip ? 'chart-tooltip flip' : 'chart-tooltip'}
            style={{ left: hover.left + AXIS_SIZE, top: Math.max(0, hover.top - 8) }}
          >
            {at ? (
              <>
                <time dateTime={new Date(at.at).toISOString()}>{when(at.at)}</time>
                <span>
                  Total <strong>{fmt.number(at.total)}</strong>
                </span>
                <span>+{fmt.count(at.added, NOUNS.execution)}</span>
              </>
            ) : (
              gapAt && <span>{gapWords(gapAt, closed, when)}</span>
            )}
          </div>
        )}
      </div>
      <details className="chart-table">
        <summary>Show the figures as a table</summary>
        <div className="table-wrap" role="region" aria-label="Execution history figures" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Running total</th>
                <th scope="col">Executions in the interval</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((b, i) => {
                const iso = new Date(b.at).toISOString();
                const after = rows[i - 1]?.at ?? Number.NEGATIVE_INFINITY;
                const gaps = unread.filter((g) => g.to > after && g.to <= b.at);
                return (
                  <Fragment key={b.at}>
                    {gaps.map((g) => (
                      <tr key={`unread-${String(g.from)}`} className="unread">
                        <td colSpan={3}>{gapWords(g, closed, when)}: the next row counts what happened in that time.</td>
                      </tr>
                    ))}
                    <tr>
                      <td>
                        <time className="time" dateTime={iso} title={iso}>
                          {when(b.at)}
                        </time>
                      </td>
                      <td className="num">{fmt.number(b.total)}</td>
                      <td className="num">{fmt.number(b.added)}</td>
                    </tr>
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
