// All keys' toolbar: the filter (text, status, premium), select all matching, and the exports of what matches.
import { Field } from '../../components/Field.tsx';
import { useKeydesk } from '../../store/index.ts';
import type { LedgerFilter } from '../../store/types.ts';
import { allDeletedWords, type selectAllWords } from './wording.ts';

export function Toolbar({
  filter,
  setFilter,
  ready,
  count,
  capped,
  nothing,
  selectAll,
}: {
  filter: LedgerFilter;
  setFilter: (next: LedgerFilter) => void;
  /** The filter's answer is in. */
  ready: boolean;
  count: number;
  capped: boolean;
  /** The filter matches nothing: there is nothing to export. */
  nothing: boolean;
  selectAll: ReturnType<typeof selectAllWords>;
}) {
  const selectAllMatching = useKeydesk((s) => s.selectAllMatching);
  const exportLedger = useKeydesk((s) => s.exportLedger);
  return (
    <>
      <div className="inline">
        <Field
          label="Filter (key, note or HWID)"
          type="search"
          value={filter.text ?? ''}
          // Spaces alone filter nothing: they are no filter, not a search that matches no key.
          onChange={(e) => setFilter({ ...filter, text: e.target.value.trim() === '' ? undefined : e.target.value })}
        />
        <label>
          Status{' '}
          <select
            value={filter.status ?? ''}
            onChange={(e) => setFilter({ ...filter, status: (e.target.value || undefined) as typeof filter.status })}
          >
            <option value="">Any</option>
            <option value="generated">Generated</option>
            <option value="active">Active</option>
            <option value="deleted">Deleted</option>
          </select>
        </label>
        <label>
          Premium{' '}
          <select
            value={filter.premium === undefined ? '' : String(filter.premium)}
            onChange={(e) => setFilter({ ...filter, premium: e.target.value === '' ? undefined : e.target.value === 'true' })}
          >
            <option value="">Any</option>
            <option value="true">Premium</option>
            <option value="false">Standard</option>
          </select>
        </label>
        {selectAll.canSelectAll && (
          <button type="button" disabled={!ready} onClick={selectAllMatching}>
            {selectAll.button}
          </button>
        )}
        {selectAll.allDeleted && ready && <span className="muted">No select-all: {allDeletedWords(count, capped)}.</span>}
        <button type="button" disabled={nothing} aria-describedby="ledger-export-note" onClick={() => void exportLedger('csv')}>
          Export CSV
        </button>
        <button type="button" disabled={nothing} aria-describedby="ledger-export-note" onClick={() => void exportLedger('json')}>
          Export JSON
        </button>
      </div>
      <p id="ledger-export-note" className="muted">
        {nothing ? 'Nothing to export: no key matches.' : 'Exports hold every matching key, in the order shown.'}
      </p>
    </>
  );
}
