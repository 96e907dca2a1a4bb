import type { SubmitEvent } from 'react';
import type { Key } from '../../../../shared/domain.ts';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { Field } from '../../components/Field.tsx';
import { useDraft, useKeydesk } from '../../store/index.ts';

const COLUMNS: Column<Key>[] = [
  { header: 'Status', cell: (k) => k.status },
  { header: 'Note', cell: (k) => k.note },
  { header: 'HWID', cell: (k) => k.hwid ?? '—', className: 'mono wrap' },
  {
    header: 'Expires',
    // Without an expiry date a key is a days key not yet activated; the real dialect does not give its term.
    cell: (k) => k.expire ?? (k.expiresByDaysKey ? `${k.daysKey ?? '?'} days from activation` : k.unreported?.includes('daysKey') ? 'from activation' : '—'),
  },
];

export function Lookup() {
  const runLookup = useKeydesk((s) => s.runLookup);
  const result = useKeydesk((s) => s.lookupResult);
  const status = useKeydesk((s) => s.lookup);
  const error = useKeydesk((s) => s.lookupError);
  const selectKey = useKeydesk((s) => s.selectKey);
  const selected = useKeydesk((s) => s.selectedKey);
  const [term, setTerm] = useDraft('lookup.term');
  const rows: Key[] = result ? [...result.active, ...result.generated] : [];

  const submit = (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (term.trim() !== '') void runLookup(term.trim());
  };
  return (
    <div className="card">
      <h2>Find keys</h2>
      <form role="search" onSubmit={submit}>
        <Field label="Key value, note or HWID" data-command-target="lookup" type="search" value={term} onChange={(e) => { setTerm(e.target.value); }} />
        <button type="submit">Search</button>
      </form>
      {status === 'loading' && <p role="status">Searching…</p>}
      {status === 'error' && <p role="alert" className="error">{error}</p>}
      {status === 'ready' && rows.length === 0 && <p>No key matches.</p>}
      {status === 'ready' && rows.length > 0 && result?.bestMatchOnly && (
        <p className="muted">This service returns its best match only, one active and one generated key at most. Search by an exact key value or HWID to reach a particular key.</p>
      )}
      {rows.length > 0 && (
        <DataTable
          label="Matching keys"
          columns={[
            {
              header: 'Key',
              cell: (k) => (
                <button type="button" className="link mono" onClick={() => { selectKey(k); }}>
                  {k.value}
                </button>
              ),
            },
            ...COLUMNS,
          ]}
          rows={rows}
          rowKey={(k) => k.value}
          isSelected={(k) => selected?.value === k.value}
        />
      )}
    </div>
  );
}
