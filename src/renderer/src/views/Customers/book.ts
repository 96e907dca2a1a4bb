// The Customers view's own state: the list as last read, the customer open, and calls to main for the book.
// Kept apart from the main store: nothing else reads it, and a profile switch clears it (useBookFollowsProfile).
import { useEffect } from 'react';
import { create } from 'zustand';
import type { CustomerFields, CustomerSummary, NoteLinkProposal } from '../../../../shared/customers.ts';
import type { OperationInput, OperationName, OperationOutput } from '../../../../shared/contract.ts';
import { call } from '../../lib/api.ts';
import { useKeydesk } from '../../store/index.ts';

export const EMPTY_FIELDS: CustomerFields = { name: '', email: '', discordId: '', reference: '', tags: [], note: '' };

interface Book {
  /** The service whose book this is. */
  profileId: string | null;
  search: string;
  customers: CustomerSummary[];
  total: number;
  loading: boolean;
  noteTemplate: string;
  templateIsDefault: boolean;
  /** The customer whose page is open; null: the list. */
  openId: number | null;
  /** Links proposed from notes, while the user reviews them; null when not reviewing. */
  proposals: { list: NoteLinkProposal[]; keys: number } | null;
  setSearch: (search: string) => void;
  load: () => Promise<void>;
  open: (id: number | null) => void;
  reset: () => void;
}

export const useBook = create<Book>()((set, get) => ({
  profileId: null,
  search: '',
  customers: [],
  total: 0,
  loading: false,
  noteTemplate: '',
  templateIsDefault: true,
  openId: null,
  proposals: null,
  setSearch: (search) => {
    set({ search });
    void get().load();
  },
  load: async () => {
    const search = get().search;
    set({ loading: true });
    const r = await call('customers.list', { search, limit: 500 });
    // An answer to a search typed over since is not this search's.
    if (get().search !== search) return;
    set({ loading: false });
    if (!r.ok) {
      useKeydesk.getState().notifyFailure('customers.list', r);
      return;
    }
    set({ customers: r.data.customers, total: r.data.total, noteTemplate: r.data.noteTemplate, templateIsDefault: r.data.isDefault });
  },
  open: (openId) => set({ openId, profileId: useKeydesk.getState().activeProfileId }),
  reset: () => set({ search: '', customers: [], total: 0, openId: null, proposals: null }),
}));

/** Calls main; a refusal is said in a toast, named by the operation's words. Returns the data, or null. */
export async function ask<N extends OperationName>(name: N, input: OperationInput<N>): Promise<OperationOutput<N> | null> {
  const r = await call(name, input);
  if (r.ok) return r.data;
  useKeydesk.getState().notifyFailure(name, r);
  return null;
}

/** The book belongs to the active service: another one selected, what was shown goes and its own is read. */
export function useBookFollowsProfile(): void {
  const profileId = useKeydesk((s) => s.activeProfileId);
  useEffect(() => {
    // The customer opened from elsewhere (the palette, Keys) stays open; another service's does not.
    if (useBook.getState().profileId !== profileId) useBook.getState().reset();
    useBook.setState({ profileId });
    if (profileId !== null) void useBook.getState().load();
  }, [profileId]);
}

const n = (x: number) => x.toLocaleString('en-US');
/** "3 keys: 2 active, 1 generated", for a customer's counts. */
export function keyCountWords(keys: CustomerSummary['keys']): string {
  const total = keys.generated + keys.active + keys.deleted + keys.unrecorded;
  if (total === 0) return 'No keys';
  const parts = (['active', 'generated', 'deleted', 'unrecorded'] as const)
    .filter((s) => keys[s] > 0)
    .map((s) => `${n(keys[s])} ${s === 'unrecorded' ? 'not in the ledger' : s}`);
  return `${n(total)} ${total === 1 ? 'key' : 'keys'}: ${parts.join(', ')}`;
}
