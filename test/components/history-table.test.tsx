// The history's table: one row per time as shown, so two samples in the same second are one row with the
// later running total and the executions of both; the last sample is always the last row.
import { describe, expect, it } from 'vitest';
import { tableRows } from '../../src/renderer/src/components/HistoryChart.tsx';

const at = (iso: string) => Date.parse(iso);
const bySecond = (ms: number) => new Date(ms).toISOString().slice(11, 19);

describe('History table rows', () => {
  it('merges buckets read at one time, ending at the last sample', () => {
    const rows = tableRows(
      [
        { at: at('2026-11-23T06:40:33.100Z'), total: 0, added: 0 },
        { at: at('2026-11-23T06:40:33.900Z'), total: 1, added: 1 },
        { at: at('2026-11-23T06:42:27.000Z'), total: 1, added: 0 },
        { at: at('2026-11-23T06:45:21.200Z'), total: 2, added: 1 },
        { at: at('2026-11-23T06:45:21.700Z'), total: 2, added: 0 },
        { at: at('2026-11-23T06:57:37.000Z'), total: 3, added: 1 },
      ],
      bySecond,
    );
    expect(rows.map((r) => [bySecond(r.at), r.total, r.added])).toEqual([
      ['06:40:33', 1, 1],
      ['06:42:27', 1, 0],
      ['06:45:21', 2, 1],
      ['06:57:37', 3, 1],
    ]);
  });
});
