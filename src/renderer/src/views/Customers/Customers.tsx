// The Customers view: the vendor's book for the active service (kept in Keydesk only), found by name, email or
// Discord ID, each with their keys' counts; add, merge, link keys from their notes, export; open one's page.
import { useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { useKeydesk } from '../../store/index.ts';
import { CustomerForm } from './CustomerForm.tsx';
import { CustomerPage } from './CustomerPage.tsx';
import { LinkReview } from './LinkReview.tsx';
import { ask, EMPTY_FIELDS, keyCountWords, useBook, useBookFollowsProfile } from './book.ts';

const n = (x: number) => x.toLocaleString('en-US');

export function Customers() {
  useBookFollowsProfile();
  const openId = useBook((s) => s.openId);
  return openId === null ? <CustomerList /> : <CustomerPage id={openId} />;
}

function CustomerList() {
  const { customers, total, search, loading, proposals } = useBook();
  const notify = useKeydesk((s) => s.notify);
  const [adding, setAdding] = useState(false);
  const [ticked, setTicked] = useState<ReadonlySet<number>>(new Set());
  const [mergeInto, setMergeInto] = useState<number | null>(null);
  const [finding, setFinding] = useState(false);
  const tickedList = customers.filter((c) => ticked.has(c.id));
  const into = customers.find((c) => c.id === mergeInto);
  return (
    <section aria-labelledby="customers-title">
      <h1 id="customers-title">Customers</h1>
      <p className="muted">Who holds each key, kept in Keydesk for this service only: never sent to the service.</p>
      <div className="toolbar">
        <input
          type="search"
          aria-label="Find customers"
          placeholder="Name, email, Discord ID, reference or tag"
          data-command-target="customers"
          value={search}
          onChange={(e) => useBook.getState().setSearch(e.target.value)}
        />
        <button type="button" className="primary" onClick={() => setAdding(true)}>
          Add customer
        </button>
        <button
          type="button"
          disabled={finding}
          onClick={() => {
            setFinding(true);
            void ask('customers.proposeLinks', undefined)
              .then((r) => r && useBook.setState({ proposals: { list: r.proposals, keys: r.keys } }))
              .finally(() => setFinding(false));
          }}
        >
          Find customers in key notes
        </button>
        <button type="button" onClick={() => void exportBook('csv', notify)}>
          Export CSV
        </button>
        <button type="button" onClick={() => void exportBook('json', notify)}>
          Export JSON
        </button>
      </div>
      {proposals && <LinkReview proposals={proposals.list} keys={proposals.keys} />}
      {adding && (
        <CustomerForm
          initial={EMPTY_FIELDS}
          submitLabel="Add customer"
          onCancel={() => setAdding(false)}
          onSubmit={async (fields) => {
            const made = await ask('customers.create', fields);
            if (made === null) return false;
            setAdding(false);
            notify('success', `Added ${made.name}.`);
            await useBook.getState().load();
            return true;
          }}
        />
      )}
      {tickedList.length >= 2 && (
        <div className="card" aria-label="Merge customers">
          <label>
            Merge the {n(tickedList.length)} ticked into{' '}
            <select value={mergeInto ?? ''} onChange={(e) => setMergeInto(e.target.value === '' ? null : Number(e.target.value))}>
              <option value="">choose who stays…</option>
              {tickedList.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
        </div>
      )}
      <p role="status" className="muted">
        {loading ? 'Reading the book…' : `${n(total)} ${total === 1 ? 'customer' : 'customers'}${search.trim() ? ' found' : ''}`}
        {customers.length < total ? `, first ${n(customers.length)} shown` : ''}
      </p>
      {customers.length > 0 && (
        <table className="data-table" aria-label="Customers">
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">Ticked</span>
              </th>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Discord ID</th>
              <th scope="col">Keys</th>
            </tr>
          </thead>
          <tbody>
            {customers.map((c) => (
              <tr key={c.id}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Tick ${c.name}`}
                    checked={ticked.has(c.id)}
                    onChange={(e) => {
                      const next = new Set(ticked);
                      if (e.target.checked) next.add(c.id);
                      else next.delete(c.id);
                      setTicked(next);
                    }}
                  />
                </td>
                <td>
                  <button type="button" className="link" onClick={() => useBook.getState().open(c.id)}>
                    {c.name}
                  </button>
                </td>
                <td>{c.email}</td>
                <td className="mono">{c.discordId}</td>
                <td>{keyCountWords(c.keys)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ConfirmDialog
        open={into !== undefined}
        title={`Merge into ${into?.name ?? ''}?`}
        body={`${tickedList
          .filter((c) => c.id !== mergeInto)
          .map((c) => c.name)
          .join(', ')} will be removed; their keys, tags and notes go to ${into?.name ?? ''}, who keeps their own fields.`}
        confirmLabel="Merge"
        destructive
        onCancel={() => setMergeInto(null)}
        onConfirm={() => {
          const from = tickedList.filter((c) => c.id !== mergeInto).map((c) => c.id);
          setMergeInto(null);
          if (!into) return;
          void ask('customers.merge', { into: into.id, from }).then((r) => {
            if (r === null) return;
            setTicked(new Set());
            notify('success', `Merged into ${r.customer.name}: ${n(r.keys)} keys moved.`);
            void useBook.getState().load();
          });
        }}
      />
    </section>
  );
}

async function exportBook(format: 'csv' | 'json', notify: (kind: 'success', text: string) => void): Promise<void> {
  const r = await ask('customers.export', { format });
  if (r?.path) notify('success', `Saved the customers to ${r.path}.`);
}
