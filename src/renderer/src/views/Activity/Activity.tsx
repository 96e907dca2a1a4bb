import { useEffect, useMemo, useState } from 'react';
import { Field } from '../../components/Field.tsx';
import { useKeydesk } from '../../store/index.ts';

export function Activity() {
  const audit = useKeydesk((s) => s.audit);
  const load = useKeydesk((s) => s.loadAudit);
  const exportAudit = useKeydesk((s) => s.exportAudit);
  const [text, setText] = useState('');
  const [outcome, setOutcome] = useState<'' | 'ok' | 'failed'>('');

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
            <select value={outcome} onChange={(e) => { setOutcome(e.target.value as '' | 'ok' | 'failed'); }}>
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
          <table aria-label="Activity">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Service</th>
                <th scope="col">Operation</th>
                <th scope="col">Target</th>
                <th scope="col">Outcome</th>
              </tr>
            </thead>
            <tbody>
              {audit.entries.map((e) => (
                <tr key={e.id}>
                  <td>{new Date(e.at).toLocaleString()}</td>
                  <td>{e.profileName}</td>
                  <td>{e.action}</td>
                  <td className="mono">{e.target}</td>
                  <td>{e.outcome === 'ok' ? 'Succeeded' : `Failed: ${e.message}`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}
