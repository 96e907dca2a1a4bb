import { useEffect, useRef, type ReactNode } from 'react';
import { Icon } from './Icon.tsx';

export interface Column<T> {
  /** The header's text; with `hidden`, read only by assistive technology (an actions column, say). */
  header: string;
  hidden?: boolean;
  cell: (row: T) => ReactNode;
  /** "mono" for key values and HWIDs, "num" for figures, "optional" for a column a narrow layout may leave out. */
  className?: string;
  /** Set on a column the table can be sorted by: the sort's field name. */
  sortField?: string;
}

export interface SortState {
  field: string;
  dir: 'asc' | 'desc';
}

/** Which rows are ticked, and how to tick them: a range (shift-click) and the header's "this page" arrive as one list. */
export interface Selection<T> {
  isSelected: (row: T) => boolean;
  /** Ticks (true) or unticks (false) every row given. */
  set: (rows: readonly T[], selected: boolean) => void;
  /** "Select KD-…": the checkbox's accessible name. */
  rowLabel: (row: T) => string;
  /** Shown under the header when every row of the page is ticked: the offer to select all matching, say. */
  allOnPage?: ReactNode;
}

/** Rows from the anchor (last clicked) to this one, inclusive, as shift-click picks them; just this row without one on the page. */
export function rangeFrom<T>(rows: readonly T[], anchor: number | null, index: number): T[] {
  if (anchor === null || anchor < 0 || anchor >= rows.length) return rows.slice(index, index + 1);
  const [a, b] = anchor < index ? [anchor, index] : [index, anchor];
  return rows.slice(a, b + 1);
}

/** A column header that sorts: a button, aria-sort on the header, and a visible arrow for the direction. */
export function SortButton({
  label,
  field,
  sort,
  onSort,
}: {
  label: string;
  field: string;
  sort: SortState;
  onSort: (field: string) => void;
}) {
  const active = sort.field === field;
  return (
    <button type="button" className="sort-button" onClick={() => onSort(field)}>
      <span>{label}</span>
      <Icon
        name={!active ? 'arrowUpDown' : sort.dir === 'asc' ? 'arrowUp' : 'arrowDown'}
        className={active ? 'sort-arrow active' : 'sort-arrow'}
      />
    </button>
  );
}

export const ariaSort = (sort: SortState | undefined, field: string | undefined): 'ascending' | 'descending' | 'none' | undefined =>
  sort === undefined || field === undefined ? undefined : sort.field !== field ? 'none' : sort.dir === 'asc' ? 'ascending' : 'descending';

/** The header checkbox: ticked when every row is, mixed when some are; a press ticks them all, or clears them. */
export function HeaderCheckbox({
  label,
  state,
  onChange,
}: {
  label: string;
  state: 'all' | 'some' | 'none';
  onChange: (selectAll: boolean) => void;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = state === 'some';
  }, [state]);
  return (
    <input
      ref={ref}
      type="checkbox"
      aria-label={label}
      checked={state === 'all'}
      aria-checked={state === 'some' ? 'mixed' : state === 'all'}
      onChange={() => onChange(state !== 'all')}
    />
  );
}

/** The app's one table of records: optional sorting, selection with shift-click ranges, rows that open, an empty state. */
export function DataTable<T>({
  label,
  columns,
  rows,
  rowKey,
  isCurrent,
  onOpen,
  openLabel,
  sort,
  onSort,
  selection,
  empty,
}: {
  label: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  /** The row whose detail is open. */
  isCurrent?: (row: T) => boolean;
  /** Opens a row's detail; each row gets a button named by `openLabel`. */
  onOpen?: (row: T) => void;
  openLabel?: (row: T) => string;
  sort?: SortState;
  onSort?: (field: string) => void;
  selection?: Selection<T>;
  empty?: ReactNode;
}) {
  const anchor = useRef<number | null>(null);
  if (rows.length === 0 && empty) return <>{empty}</>;
  const ticked = selection ? rows.filter((r) => selection.isSelected(r)).length : 0;
  const headerState = ticked === 0 ? 'none' : ticked === rows.length ? 'all' : 'some';
  return (
    <div className="table-wrap" role="region" aria-label={label} tabIndex={0}>
      <table aria-label={label} className="data-table">
        <thead>
          <tr>
            {selection && (
              <th scope="col" className="check">
                <HeaderCheckbox
                  label={`Select all ${rows.length} shown`}
                  state={headerState}
                  onChange={(all) => {
                    selection.set(rows, all);
                    anchor.current = null;
                  }}
                />
              </th>
            )}
            {columns.map((c) => (
              <th
                key={c.header}
                scope="col"
                aria-sort={ariaSort(sort, c.sortField)}
                className={['num', 'optional'].filter((w) => c.className?.split(' ').includes(w)).join(' ') || undefined}
              >
                {c.hidden ? (
                  <span className="visually-hidden">{c.header}</span>
                ) : sort && onSort && c.sortField ? (
                  <SortButton label={c.header} field={c.sortField} sort={sort} onSort={onSort} />
                ) : (
                  c.header
                )}
              </th>
            ))}
            {onOpen && (
              <th scope="col">
                <span className="visually-hidden">Open</span>
              </th>
            )}
          </tr>
          {selection?.allOnPage && headerState === 'all' && (
            <tr className="select-all-note">
              <td colSpan={columns.length + 1 + (onOpen ? 1 : 0)}>{selection.allOnPage}</td>
            </tr>
          )}
        </thead>
        <tbody>
          {rows.map((row, index) => {
            const selected = selection?.isSelected(row) ?? false;
            return (
              <tr key={rowKey(row)} aria-selected={selection ? selected : undefined} aria-current={isCurrent?.(row) ? 'true' : undefined}>
                {selection && (
                  <td className="check">
                    <input
                      type="checkbox"
                      aria-label={selection.rowLabel(row)}
                      checked={selected}
                      onChange={() => {
                        // The click handler below does the work: it alone sees the Shift key.
                      }}
                      onClick={(e) => {
                        const range = e.shiftKey ? rangeFrom(rows, anchor.current, index) : [row];
                        selection.set(range, !selected);
                        anchor.current = index;
                      }}
                    />
                  </td>
                )}
                {columns.map((c) => (
                  <td key={c.header} className={c.className}>
                    {c.cell(row)}
                  </td>
                ))}
                {onOpen && (
                  <td className="open">
                    <button type="button" className="small" onClick={() => onOpen(row)} aria-expanded={isCurrent?.(row) ?? false}>
                      {openLabel?.(row) ?? 'Open'}
                    </button>
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
