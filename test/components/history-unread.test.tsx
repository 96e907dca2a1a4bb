// The history chart draws only what was read: across a time Keydesk could not read the count (an outage, the
// app closed) it draws no line, and the figures name the unread span. 5 executions that came at once during
// an outage must not read as a steady climb from 0 to 5.
import { render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { HistoryChart, timeLabel, unreadSpans } from '../../src/renderer/src/components/HistoryChart.tsx';

// uPlot draws on a canvas jsdom does not have: this stand-in keeps what the chart hands it (the options and
// the data it draws), which is what decides where a line goes. uPlot joins two points unless a null lies
// between them (and the series does not span gaps).
const drawn = vi.hoisted((): { options: unknown; data: unknown[] } => ({ options: null, data: [] }));
vi.mock('uplot', () => {
  class FakePlot {
    static paths = { bars: () => () => null };
    over = { clientWidth: 600 };
    constructor(options: unknown) {
      drawn.options = options;
    }
    setData(data: unknown) {
      drawn.data.push(data);
    }
    setSize() {}
    destroy() {}
  }
  return { default: FakePlot };
});

const t = (iso: string) => Date.parse(`2026-11-23T${iso}.000Z`);
type Data = [number[], (number | null)[], (number | null)[]];
const lastDrawn = () => drawn.data.at(-1) as Data;

beforeEach(() => {
  drawn.options = null;
  drawn.data = [];
});

describe('History chart: a time the count was not read', () => {
  // Read every 5 s, then not at all from 6:00:20 to 6:01:28 (the service did not answer), then every 5 s again.
  const outage = [
    { at: t('06:00:00'), total: 0, added: 0 },
    { at: t('06:00:05'), total: 0, added: 0 },
    { at: t('06:00:10'), total: 0, added: 0 },
    { at: t('06:00:15'), total: 0, added: 0 },
    { at: t('06:00:20'), total: 0, added: 0 },
    { at: t('06:01:28'), total: 5, added: 5 },
    { at: t('06:01:33'), total: 5, added: 0 },
    { at: t('06:01:38'), total: 6, added: 1 },
  ];

  it('draws no line across an unread span', () => {
    render(<HistoryChart buckets={outage} />);
    const [xs, , totals] = lastDrawn();
    const before = xs.indexOf(t('06:00:20') / 1000);
    const after = xs.indexOf(t('06:01:28') / 1000);
    expect(before).toBeGreaterThanOrEqual(0);
    expect(after - before).toBe(2);
    expect(totals[before + 1]).toBeNull();
    // Everything read is still drawn, with no other break.
    expect(totals.filter((v) => v !== null)).toEqual([0, 0, 0, 0, 0, 5, 5, 6]);
    expect(totals.filter((v) => v === null)).toHaveLength(1);
    const series = (drawn.options as { series: { spanGaps?: boolean }[] }).series;
    expect(series.some((s) => s.spanGaps === true)).toBe(false);
  });

  it('names the unread span in the description and figures table', () => {
    render(<HistoryChart buckets={outage} />);
    const when = timeLabel(outage);
    const words = `Not read from ${when(t('06:00:20'))} to ${when(t('06:01:28'))}`;
    expect(screen.getByRole('img').getAttribute('aria-label')).toContain(words);
    const table = screen.getByRole('table');
    const rows = within(table)
      .getAllByRole('row')
      .map((r) => r.textContent);
    const gapRow = rows.findIndex((r) => r.startsWith(words));
    expect(gapRow).toBeGreaterThan(0);
    expect(rows[gapRow - 1]).toContain(when(t('06:00:20')));
    expect(rows[gapRow + 1]).toContain(when(t('06:01:28')));
  });

  it('calls a gap unread only past 3 spacings and a minute', () => {
    const every = (seconds: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({ at: t('06:00:00') + i * seconds * 1000, total: i, added: 1 }));
    // Read every 5 s with no gap: one line, no words about unread times.
    render(<HistoryChart buckets={every(5, 10)} />);
    expect(lastDrawn()[2].every((v) => v !== null)).toBe(true);
    expect(screen.getByRole('img').getAttribute('aria-label')).not.toContain('Not read');
    // A missed poll or two (5 s sampling, 50 s apart once) is under a minute: not an outage.
    const missed = every(5, 6);
    missed.push({ at: t('06:01:15'), total: 6, added: 1 });
    expect(unreadSpans(missed)).toEqual([]);
    // Buckets 10 minutes apart (a long range): 25 minutes is not unread, 40 minutes is.
    const coarse = every(600, 6);
    expect(unreadSpans([...coarse, { at: coarse[5]!.at + 25 * 60_000, total: 6, added: 0 }])).toEqual([]);
    expect(unreadSpans([...coarse, { at: coarse[5]!.at + 40 * 60_000, total: 6, added: 0 }])).toEqual([
      { from: coarse[5]!.at, to: coarse[5]!.at + 40 * 60_000 },
    ]);
  });

  describe('with two samples only (no spacing of their own to measure against)', () => {
    const MIN = 60_000;
    const HOUR = 60 * MIN;
    const DAY = 24 * HOUR;
    const two = (from: number, gap: number) => [
      { at: from, total: 0, added: 0 },
      { at: from + gap, total: 5, added: 5 },
    ];

    it('draws no line across a gap of hours within the last day', () => {
      const now = Date.now();
      const buckets = two(now - 13 * HOUR, 12 * HOUR);
      render(<HistoryChart buckets={buckets} />);
      const [, , totals] = lastDrawn();
      expect(totals).toEqual([0, null, 5]);
      const when = timeLabel(buckets);
      expect(screen.getByRole('img').getAttribute('aria-label')).toContain(
        `Not read from ${when(buckets[0]!.at)} to ${when(buckets[1]!.at)}: no line is drawn there`,
      );
    });

    it('holds older samples to the spacing kept of them', () => {
      const now = Date.parse('2026-11-23T12:00:00.000Z');
      // Per minute (a day to 30 days old): neighbouring minutes' samples can be 90 s apart; 3 minutes cannot.
      expect(unreadSpans(two(now - 2 * DAY, 90_000), now)).toEqual([]);
      expect(unreadSpans(two(now - 2 * DAY, 3 * MIN), now)).toEqual([{ from: now - 2 * DAY, to: now - 2 * DAY + 3 * MIN }]);
      // Per hour (older than 30 days): 90 minutes apart is neighbouring hours; 3 hours is not.
      expect(unreadSpans(two(now - 40 * DAY, 90 * MIN), now)).toEqual([]);
      expect(unreadSpans(two(now - 40 * DAY, 3 * HOUR), now)).toEqual([{ from: now - 40 * DAY, to: now - 40 * DAY + 3 * HOUR }]);
      // Within the last day every read is kept: under a minute apart is a poll or two missed; past a minute was not read.
      expect(unreadSpans(two(now - HOUR, 30_000), now)).toEqual([]);
      expect(unreadSpans(two(now - HOUR, 90_000), now)).toEqual([{ from: now - HOUR, to: now - HOUR + 90_000 }]);
    });
  });
});
