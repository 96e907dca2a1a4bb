// Links proposed from key notes, for the user to review: each person found, the keys their notes name, and whether
// they join a customer of the book or make a new one. Nothing is linked until the user accepts.
import { useState } from 'react';
import type { NoteLinkProposal } from '../../../../shared/customers.ts';
import { useKeydesk } from '../../store/index.ts';
import { ask, useBook } from './book.ts';

const n = (x: number) => x.toLocaleString('en-US');
/** Proposals listed at once; the rest are accepted with them, and counted. */
const SHOWN = 200;

const who = (p: NoteLinkProposal): string => ('fields' in p.customer ? `${p.customer.fields.name} (new customer)` : p.customer.name);

export function LinkReview({ proposals, keys }: { proposals: NoteLinkProposal[]; keys: number }) {
  const [skipped, setSkipped] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const chosen = proposals.filter((p) => !skipped.has(p.contact));
  const chosenKeys = chosen.reduce((s, p) => s + p.keyValues.length, 0);
  const close = () => useBook.setState({ proposals: null });
  if (proposals.length === 0)
    return (
      <section className="card" aria-label="Links found in notes">
        <p role="status">No key held by no customer has a note naming someone (a Discord ID or an email address).</p>
        <button type="button" onClick={close}>
          Close
        </button>
      </section>
    );
  return (
    <section className="card" aria-label="Links found in notes">
      <h2>Links found in notes</h2>
      <p role="status">
        {n(keys)} {keys === 1 ? 'key names' : 'keys name'} {n(proposals.length)} {proposals.length === 1 ? 'person' : 'people'} in their
        notes. Untick any that is wrong, then link.
      </p>
      <ul className="link-review">
        {proposals.slice(0, SHOWN).map((p) => (
          <li key={p.contact}>
            <label>
              <input
                type="checkbox"
                checked={!skipped.has(p.contact)}
                onChange={(e) => {
                  const next = new Set(skipped);
                  if (e.target.checked) next.delete(p.contact);
                  else next.add(p.contact);
                  setSkipped(next);
                }}
              />{' '}
              <strong>{who(p)}</strong>: {n(p.keyValues.length)} {p.keyValues.length === 1 ? 'key' : 'keys'}, from notes like{' '}
              <q className="mono">{p.note}</q>
            </label>
          </li>
        ))}
      </ul>
      {proposals.length > SHOWN && <p className="muted">{n(proposals.length - SHOWN)} more are linked with these unless unticked here.</p>}
      <div className="actions">
        <button
          type="button"
          className="primary"
          disabled={busy || chosen.length === 0}
          onClick={() => {
            setBusy(true);
            void ask('customers.link', { links: chosen.map((p) => ({ customer: p.customer, keyValues: p.keyValues })) })
              .then((r) => {
                if (r === null) return;
                useKeydesk.getState().notify('success', `Linked ${n(r.keys)} keys; ${n(r.created)} new customers.`);
                close();
                void useBook.getState().load();
              })
              .finally(() => setBusy(false));
          }}
        >
          Link {n(chosenKeys)} {chosenKeys === 1 ? 'key' : 'keys'}
        </button>
        <button type="button" onClick={close}>
          Cancel
        </button>
      </div>
    </section>
  );
}
