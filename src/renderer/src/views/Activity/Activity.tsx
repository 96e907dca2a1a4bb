import { useEffect, useMemo } from 'react';
import type { AuditEntry } from '../../../../shared/domain.ts';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { Field } from '../../components/Field.tsx';
import { useDraft, useKeydesk } from '../../store/index.ts';

const COLUMNS: Column<AuditEntry>[] = [
  { header: 'When', cell: (e) => new Date(e.at).toLocaleString() },
  { header: 'Service', cell: (e) => e.profileName },
  { header: 'Operation', cell: (e) => e.action },
  { header: 'Target', cell: (e) => e.target, className: 'mono' },
  { header: 'Outcome', cell: (e) => (e.outcome === 'ok' ? 'Succeeded' : `Failed: ${e.message}`) },
];

export function Activity() {
  const audit = useKeydesk((s) => s.audit);
  const load = useKeydesk((s) => s.loadAudit);
  const exportAudit = useKeydesk((s) => s.exportAudit);
  const [text, setText] = useDraft('activity.text');
  const [outcome, setOutcome] = useDraft('activity.outcome');

  // What the list shows is what an export writes.
  const filter = useMemo(() => ({ ...(text ? { text } : {}), ...(outcome ? { outcome } : {}) }), [text, outcome]);

  useEffect(() => {
    void load({ filter, offset: 0, limit: 200 });
  }, [load, filter]);

  return (
    <section aria-labelledby="activity-title">
      <h1 id="activity-title">Activity</h1>
      <div className="card">
        <div className="inline">
          <Field label="Filter" type="search" value={text} onChange={(e) => { setText(e.target.value); }} />
          <label>
            Outcome{' '}
            <select value={outcome} onChange={(e) => { setOutcome(e.target.value as typeof outcome); }}>
              <option value="">Any</option>
              <option value="ok">Succeeded</option>
              <option value="failed">Failed</option>
            </select>
          </label>
          {(['csv', 'json'] as const).map((format) => (
            <button
              key={format}
              type="button"
              onClick={() => void exportAudit(filter, format)}
            >
              Export {format.toUpperCase()}
            </button>
          ))}
        </div>
        <p className="muted">{audit ? `${audit.total.toLocaleString()} operation(s)` : 'Loading…'}</p>
        {audit && audit.entries.length > 0 && (
          <DataTable label="Activity" columns={COLUMNS} rows={audit.entries} rowKey={(e) => e.id} />
        )}
      </div>
    </section>
  );
}
