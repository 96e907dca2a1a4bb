// Keys: generate, search (a page at a time), and act on one.
import type { OperationInput } from '../../../shared/contract.ts';
import type { Key } from '../../../shared/domain.ts';
import type { Failure } from '../../../shared/result.ts';
import { fmt, NOUNS } from '../lib/format.ts';
import type { Status } from './index.ts';
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
  lastGenerated: Key[];
  generating: Status;
  generateError: Failure | null;
  generate: (input: OperationInput<'keys.generate'>) => Promise<boolean>;
  /** The person changed the form: the service's answer to the previous submission no longer applies. */
  clearGenerateError: () => void;
  exportGenerated: (format: 'csv' | 'json') => Promise<void>;
  lookupTerm: string;
  /**
   * One page of a search: active and generated keys from the same offset. Totals are null when the service
   * answers with its best match only (the real dialect), so the screen can say so rather than claim "all".
   */
  lookupResult: { active: Key[]; generated: Key[]; page?: number; totals?: { active: number | null; generated: number | null } } | null;
  lookup: Status;
  lookupError: Failure | null;
  runLookup: (term: string, page?: number) => Promise<void>;
  selectedKey: Key | null;
  selectKey: (key: Key | null) => void;
  keyAction: Status;
  keyActionError: Failure | null;
  extendKey: (keyValue: string, days: number) => Promise<boolean>;
  resetHwid: (keyValue: string) => Promise<boolean>;
  deleteKey: (key: Key) => Promise<boolean>;
}

export function createKeysSlice(ctx: StoreContext): Omit<KeysSlice, keyof ProfileData> {
  const { set, get, run, request, toastOk, refreshAfterChange } = ctx;
  return {
    generate: async (input) => {
      // A batch shown under a new attempt would read as its result: it goes (the ledger keeps every key).
      const data = await request('keys.generate', input, { status: 'generating', error: 'generateError' }, (d) => ({ lastGenerated: d.generatedKeys }), {
        before: { lastGenerated: [] },
      });
      if (!data) return false;
      toastOk(`Generated ${fmt.count(data.generatedKeys.length, NOUNS.key)}.`);
      return true;
    },
    clearGenerateError: () => {
      if (get().generateError) set({ generateError: null, generating: 'idle' });
    },
    exportGenerated: async (format) => {
      const keyValues = get().lastGenerated.map((k) => k.value);
      if (keyValues.length === 0) return;
      const r = await run('keys.export', { keyValues, format });
      if (!r) return;
      if ('failure' in r) get().notify('error', r.failure.message);
      else if (r.data.path) toastOk(`Saved ${fmt.count(keyValues.length, NOUNS.key)} to ${r.data.path}.`);
    },
    runLookup: async (term, page = 0) => {
      set({ lookupTerm: term, lookup: 'loading', lookupError: null });
      const paging = { term, limit: LOOKUP_PAGE, offset: page * LOOKUP_PAGE };
      const [active, generated] = await Promise.all([run('keys.fetchActive', paging), run('keys.fetchGenerated', paging)]);
      if (!active || !generated || get().lookupTerm !== term) return; // another profile, or a newer search has started
      if ('failure' in active || 'failure' in generated) {
        const f = 'failure' in active ? active.failure : (generated as { failure: Failure }).failure;
        set({ lookup: 'error', lookupError: f, lookupResult: null });
        return;
      }
      set({
        lookup: 'ready',
        lookupResult: { active: active.data.keys, generated: generated.data.keys, page, totals: { active: active.data.total, generated: generated.data.total } },
      });
    },
    selectKey: (key) => {
      set({ selectedKey: key, keyActionError: null, keyAction: 'idle' });
    },
    extendKey: async (keyValue, days) => {
      set({ keyAction: 'loading', keyActionError: null });
      const r = await run('keys.extend', { keyValue, days });
      if (!r) return false;
      if ('failure' in r) {
        set({ keyAction: 'error', keyActionError: r.failure });
        return false;
      }
      // The service extended the key: the detail and the search row show it; if the service did not describe it,
      // the search is asked again so no row keeps the old expiry.
      set((s) => ({ keyAction: 'ready', selectedKey: r.data.key ?? s.selectedKey, lookupResult: r.data.key ? replaceKey(s.lookupResult, r.data.key) : s.lookupResult }));
      toastOk(r.data.key ? `Extended by ${fmt.count(days, NOUNS.day)}.` : `Extended by ${fmt.count(days, NOUNS.day)}. The service did not describe the key: ${get().lookupTerm ? 'the search is read again.' : 'look it up to see the new expiry.'}`);
      if (!r.data.key) await refreshAfterChange(keyValue);
      return true;
    },
    resetHwid: async (keyValue) => {
      set({ keyAction: 'loading', keyActionError: null });
      const r = await run('keys.resetHwid', { keyValue });
      if (!r) return false;
      if ('failure' in r) {
        set({ keyAction: 'error', keyActionError: r.failure });
        return false;
      }
      set((s) => ({ keyAction: 'ready', selectedKey: r.data.key ?? s.selectedKey, lookupResult: r.data.key ? replaceKey(s.lookupResult, r.data.key) : s.lookupResult }));
      toastOk(r.data.key ? 'HWID reset.' : `HWID reset. The service did not describe the key: ${get().lookupTerm ? 'the search is read again.' : 'look it up to see it.'}`);
      if (!r.data.key) await refreshAfterChange(keyValue);
      return true;
    },
    deleteKey: async (key) => {
      set({ keyAction: 'loading', keyActionError: null });
      const r = await run('keys.delete', { keyValue: key.value, state: key.status });
      if (!r) return false;
      if ('failure' in r) {
        set({ keyAction: 'error', keyActionError: r.failure });
        return false;
      }
      const drop = (list: Key[]) => list.filter((k) => k.value !== key.value);
      set((s) => ({
        keyAction: 'ready',
        selectedKey: null,
        lookupResult: s.lookupResult && { ...s.lookupResult, active: drop(s.lookupResult.active), generated: drop(s.lookupResult.generated) },
      }));
      toastOk('Key deleted.');
      return true;
    },
  };
}
