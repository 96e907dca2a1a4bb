// DataTable's selection as a person uses it: the header checkbox ticks the page (then offers "all matching"),
// shift-click ticks a range, and sortable headers say their order.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { DataTable, rangeFrom, type SortState } from '../../src/renderer/src/components/DataTable.tsx';

interface Row {
  id: string;
  note: string;
}
const ROWS: Row[] = Array.from({ length: 6 }, (_, i) => ({ id: `K${i}`, note: `note ${i}` }));

function Harness({ onSort }: { onSort?: (f: string) => void }) {
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set());
  const [sort, setSort] = useState<SortState>({ field: 'id', dir: 'asc' });
  return (
    <DataTable
      label="Keys"
      rows={ROWS}
      rowKey={(r) => r.id}
      columns={[
        { header: 'Key', cell: (r) => r.id, sortField: 'id' },
        { header: 'Note', cell: (r) => r.note, sortField: 'note' },
      ]}
      sort={sort}
      onSort={(field) => {
        onSort?.(field);
        setSort((s) => ({ field, dir: s.field === field && s.dir === 'asc' ? 'desc' : 'asc' }));
      }}
      selection={{
        isSelected: (r) => ticked.has(r.id),
        set: (rows, on) => {
          setTicked((t) => {
            const next = new Set(t);
            for (const r of rows)
              if (on) next.add(r.id);
              else next.delete(r.id);
            return next;
          });
        },
        rowLabel: (r) => `Select ${r.id}`,
        allOnPage: <button type="button">Select all 2,000 matching</button>,
      }}
    />
  );
}
const box = (id: string) => screen.getByRole<HTMLInputElement>('checkbox', { name: `Select ${id}` });
const header = () => screen.getByRole<HTMLInputElement>('checkbox', { name: 'Select all 6 shown' });
const tickedIds = () => ROWS.filter((r) => box(r.id).checked).map((r) => r.id);

describe('DataTable selection', () => {
  it('header checkbox ticks the page, then offers all matching', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    expect(screen.queryByRole('button', { name: 'Select all 2,000 matching' })).toBeNull();
    await user.click(header());
    expect(tickedIds()).toEqual(ROWS.map((r) => r.id));
    expect(header().checked).toBe(true);
    expect(screen.getByRole('button', { name: 'Select all 2,000 matching' })).toBeTruthy();
    await user.click(header());
    expect(tickedIds()).toEqual([]);
  });

  it('shows the header as mixed while only some rows are ticked', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(box('K2'));
    expect(header().indeterminate).toBe(true);
    expect(header().getAttribute('aria-checked')).toBe('mixed');
    expect(header().checked).toBe(false);
  });

  it('shift-click ticks the whole range, in either direction', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(box('K1'));
    await user.keyboard('{Shift>}');
    await user.click(box('K4'));
    await user.keyboard('{/Shift}');
    expect(tickedIds()).toEqual(['K1', 'K2', 'K3', 'K4']);
    // A shift-click on a ticked row unticks the range back to the anchor.
    await user.click(box('K5'));
    await user.keyboard('{Shift>}');
    await user.click(box('K3'));
    await user.keyboard('{/Shift}');
    expect(tickedIds()).toEqual(['K1', 'K2']);
  });

  it('marks rows selected for assistive technology', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(box('K0'));
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((r) => r.getAttribute('aria-selected'))).toEqual(['true', 'false', 'false', 'false', 'false', 'false']);
  });

  it('says the sort order with aria-sort and flips it', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const [keyHeader, noteHeader] = screen.getAllByRole('columnheader').slice(1);
    expect(keyHeader!.getAttribute('aria-sort')).toBe('ascending');
    expect(noteHeader!.getAttribute('aria-sort')).toBe('none');
    await user.click(screen.getByRole('button', { name: 'Key' }));
    expect(keyHeader!.getAttribute('aria-sort')).toBe('descending');
    await user.click(screen.getByRole('button', { name: 'Note' }));
    expect(noteHeader!.getAttribute('aria-sort')).toBe('ascending');
    expect(keyHeader!.getAttribute('aria-sort')).toBe('none');
  });

  it('shows the empty state instead of a header with no rows', () => {
    render(
      <DataTable
        label="Nothing"
        rows={[]}
        rowKey={(r: Row) => r.id}
        columns={[{ header: 'Key', cell: (r: Row) => r.id }]}
        empty={<p>No keys yet.</p>}
      />,
    );
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText('No keys yet.')).toBeTruthy();
  });
});

describe('rangeFrom', () => {
  it('takes the rows from anchor to index inclusive, in order', () => {
    expect(rangeFrom(['a', 'b', 'c', 'd'], 3, 1)).toEqual(['b', 'c', 'd']);
    expect(rangeFrom(['a', 'b', 'c', 'd'], null, 2)).toEqual(['c']);
    expect(rangeFrom(['a', 'b'], 7, 0)).toEqual(['a']);
  });
});
