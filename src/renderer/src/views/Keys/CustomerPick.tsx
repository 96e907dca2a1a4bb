// Generate's customer: one picked from the book (found by name, email or Discord ID) or a new one, whose note the
// profile's template fills (editable before sending); the keys made are linked to them.
import { useEffect, useState } from 'react';
import type { CustomerFields, CustomerRef } from '../../../../shared/customers.ts';
import { fillNote } from '../../../../shared/customers.ts';
import { call } from '../../lib/api.ts';

const NONE: CustomerFields = { name: '', email: '', discordId: '', reference: '', tags: [], note: '' };

export interface PickedCustomer {
  ref: CustomerRef;
  name: string;
}

export function CustomerPick({
  picked,
  onPick,
}: {
  picked: PickedCustomer | null;
  onPick: (p: PickedCustomer | null, note: string) => void;
}) {
  const [search, setSearch] = useState('');
  const [found, setFound] = useState<{ id: number; fields: CustomerFields }[]>([]);
  const [template, setTemplate] = useState('');
  const [adding, setAdding] = useState(false);
  const [fresh, setFresh] = useState(NONE);
  useEffect(() => {
    let live = true;
    void call('customers.list', { search, limit: 20 }).then((r) => {
      if (!live || !r.ok) return;
      setTemplate(r.data.noteTemplate);
      setFound(
        r.data.customers.map(({ id, name, email, discordId, reference, tags, note }) => ({
          id,
          fields: { name, email, discordId, reference, tags, note },
        })),
      );
    });
    return () => {
      live = false;
    };
  }, [search]);
  if (picked)
    return (
      <p className="field" aria-label="Customer">
        For <strong>{picked.name}</strong>
        {'fields' in picked.ref ? ' (new customer)' : ''}: the keys made are linked to them.{' '}
        <button type="button" className="link" onClick={() => onPick(null, '')}>
          No customer
        </button>
      </p>
    );
  return (
    <fieldset className="customer-pick">
      <legend>Customer (optional)</legend>
      {!adding && (
        <>
          <input
            type="search"
            aria-label="Find a customer"
            placeholder="Name, email or Discord ID"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          <select
            aria-label="Customer"
            value=""
            onChange={(e) => {
              const c = found.find((x) => String(x.id) === e.target.value);
              if (c) onPick({ ref: { id: c.id }, name: c.fields.name }, fillNote(template, c.fields));
            }}
          >
            <option value="">{found.length === 0 ? 'No customer found' : 'Choose…'}</option>
            {found.map((c) => (
              <option key={c.id} value={c.id}>
                {c.fields.name}
                {c.fields.discordId ? ` (${c.fields.discordId})` : c.fields.email ? ` (${c.fields.email})` : ''}
              </option>
            ))}
          </select>
          <button type="button" onClick={() => setAdding(true)}>
            New customer
          </button>
        </>
      )}
      {adding && (
        <>
          <input
            aria-label="New customer’s name"
            placeholder="Name"
            value={fresh.name}
            onChange={(e) => setFresh({ ...fresh, name: e.target.value })}
          />
          <input
            aria-label="New customer’s Discord ID"
            placeholder="Discord ID"
            inputMode="numeric"
            value={fresh.discordId}
            onChange={(e) => setFresh({ ...fresh, discordId: e.target.value.trim() })}
          />
          <input
            aria-label="New customer’s email"
            placeholder="Email"
            value={fresh.email}
            onChange={(e) => setFresh({ ...fresh, email: e.target.value.trim() })}
          />
          <button
            type="button"
            disabled={fresh.name.trim() === '' || !/^(\d{17,20})?$/.test(fresh.discordId)}
            onClick={() => {
              const fields = { ...fresh, name: fresh.name.trim() };
              setAdding(false);
              onPick({ ref: { fields }, name: fields.name }, fillNote(template, fields));
            }}
          >
            Use
          </button>
          <button type="button" onClick={() => setAdding(false)}>
            Cancel
          </button>
        </>
      )}
    </fieldset>
  );
}
