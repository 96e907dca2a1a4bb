// HistoryChart's axes: time ticks in our Intl formats, counts stepped by whole numbers, points told apart.
import { describe, expect, it } from 'vitest';
import { COUNT_STEPS, timeLabel, timeTicks } from '../../src/renderer/src/components/HistoryChart.tsx';
import { fmt } from '../../src/renderer/src/lib/format.ts';

describe("Overview: the chart's axes", () => {
  it('labels time ticks with Intl and steps count axes by whole numbers', () => {
    expect(COUNT_STEPS.every((s) => Number.isInteger(s) && s >= 1)).toBe(true);
    expect(COUNT_STEPS.slice(0, 6)).toEqual([1, 2, 5, 10, 20, 50]);
    const t = Date.parse('2026-11-23T10:00:00.000Z') / 1000;
    expect(timeTicks([t, t + 900], 900)).toEqual([fmt.axisTime(t * 1000, 900_000), fmt.axisTime((t + 900) * 1000, 900_000)]);
  });

  it('tells points seconds apart, labelling each time once', () => {
    // A first run: a few samples seconds apart; uPlot puts ticks a quarter of a second apart.
    const t = Date.parse('2026-11-23T04:30:32.000Z') / 1000;
    const ticks = timeTicks([t, t + 0.25, t + 0.5, t + 0.75, t + 1], 0.25);
    expect(ticks.filter((l) => l !== '')).toEqual([fmt.axisTime(t * 1000, 250), fmt.axisTime((t + 1) * 1000, 250)]);
    const close = [
      { at: t * 1000, total: 3, added: 0 },
      { at: (t + 20) * 1000, total: 4, added: 1 },
    ];
    const apart = [
      { at: t * 1000, total: 3, added: 0 },
      { at: (t + 600) * 1000, total: 4, added: 1 },
    ];
    expect(timeLabel(close)(t * 1000)).toBe(fmt.dateTimeSeconds(new Date(t * 1000).toISOString()));
    expect(timeLabel(close)(t * 1000)).not.toBe(timeLabel(close)((t + 20) * 1000));
    expect(timeLabel(apart)(t * 1000)).toBe(fmt.dateTime(new Date(t * 1000).toISOString()));
  });
});
