// The palette's customers: those the words typed name (name, email, Discord ID…), each opening their page.
import { useEffect, useState } from 'react';
import { call } from '../lib/api.ts';
import { useKeydesk } from '../store/index.ts';
import { useBook } from '../views/Customers/book.ts';
import type { Command } from './commands.ts';

/** Customers the palette lists at most. */
const SHOWN = 5;

export function useCustomerCommands(query: string): Command[] {
  const [found, setFound] = useState<{ query: string; commands: Command[] }>({ query: '', commands: [] });
  const term = query.trim();
  useEffect(() => {
    if (term.length < 2) return;
    let live = true;
    // Typed ahead of the answer: a later keystroke's answer replaces this one, never the other way round.
    const timer = setTimeout(() => {
      void call('customers.list', { search: term, limit: SHOWN }).then((r) => {
        if (!live || !r.ok) return;
        const commands = r.data.customers.map((c): Command => ({
          id: `customer:${c.id}`,
          label: `Open customer ${c.name}`,
          group: 'Actions',
          keywords: [c.email, c.discordId, c.reference].join(' '),
          run: () => {
            useKeydesk.getState().setPaletteOpen(false);
            useBook.getState().open(c.id);
            useKeydesk.getState().setView('customers');
          },
        }));
        setFound({ query: term, commands });
      });
    }, 120);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [term]);
  return found.query === term && term.length >= 2 ? found.commands : [];
}
