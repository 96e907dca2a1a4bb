// All keys' toolbar on one row: the filter (text, customer, status, premium, expiry,
// creation) and select all matching, the days or dates a date filter needs under it; and the exports of what matches.
import { fmt } from '../../lib/format.ts';
import { useKeydesk } from '../../store/index.ts';
import type { LedgerFilter } from '../../store/types.ts';
import { useDateFilters } from './DateFilters.tsx';
import { allDeletedWords, type selectAllWords } from './wording.ts';

export function Toolbar({
  filter,
  setFilter,
  ready,
  count,
  capped,
  selectAll,
}: {
  filter: LedgerFilter;
  setFilter: (next: LedgerFilter) => void;
  /** The filter's answer is in. */
  ready: boolean;
  count: number;
  capped: boolean;
  selectAll: ReturnType<typeof selectAllWords>;
}) {
  const selectAllMatching = useKeydesk((s) => s.selectAllMatching);
  const dates = useDateFilters(filter, setFilter);
  // One row at any window width: short labels, the exports as one group; the filter box takes what room is left.
  return (
    <>
      <div className="toolbar">
        <label className="toolbar-filter">
          Filter<span className="visually-hidden"> (key, note or HWID)</span>
          <input
            type="search"
            aria-label="Filter (key, note or HWID)"
            placeholder="Key, note or HWID"
            value={filter.text ?? ''}
            // Spaces alone filter nothing: they are no filter, not a search that matches no key.
            onChange={(e) => setFilter({ ...filter, text: e.target.value.trim() === '' ? undefined : e.target.value })}
          />
        </label>
        <input
          type="search"
          className="toolbar-customer"
          aria-label="Customer (name, email or Discord ID)"
          placeholder="Customer"
          value={filter.customer ?? ''}
          onChange={(e) => setFilter({ ...filter, customer: e.target.value.trim() === '' ? undefined : e.target.value })}
        />
        <select
          aria-label="Status"
          value={filter.status ?? ''}
          onChange={(e) => setFilter({ ...filter, status: (e.target.value || undefined) as typeof filter.status })}
        >
          <option value="">Status: any</option>
          <option value="generated">Generated</option>
          <option value="active">Active</option>
          <option value="deleted">Deleted</option>
        </select>
        <select
          aria-label="Premium"
          value={filter.premium === undefined ? '' : String(filter.premium)}
          onChange={(e) => setFilter({ ...filter, premium: e.target.value === '' ? undefined : e.target.value === 'true' })}
        >
          <option value="">Premium: any</option>
          <option value="true">Premium</option>
          <option value="false">Standard</option>
        </select>
        {dates.selects}
        {filter.span && (
          // Overview's figures open All keys with a date window: named here, and cleared in one click.
          <span className="toolbar-span">
            {spanWords(filter.span)}{' '}
            <button type="button" aria-label="Clear the date filter" onClick={() => setFilter({ ...filter, span: undefined })}>
              ×
            </button>
          </span>
        )}
        {selectAll.canSelectAll && (
          <button type="button" disabled={!ready} onClick={selectAllMatching}>
            {selectAll.button}
          </button>
        )}
        {selectAll.allDeleted && ready && <span className="muted">No select-all: {allDeletedWords(count, capped)}.</span>}
      </div>
      {dates.inputs}
    </>
  );
}

/** A date window in words: "Expired before 29 Nov 2026, 12:00", "Expiring 29 Nov – 6 Dec", "Activated since …". */
export function spanWords(span: NonNullable<LedgerFilter['span']>): string {
  const at = (iso: string) => fmt.dateTime(iso);
  if (span.of === 'activatedAt') {
    if (span.from && span.to) return `Activated ${at(span.from)} – ${at(span.to)}`;
    return span.from ? `Activated since ${at(span.from)}` : `Activated before ${at(span.to ?? '')}`;
  }
  if (!span.from) return span.to ? `Expired (expiry before ${at(span.to)})` : 'Any expiry';
  return span.to ? `Expiring ${at(span.from)} – ${at(span.to)}` : `Expiring from ${at(span.from)}`;
}

/** The exports of what matches (`nothing`: the filter matches no key), in the order shown. */
export function Exports({ nothing }: { nothing: boolean }) {
  const exportLedger = useKeydesk((s) => s.exportLedger);
  const exportNote = nothing ? 'Nothing to export: no key matches.' : 'Exports hold every matching key, in the order shown.';
  return (
    <span role="group" aria-label="Export" className="toolbar-export" title={exportNote}>
      <span aria-hidden="true">Export</span>
      {(['csv', 'json'] as const).map((format) => (
        <button
          key={format}
          type="button"
          aria-label={`Export ${format.toUpperCase()}`}
          aria-describedby="ledger-export-note"
          disabled={nothing}
          onClick={() => void exportLedger(format)}
        >
          {format.toUpperCase()}
        </button>
      ))}
      <span id="ledger-export-note" className="visually-hidden">
        {exportNote}
      </span>
    </span>
  );
}
