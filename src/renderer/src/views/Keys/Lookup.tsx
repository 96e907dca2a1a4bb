import { useState, type SubmitEvent } from 'react';
import type { Key } from '../../../../shared/domain.ts';
import { Field } from '../../components/Field.tsx';
import { useKeydesk } from '../../store/index.ts';

export function Lookup() {
  const runLookup = useKeydesk((s) => s.runLookup);
  const result = useKeydesk((s) => s.lookupResult);
  const status = useKeydesk((s) => s.lookup);
  const error = useKeydesk((s) => s.lookupError);
  const selectKey = useKeydesk((s) => s.selectKey);
  const selected = useKeydesk((s) => s.selectedKey);
  const [term, setTerm] = useState('');
  const rows: Key[] = result ? [...result.active, ...result.generated] : [];

  const submit = (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (term.trim() !== '') void runLookup(term.trim());
  };
  return (
    <div className="card">
      <h2>Find keys</h2>
      <form role="search" onSubmit={submit}>
        <Field label="Key value, note or HWID" type="search" value={term} onChange={(e) => { setTerm(e.target.value); }} />
        <button type="submit">Search</button>
      </form>
      {status === 'loading' && <p role="status">Searching…</p>}
      {status === 'error' && <p role="alert" className="error">{error}</p>}
      {status === 'ready' && rows.length === 0 && <p>No key matches.</p>}
      {rows.length > 0 && (
        <table aria-label="Matching keys">
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Status</th>
              <th scope="col">Note</th>
              <th scope="col">HWID</th>
              <th scope="col">Expires</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((k) => (
              <tr key={k.value} aria-selected={selected?.value === k.value}>
                <td>
                  <button type="button" className="link mono" onClick={() => { selectKey(k); }}>
                    {k.value}
                  </button>
                </td>
                <td>{k.status}</td>
                <td>{k.note}</td>
                <td className="mono">{k.hwid ?? '—'}</td>
                <td>{k.expire ?? (k.expiresByDaysKey ? `${k.daysKey ?? '?'} days from activation` : '—')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
