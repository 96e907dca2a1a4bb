// Keys: generate, search (a page at a time), and act on one.
import type { OperationInput } from '../../../shared/contract.ts';
import type { Key } from '../../../shared/domain.ts';
import { batchValues } from '../../../shared/key-batch.ts';
import { fmt, NOUNS } from '../lib/format.ts';
import { IDLE, type RequestState } from './request.ts';
import type { ProfileData, StoreContext } from './context.ts';

/** Keys of each state per Lookup page. */
export const LOOKUP_PAGE = 50;

/** A key that changed on the service replaces its row wherever a search result shows it. */
function replaceKey<R extends { active: Key[]; generated: Key[] }>(result: R | null, key: Key): R | null {
  if (!result) return result;
  const swap = (list: Key[]) => list.map((k) => (k.value === key.value ? key : k));
  return { ...result, active: swap(result.active), generated: swap(result.generated) };
}


export interface KeysSlice {
  /** The values of the last single-request batch (keys.generate answers them as a KeyBatch). */
  lastGenerated: readonly string[];
  generateRequest: RequestState;
  generate: (input: OperationInput<'keys.generate'>) => Promise<boolean>;
  /** The person changed the form: the service's answer to the previous submission no longer applies. */
  clearGenerateError: () => void;
  exportGeneratedRequest: RequestState;
  exportGenerated: (format: 'csv' | 'json') => Promise<void>;
  lookupTerm: string;
  /**
   * One page of a search: active and generated keys from the same offset. Totals are null when the service
   * answers with its best match only (the real dialect), so the screen can say so rather than claim "all".
   */
  lookupResult: { active: Key[]; generated: Key[]; page?: number; totals?: { active: number | null; generated: number | null } } | null;
  lookupRequest: RequestState;
  /** Keys deleted from the key panel this session: a search left empty by a delete says so, not "no key matches". */
  deletedHere: readonly string[];
  runLookup: (term: string, page?: number) => Promise<void>;
  selectedKey: Key | null;
  selectKey: (key: Key | null) => void;
  /** The last extend, HWID reset or delete from the key's panel. */
  keyActionRequest: RequestState;
  /** Which of them it is, and on which key: while it waits, the panel's button for it says so ("Extending…"). */
  keyActionKind: { kind: 'extend' | 'reset' | 'delete'; keyValue: string } | null;
  extendKey: (keyValue: string, days: number) => Promise<boolean>;
  resetHwid: (keyValue: string) => Promise<boolean>;
  deleteKey: (key: Key) => Promise<boolean>;
}

export function createKeysSlice(ctx: StoreContext): Omit<KeysSlice, keyof ProfileData> {
  const { set, get, run, request, requestWith, toastOk, refreshAfterChange } = ctx;
  /** The key as the service described it after a change: the detail and any search row showing it follow. */
  const described = (d: { key: Key | null }) => (d.key ? { selectedKey: d.key, lookupResult: replaceKey(get().lookupResult, d.key) } : {});
  /**
   * The panel's change to one key, then a toast; when the service did not describe the key, the search is asked
   * again so no row keeps the old state.
   */
  const change = async (keyValue: string, sent: Promise<{ data: { key: Key | null } } | null>, said: (described: boolean) => string) => {
    const r = await sent;
    if (!r) return false;
    toastOk(said(r.data.key !== null));
    if (!r.data.key) await refreshAfterChange(keyValue);
    return true;
  };
  /** What the toast adds when the service changed a key without describing it. */
  const undescribed = (what: string) => `The service did not describe the key: ${get().lookupTerm ? 'the search is read again.' : `look it up to see ${what}.`}`;
  return {
    deletedHere: [],
    generate: async (input) => {
      // A batch shown under a new attempt would read as its result: it goes (the ledger keeps every key).
      const r = await request('keys.generate', input, 'generateRequest', (d) => ({ lastGenerated: batchValues(d.generated) }), {
        before: { lastGenerated: [] },
      });
      if (!r) return false;
      toastOk(`Generated ${fmt.count(r.data.generated.count, NOUNS.key)}.`);
      return true;
    },
    clearGenerateError: () => {
      if (get().generateRequest.error) set({ generateRequest: IDLE });
    },
    exportGenerated: async (format) => {
      const keyValues = [...get().lastGenerated];
      if (keyValues.length === 0) return;
      const r = await request('keys.export', { keyValues, format }, 'exportGeneratedRequest', () => ({}), { toast: true });
      if (r?.data.path) toastOk(`Saved ${fmt.count(keyValues.length, NOUNS.key)} to ${r.data.path}.`);
    },
    runLookup: async (term, page = 0) => {
      const paging = { term, limit: LOOKUP_PAGE, offset: page * LOOKUP_PAGE };
      await requestWith(
        async () => {
          const [active, generated] = await Promise.all([run('keys.fetchActive', paging), run('keys.fetchGenerated', paging)]);
          if (!active || !generated) return null; // another profile is active now
          if ('failure' in active) return active;
          if ('failure' in generated) return generated;
          return { data: { active: active.data, generated: generated.data } };
        },
        'lookupRequest',
        ({ active, generated }) => ({
          lookupResult: { active: active.keys, generated: generated.keys, page, totals: { active: active.total, generated: generated.total } },
        }),
        // A newer search makes this one's answer moot; a failed one shows no rows of another search.
        { before: { lookupTerm: term }, onFailure: { lookupResult: null }, latest: true },
      );
    },
    selectKey: (key) => {
      set({ selectedKey: key, keyActionRequest: IDLE });
    },
    extendKey: (keyValue, days) =>
      change(keyValue, request('keys.extend', { keyValue, days }, 'keyActionRequest', described, { before: { keyActionKind: { kind: 'extend', keyValue } } }), (told) => `Extended by ${fmt.count(days, NOUNS.day)}.${told ? '' : ` ${undescribed('the new expiry')}`}`),
    resetHwid: (keyValue) =>
      change(keyValue, request('keys.resetHwid', { keyValue }, 'keyActionRequest', described, { before: { keyActionKind: { kind: 'reset', keyValue } } }), (told) => `HWID reset.${told ? '' : ` ${undescribed('it')}`}`),
    deleteKey: async (key) => {
      const drop = (list: Key[]) => list.filter((k) => k.value !== key.value);
      const r = await request('keys.delete', { keyValue: key.value, state: key.status }, 'keyActionRequest', () => {
        const shown = get().lookupResult;
        if (!shown) return { selectedKey: null, lookupResult: null };
        // The count goes down with the row: "Showing 2 of 3 matches" after a delete would count a key that is gone.
        const less = (list: Key[], total: number | null | undefined) =>
          total === null || total === undefined || !list.some((k) => k.value === key.value) ? total : Math.max(0, total - 1);
        const totals = shown.totals && { active: less(shown.active, shown.totals.active) ?? null, generated: less(shown.generated, shown.totals.generated) ?? null };
        return { selectedKey: null, lookupResult: { ...shown, active: drop(shown.active), generated: drop(shown.generated), ...(totals ? { totals } : {}) } };
      }, { before: { keyActionKind: { kind: 'delete', keyValue: key.value } } });
      if (!r) return false;
      set((st) => ({ deletedHere: [...st.deletedHere, key.value] }));
      toastOk('Key deleted.');
      return true;
    },
  };
}
