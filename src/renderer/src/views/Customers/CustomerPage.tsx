// One customer's page: their fields (edit, remove), their keys with status, expiry and HWID, acted on all or some
// as a job (extend, reset HWID, delete, each confirmed), and their activity.
import { useCallback, useEffect, useState } from 'react';
import type { AuditEntry, LedgerRow } from '../../../../shared/domain.ts';
import type { CustomerSummary } from '../../../../shared/customers.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { JobPanel } from '../../components/JobPanel.tsx';
import { Time } from '../../components/Time.tsx';
import { isLive } from '../../lib/jobs.ts';
import { operationWords } from '../../lib/words.ts';
import { useKeydesk } from '../../store/index.ts';
import { selectBulkJob } from '../../store/job-selectors.ts';
import type { BulkAction } from '../../store/types.ts';
import { CustomerForm } from './CustomerForm.tsx';
import { ask, keyCountWords, useBook } from './book.ts';

const n = (x: number) => x.toLocaleString('en-US');
/** Keys a page lists; a customer with more is acted on whole by "all", and shows the count. */
const KEYS_SHOWN = 1_000;
/** The acts a customer page offers (an edit of their keys is All keys' bulk edit). */
type CustomerAct = Exclude<BulkAction, 'edit'>;
const ACT_WORDS: Record<CustomerAct, string> = { extend: 'Extend', resetHwid: 'Reset the HWID of', delete: 'Delete' };

export function CustomerPage({ id }: { id: number }) {
  const notify = useKeydesk((s) => s.notify);
  const job = useKeydesk(selectBulkJob);
  const [customer, setCustomer] = useState<CustomerSummary | null>(null);
  const [keys, setKeys] = useState<{ rows: LedgerRow[]; total: number } | null>(null);
  const [activity, setActivity] = useState<AuditEntry[]>([]);
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState(false);
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set());
  const [days, setDays] = useState('30');
  const [acting, setActing] = useState<{ action: CustomerAct; all: boolean } | null>(null);

  /** Bumped to read the page again (an edit saved). */
  const [version, setVersion] = useState(0);
  const load = useCallback(() => setVersion((v) => v + 1), []);
  // Read again as a job on their keys ends: its answers changed them.
  const jobEnded = job !== null && !isLive(job) ? job.id + job.state : null;
  useEffect(() => {
    let live = true;
    void Promise.all([
      ask('customers.get', { id }),
      ask('ledger.query', { filter: { customerId: id }, sort: { field: 'value', dir: 'asc' }, offset: 0, limit: KEYS_SHOWN }),
      ask('audit.list', { filter: { customerId: id }, offset: 0, limit: 50 }),
    ]).then(([c, k, a]) => {
      if (!live) return;
      setCustomer(c);
      if (k) setKeys({ rows: k.rows, total: k.total ?? k.rows.length });
      if (a) setActivity(a.entries);
    });
    return () => {
      live = false;
    };
  }, [id, version, jobEnded]);

  const back = () => useBook.getState().open(null);
  if (customer === null) return <p role="status">Reading the customer…</p>;
  const count = acting?.all ? (keys?.total ?? 0) : ticked.size;
  const daysN = Number(days);
  const act = (action: CustomerAct, all: boolean) => {
    if (action === 'extend' && !(Number.isInteger(daysN) && daysN >= 1)) {
      notify('error', 'Enter a whole number of days, 1 or more, to extend by.');
      return;
    }
    setActing({ action, all });
  };
  return (
    <section aria-labelledby="customers-title">
      <button type="button" className="link" onClick={back}>
        ← All customers
      </button>
      <h1 id="customers-title">{customer.name}</h1>
      <p className="muted">
        {[customer.email, customer.discordId && `Discord ${customer.discordId}`, customer.reference, customer.tags.join(', ')]
          .filter(Boolean)
          .join(' · ') || 'No contact details.'}{' '}
        {keyCountWords(customer.keys)}.
      </p>
      {customer.note && <p>{customer.note}</p>}
      <div className="actions">
        <button type="button" onClick={() => setEditing(true)}>
          Edit
        </button>
        <button type="button" className="danger" onClick={() => setRemoving(true)}>
          Remove customer
        </button>
      </div>
      {editing && (
        <CustomerForm
          initial={customer}
          submitLabel="Save customer"
          onCancel={() => setEditing(false)}
          onSubmit={async (fields) => {
            const saved = await ask('customers.update', { id, fields });
            if (saved === null) return false;
            setEditing(false);
            load();
            return true;
          }}
        />
      )}
      <h2>Keys</h2>
      <div className="toolbar" aria-label="Act on their keys">
        <label>
          Days <input aria-label="Days to extend by" inputMode="numeric" size={6} value={days} onChange={(e) => setDays(e.target.value)} />
        </label>
        <button type="button" disabled={!keys || keys.total === 0} onClick={() => act('extend', true)}>
          Extend all
        </button>
        <button type="button" disabled={ticked.size === 0} onClick={() => act('extend', false)}>
          Extend ticked
        </button>
        <button type="button" disabled={!keys || keys.total === 0} onClick={() => act('resetHwid', true)}>
          Reset HWID of all
        </button>
        <button type="button" disabled={ticked.size === 0} onClick={() => act('resetHwid', false)}>
          Reset HWID of ticked
        </button>
        <button type="button" className="danger" disabled={ticked.size === 0} onClick={() => act('delete', false)}>
          Delete ticked
        </button>
      </div>
      {job && (
        <div className="bulk-progress">
          <JobPanel job={job} place="allKeys" />
        </div>
      )}
      {keys && keys.rows.length === 0 && <p className="muted">No key of theirs is in the ledger.</p>}
      {keys && keys.rows.length > 0 && (
        <table className="data-table" aria-label="Their keys">
          <thead>
            <tr>
              <th scope="col">
                <input
                  type="checkbox"
                  aria-label="Tick every key shown"
                  checked={ticked.size === keys.rows.length}
                  onChange={(e) => setTicked(new Set(e.target.checked ? keys.rows.map((r) => r.value) : []))}
                />
              </th>
              <th scope="col">Key</th>
              <th scope="col">Status</th>
              <th scope="col">Expires</th>
              <th scope="col">HWID</th>
            </tr>
          </thead>
          <tbody>
            {keys.rows.map((r) => (
              <tr key={r.value}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Tick ${r.value}`}
                    checked={ticked.has(r.value)}
                    onChange={(e) => {
                      const next = new Set(ticked);
                      if (e.target.checked) next.add(r.value);
                      else next.delete(r.value);
                      setTicked(next);
                    }}
                  />
                </td>
                <td className="mono">{r.value}</td>
                <td>{r.status}</td>
                <td>{r.expiresAt ? <Time iso={r.expiresAt} mode="date" /> : 'On activation'}</td>
                <td className="mono">{r.hwid ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {keys && keys.total > keys.rows.length && (
        <p className="muted">
          First {n(keys.rows.length)} of {n(keys.total)} shown; “all” acts on every one.
        </p>
      )}
      <h2>Activity</h2>
      {activity.length === 0 ? (
        <p className="muted">Nothing done about them or their keys yet.</p>
      ) : (
        <ul aria-label="Their activity">
          {activity.map((e) => (
            <li key={e.id}>
              <Time iso={e.at} /> {operationWords(e.action)}: {e.target} ({e.outcome})
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={acting !== null}
        title={`${acting ? ACT_WORDS[acting.action] : ''} ${n(count)} ${count === 1 ? 'key' : 'keys'} of ${customer.name}?`}
        body={
          acting?.action === 'extend'
            ? `Each key's expiry moves ${n(daysN)} days later on the service, as a job you can follow and cancel.`
            : acting?.action === 'delete'
              ? 'The keys are deleted on the service; a protected app stops accepting them. This cannot be undone.'
              : 'Each key may then be activated on another machine.'
        }
        confirmLabel={acting ? (ACT_WORDS[acting.action].split(' ')[0] ?? 'Go') : 'Go'}
        destructive
        onCancel={() => setActing(null)}
        onConfirm={() => {
          const a = acting;
          setActing(null);
          if (!a) return;
          useKeydesk.setState(
            a.all ? { selectedAll: { customerId: id }, selection: new Set() } : { selectedAll: null, selection: new Set(ticked) },
          );
          void useKeydesk
            .getState()
            .runBulk(a.action, a.action === 'extend' ? daysN : undefined)
            .then(() => setTicked(new Set()));
        }}
      />
      <ConfirmDialog
        open={removing}
        title={`Remove ${customer.name}?`}
        body={`Their record leaves the book; their ${n(keys?.total ?? 0)} keys stay on the service and in All keys, held by no one.`}
        confirmLabel="Remove"
        destructive
        onCancel={() => setRemoving(false)}
        onConfirm={() => {
          setRemoving(false);
          void ask('customers.remove', { id }).then((r) => {
            if (r === null) return;
            notify('success', `Removed ${customer.name}.`);
            back();
            void useBook.getState().load();
          });
        }}
      />
    </section>
  );
}
