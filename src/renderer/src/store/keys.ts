// Keys: generate, search (a page at a time), and act on one.
import type { Key } from '../../../shared/domain.ts';
import { batchValues } from '../../../shared/key-batch.ts';
import { fmt, NOUNS } from '../lib/format.ts';
import { DEFAULT_LEDGER_SORT } from './ledger.ts';
import { IDLE, moment, type Moment } from './request.ts';
import type { Answer, BulkAction, BulkFilter, BulkOverFilter, KeyChange, KeysSlice, StoreContext } from './types.ts';

/** Keys of each state per Lookup page. */
export const LOOKUP_PAGE = 50;
/** Keys from Keydesk's records a search lists under the service's answer; All keys has them all. */
export const LOOKUP_LEDGER_ROWS = 20;

/** The change to `value` made after `read` (an answer read before it), or null when the read is the newer. */
export function changedSince(
  changes: Readonly<Record<string, KeyChange>>,
  value: string,
  read: Moment | null | undefined,
): KeyChange | null {
  const change = changes[value];
  return change && change.seq > (read?.seq ?? 0) ? change : null;
}

/**
 * Whether a key shown may be among a filter's matches: only premium (set at generation, reported by both dialects)
 * rules it out; the ledger's status, HWID and text may be older than the answer shown.
 */
function mayMatch(filter: BulkFilter, key: Pick<Key, 'isPremium'> | null): boolean {
  if (filter === null || key === null) return true;
  return filter.premium === undefined || filter.premium === key.isPremium;
}

/**
 * Why an answer about `key` read at `read` may be earlier: a later change to it, else the newest bulk job over a
 * filter that may include it. `key` null: only its value is known, so any such job may.
 */
export function earlierBecause(
  s: Pick<KeysSlice, 'keyChanges' | 'bulkOverFilter'>,
  value: string,
  key: Pick<Key, 'isPremium'> | null,
  read: Moment | null | undefined,
): KeyChange | null {
  const certain = changedSince(s.keyChanges, value, read);
  if (certain) return certain;
  const after = s.bulkOverFilter.filter((b) => b.seq > (read?.seq ?? 0) && mayMatch(b.filter, key));
  // The entry itself (not a copy): a component's selector gets the same object until something changes.
  return after.at(-1) ?? null;
}

/** How many of a job's unknown keys a check reads (one page of them; the job's export has them all). */
export const UNKNOWN_CHECK_MAX = 20;

type LookupResult = NonNullable<KeysSlice['lookupResult']>;
/** A key that changed on the service replaces its row wherever a search result shows it, read at `read`. */
function replaceKey(result: LookupResult | null, key: Key, read: Moment): LookupResult | null {
  if (!result) return result;
  const shown = [...result.active, ...result.generated].some((k) => k.value === key.value);
  if (!shown) return result;
  const swap = (list: Key[]) => list.map((k) => (k.value === key.value ? key : k));
  return { ...result, active: swap(result.active), generated: swap(result.generated), rowRead: { ...result.rowRead, [key.value]: read } };
}

const BULK_WORD: Record<BulkAction, string> = { extend: 'extend', resetHwid: 'HWID reset', delete: 'delete', edit: 'edit' };

/** What a profile starts with: no batch, search, open key or change noted. */
export const KEYS_INITIAL = {
  lastGenerated: [],
  generateRequest: IDLE,
  exportGeneratedRequest: IDLE,
  lookupTerm: '',
  lookupResult: null,
  lookupRequest: IDLE,
  lookupLedger: null,
  lookupLedgerRequest: IDLE,
  selectedKey: null,
  selectedRead: null,
  keyReadRequest: IDLE,
  keyChanges: {},
  bulkOverFilter: [],
  keyActionRequest: IDLE,
  keyActionKind: null,
  keyAsk: null,
} satisfies Partial<KeysSlice>;

export function createKeysSlice(ctx: StoreContext): KeysSlice {
  const { set, get, run, request, requestWith, toastOk, refreshAfterChange } = ctx;
  /** Notes a change to a key at `m`: answers about it read before then are earlier answers. */
  const noteChange = (keyValue: string, what: string, m: Moment = moment()) => ({
    keyChanges: { ...get().keyChanges, [keyValue]: { ...m, what } },
  });
  /** The key as the service described it after a change: the detail and its search rows follow, read then. */
  const described = (keyValue: string, what: string) => (d: { key: Key | null }) => {
    if (!d.key) return {};
    const m = moment();
    return {
      selectedKey: d.key,
      selectedRead: m,
      lookupResult: replaceKey(get().lookupResult, d.key, m),
      ...noteChange(keyValue, what, m),
    };
  };
  /** The panel's change to one key, then a toast; undescribed by the service, it is noted and the search asked again. */
  const change = async (
    keyValue: string,
    what: string,
    sent: Promise<{ data: { key: Key | null } } | null>,
    said: (described: boolean) => string,
  ) => {
    const r = await sent;
    if (!r) return false;
    toastOk(said(r.data.key !== null));
    if (!r.data.key) {
      set(noteChange(keyValue, what));
      await refreshAfterChange(keyValue);
    }
    return true;
  };
  /** One key as the service has it now (null: not found), active keys read first; null on a profile switch. */
  const readKey = async (value: string): Promise<Answer<Key | null> | null> => {
    // A page, not one: the search also matches notes and HWIDs, and the exact value is looked for in it.
    const paging = { term: value, limit: LOOKUP_PAGE, offset: 0 };
    const active = await run('keys.fetchActive', paging);
    if (!active || 'failure' in active) return active;
    const generated = await run('keys.fetchGenerated', paging);
    if (!generated || 'failure' in generated) return generated;
    return { data: [...active.data.keys, ...generated.data.keys].find((k) => k.value === value) ?? null };
  };
  /** What the toast adds when the service changed a key without describing it. */
  const undescribed = (what: string) =>
    `The service did not describe the key: ${get().lookupTerm ? 'the search is read again.' : `look it up to see ${what}.`}`;
  return {
    ...KEYS_INITIAL,
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
      const r = await requestWith(
        async () => {
          const [active, generated] = await Promise.all([run('keys.fetchActive', paging), run('keys.fetchGenerated', paging)]);
          if (!active || !generated) return null; // another profile is active now
          if ('failure' in active) return active;
          if ('failure' in generated) return generated;
          return { data: { active: active.data, generated: generated.data } };
        },
        'lookupRequest',
        ({ active, generated }) => {
          const read = moment();
          // The open panel's key in this answer is the newer state of it: the panel shows that, not what it had.
          const selected = get().selectedKey;
          const fresh = selected && [...active.keys, ...generated.keys].find((k) => k.value === selected.value);
          return {
            lookupResult: {
              active: active.keys,
              generated: generated.keys,
              page,
              totals: { active: active.total, generated: generated.total },
              read,
              rowRead: {},
            },
            ...(fresh ? { selectedKey: fresh, selectedRead: read } : {}),
          };
        },
        // A newer search makes this one's answer moot; a failed one shows no rows of another search.
        { before: { lookupTerm: term, lookupLedger: null, lookupLedgerRequest: IDLE }, onFailure: { lookupResult: null }, latest: true },
      );
      // A newer search, or another profile, has the screen now.
      if (get().lookupTerm !== term || get().lookupRequest.status === 'loading') return;
      const shown = r ? [...r.data.active.keys, ...r.data.generated.keys] : [];
      if (shown.some((k) => k.value === term || k.hwid === term)) return;
      // Part of a key (or one the service did not find): Keydesk's own records are searched as All keys filters them.
      await request(
        'ledger.query',
        { filter: { text: term }, sort: DEFAULT_LEDGER_SORT, offset: 0, limit: LOOKUP_LEDGER_ROWS },
        'lookupLedgerRequest',
        // A later search that needed no records search sent none: this answer is another term's, and goes.
        (d) => (get().lookupTerm === term ? { lookupLedger: { rows: d.rows, total: d.total, capped: d.totalCapped, read: moment() } } : {}),
        { latest: true },
      );
    },
    openKey: async (value, ask) => {
      const { setDraft, setView, runLookup, selectKey } = get();
      // The panel of a key opened before would sit beside this search's answer, as if it were this key.
      selectKey(null);
      setDraft('lookup.term', value);
      setView('keys');
      await runLookup(value);
      const found = get().lookupResult;
      const key = found && [...found.active, ...found.generated].find((k) => k.value === value);
      if (key) get().selectKey(key, ask);
    },
    openInAllKeys: (term) => {
      get().setLedgerFilter({ text: term });
      get().setView('ledger');
    },
    refreshKey: async (keyValue) => {
      await requestWith(
        () => readKey(keyValue),
        'keyReadRequest',
        (key) => {
          const read = moment();
          if (!key) return noteChange(keyValue, 'was not found on the service', read);
          const open = get().selectedKey?.value === keyValue;
          return { ...(open ? { selectedKey: key, selectedRead: read } : {}), lookupResult: replaceKey(get().lookupResult, key, read) };
        },
        { latest: true },
      );
    },
    selectKey: (key, ask) => {
      // The panel shows the key as its search row was read; a key from elsewhere, as it was handed over now.
      const result = get().lookupResult;
      const read = key && (result?.rowRead?.[key.value] ?? result?.read ?? moment());
      set({ selectedKey: key, selectedRead: read, keyActionRequest: IDLE, keyReadRequest: IDLE, keyAsk: key ? (ask ?? null) : null });
    },
    extendKey: (keyValue, days) => {
      const what = 'was extended in Keys';
      return change(
        keyValue,
        what,
        request('keys.extend', { keyValue, days }, 'keyActionRequest', described(keyValue, what), {
          before: { keyActionKind: { kind: 'extend', keyValue } },
        }),
        (told) => `Extended by ${fmt.count(days, NOUNS.day)}.${told ? '' : ` ${undescribed('the new expiry')}`}`,
      );
    },
    resetHwid: (keyValue) => {
      const what = 'had its HWID reset in Keys';
      return change(
        keyValue,
        what,
        request('keys.resetHwid', { keyValue }, 'keyActionRequest', described(keyValue, what), {
          before: { keyActionKind: { kind: 'reset', keyValue } },
        }),
        (told) => `HWID reset.${told ? '' : ` ${undescribed('it')}`}`,
      );
    },
    noteKeysInBulk: (values, action) => {
      // Only keys an answer on screen is about: a job of 100,000 keys leaves no trace for the others.
      const { lookupResult, selectedKey, validationRead } = get();
      const shown = [
        ...(lookupResult ? [...lookupResult.active, ...lookupResult.generated] : []),
        ...(selectedKey ? [selectedKey] : []),
      ].map((k) => k.value);
      if (validationRead?.keyValue) shown.push(validationRead.keyValue);
      const hit = shown.filter((v) => values.has(v));
      if (hit.length === 0) return;
      const change = { ...moment(), what: `was in a bulk ${BULK_WORD[action]} in All keys` };
      set({ keyChanges: { ...get().keyChanges, ...Object.fromEntries(hit.map((v) => [v, change])) } });
    },
    noteFilterInBulk: (filter, action) => {
      // Every answer shown is read before this moment, so one mark serves them all; an earlier job this one covers is
      // left out (at most one per premium constraint stays).
      const premium = filter?.premium;
      const covered = (b: BulkOverFilter) => premium === undefined || b.filter?.premium === premium;
      const kept = get().bulkOverFilter.filter((b) => !covered(b));
      // A maybe names the act only ("a bulk extend in All keys ran"): whether it touched a key is not known.
      const what = `bulk ${BULK_WORD[action]} in All keys`;
      set({ bulkOverFilter: [...kept, { ...moment(), what, maybe: true, filter }] });
    },
    checkUnknownKeys: async (jobId) => {
      const items = await run('jobs.items', { jobId, state: 'unknown', offset: 0, limit: UNKNOWN_CHECK_MAX });
      if (!items) return null;
      if ('failure' in items) return items;
      const keys: { value: string; key: Key | null }[] = [];
      // One key at a time: a check of 20 keys is 40 small reads, and a bulk job's pace is not this view's to take.
      for (const { target: value } of items.data.items) {
        const found = await readKey(value);
        if (!found || 'failure' in found) return found;
        keys.push({ value, key: found.data });
      }
      const read = moment();
      const open = get().selectedKey;
      const fresh = open && keys.find((k) => k.value === open.value)?.key;
      let lookupResult = get().lookupResult;
      for (const { key } of keys) if (key) lookupResult = replaceKey(lookupResult, key, read);
      set({ lookupResult, ...(fresh ? { selectedKey: fresh, selectedRead: read } : {}) });
      return { read, keys, total: items.data.total };
    },
    deleteKey: async (key) => {
      const drop = (list: Key[]) => list.filter((k) => k.value !== key.value);
      const r = await request(
        'keys.delete',
        { keyValue: key.value, state: key.status },
        'keyActionRequest',
        () => {
          const shown = get().lookupResult;
          if (!shown) return { selectedKey: null, lookupResult: null };
          // The count goes down with the row: "Showing 2 of 3 matches" after a delete would count a key that is gone.
          const less = (list: Key[], total: number | null | undefined) =>
            total === null || total === undefined || !list.some((k) => k.value === key.value) ? total : Math.max(0, total - 1);
          const totals = shown.totals && {
            active: less(shown.active, shown.totals.active) ?? null,
            generated: less(shown.generated, shown.totals.generated) ?? null,
          };
          return {
            selectedKey: null,
            lookupResult: { ...shown, active: drop(shown.active), generated: drop(shown.generated), ...(totals ? { totals } : {}) },
          };
        },
        { before: { keyActionKind: { kind: 'delete', keyValue: key.value } } },
      );
      if (!r) return false;
      set((st) => ({ deletedHere: [...st.deletedHere, key.value], ...noteChange(key.value, 'was deleted in Keys') }));
      toastOk('Key deleted.');
      return true;
    },
  };
}
