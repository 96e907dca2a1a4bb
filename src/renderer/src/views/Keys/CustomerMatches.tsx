// Keys' search in the book: the customers a term names (name, email, Discord ID), each opening their page, and
// their keys in All keys.
import { useEffect, useState } from 'react';
import type { CustomerSummary } from '../../../../shared/customers.ts';
import { call } from '../../lib/api.ts';
import { useKeydesk } from '../../store/index.ts';
import { keyCountWords, useBook } from '../Customers/book.ts';

/** Customers listed at most; the rest are in the Customers view. */
const SHOWN = 5;

export function CustomerMatches({ term }: { term: string }) {
  const [found, setFound] = useState<{ term: string; customers: CustomerSummary[]; total: number } | null>(null);
  useEffect(() => {
    let live = true;
    if (term.trim() === '') return;
    void call('customers.list', { search: term, limit: SHOWN }).then((r) => {
      if (live && r.ok) setFound({ term, customers: r.data.customers, total: r.data.total });
    });
    return () => {
      live = false;
    };
  }, [term]);
  if (found?.term !== term || found.total === 0) return null;
  const openKeys = () => {
    useKeydesk.getState().setLedgerFilter({ customer: term });
    useKeydesk.getState().setView('ledger');
  };
  return (
    <section className="lookup-customers" aria-label="Customers matching">
      <h3>Customers matching “{term}”</h3>
      <ul>
        {found.customers.map((c) => (
          <li key={c.id}>
            <button
              type="button"
              className="link"
              onClick={() => {
                useBook.getState().open(c.id);
                useKeydesk.getState().setView('customers');
              }}
            >
              {c.name}
            </button>{' '}
            <span className="muted">{keyCountWords(c.keys)}</span>
          </li>
        ))}
      </ul>
      <button type="button" onClick={openKeys}>
        Their keys in All keys
      </button>
    </section>
  );
}
