import type { ReactNode } from 'react';

export interface Column<T> {
  /** The header's text; with `hidden`, read only by assistive technology (an actions column, say). */
  header: string;
  hidden?: boolean;
  cell: (row: T) => ReactNode;
  /** "mono" for key values and HWIDs. */
  className?: string;
}

/** A plain, labelled table of a short list (results of a search, the activity log). */
export function DataTable<T>({
  label,
  columns,
  rows,
  rowKey,
  isSelected,
}: {
  label: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  isSelected?: (row: T) => boolean;
}) {
  return (
    <div className="table-wrap" role="region" aria-label={label} tabIndex={0}>
      <table aria-label={label}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col">
                {c.hidden ? <span className="visually-hidden">{c.header}</span> : c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} aria-selected={isSelected?.(row)}>
              {columns.map((c) => (
                <td key={c.header} className={c.className}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
