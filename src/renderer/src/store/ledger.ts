// The ledger slice: the All keys table's pages, filter, sort and selection. Pages are fetched on demand and
// cached until the filter or sort changes, so 100,000 rows never sit in memory at once.
import type { LedgerRow, LedgerSortField } from '../../../shared/domain.ts';
import { call, subscribe } from '../lib/api.ts';
import { fmt, NOUNS } from '../lib/format.ts';
import { IDLE } from './request.ts';
import type { LedgerFilter, LedgerSlice, StoreContext } from './types.ts';

export const LEDGER_PAGE = 200;
/** All keys' order until the person picks another, for a profile with no kept place. */
export const DEFAULT_LEDGER_SORT: LedgerSlice['ledgerSort'] = { field: 'createdAt', dir: 'desc' };

/** A row's place in the current sort, for seeking the page next to it. */
const cursorOf = (row: LedgerRow, field: LedgerSortField) => ({ key: row[field], value: row.value });

export function createLedgerSlice(ctx: StoreContext): LedgerSlice {
  const { set, get, request } = ctx;
  const inFlight = new Set<string>();
  let unsubscribe: (() => void) | null = null;
  /** Main's ledger writer changed for a profile: the active one's count is shown, and its end refreshes the table. */
  const onLedgerChanged = (e: { profileId: string; recording: number; failure: string | null; busy?: boolean }) => {
    const { activeProfileId, ledgerRecording, ledgerRecordingFailed } = get();
    if (e.profileId !== activeProfileId) return;
    set({ ledgerRecording: e.recording, ledgerRecordingFailed: e.failure, ledgerRecordingBusy: e.busy === true });
    if (e.failure !== null && e.failure !== ledgerRecordingFailed) get().notify('error', e.failure);
    if (ledgerRecording > 0 && e.recording === 0) reset({});
  };
  /** The filter as main gets it: a term's surrounding spaces (a pasted key) are dropped; the box keeps what was typed. */
  const sent = (f: LedgerFilter): LedgerFilter => (f.text === undefined ? f : { ...f, text: f.text.trim() });
  /** Starts a new generation of pages; the rows shown so far stay as stale unless the patch says otherwise. */
  const reset = (patch: Pick<Partial<LedgerSlice>, 'ledgerFilter' | 'ledgerSort' | 'selection' | 'ledgerStale'>) => {
    inFlight.clear();
    set((s) => ({
      ledgerStale:
        s.ledgerTotal === null
          ? s.ledgerStale
          : { total: s.ledgerTotal, pages: s.ledgerPages, filter: s.ledgerFilter, sort: s.ledgerSort, at: s.ledgerReadAt },
      ledgerReadAt: null,
      ledgerTotal: null,
      ledgerTotalCapped: false,
      ledgerTargets: null,
      ledgerCounting: false,
      ledgerPages: new Map(),
      ledgerGeneration: s.ledgerGeneration + 1,
      ledgerError: null,
      ...patch,
    }));
  };
  return {
    ledgerFilter: {},
    ledgerSort: DEFAULT_LEDGER_SORT,
    ledgerTotal: null,
    ledgerTotalCapped: false,
    ledgerTargets: null,
    ledgerCounting: false,
    ledgerPages: new Map(),
    ledgerStale: null,
    ledgerReadAt: null,
    ledgerGeneration: 0,
    ledgerError: null,
    ledgerRecording: 0,
    ledgerRecordingFailed: null,
    ledgerRecordingBusy: false,
    selection: new Set(),
    selectedAll: null,
    cutShort: [],
    cutShortRequest: IDLE,
    setLedgerFilter: (ledgerFilter) => {
      // "All matching" meant the old filter; it does not carry over to a new one.
      set({ selectedAll: null });
      reset({ ledgerFilter });
    },
    clearLedger: () => {
      // Another profile: what was selected is not this one's. The filter and sort are that profile's own: activate()
      // sets them (the defaults, or its kept place through lib/place.ts) with the profile itself, so they stay.
      set({ selectedAll: null, ledgerRecording: 0, ledgerRecordingFailed: null, cutShort: [], cutShortRequest: IDLE });
      reset({ selection: new Set(), ledgerStale: null });
    },
    setLedgerSort: (field) => {
      const { ledgerSort } = get();
      reset({ ledgerSort: { field, dir: ledgerSort.field === field && ledgerSort.dir === 'asc' ? 'desc' : 'asc' } });
    },
    loadLedgerPage: async (page) => {
      const { ledgerFilter, ledgerSort, ledgerGeneration, ledgerPages } = get();
      const key = `${ledgerGeneration}:${page}`;
      if (ledgerPages.has(page) || inFlight.has(key)) return;
      inFlight.add(key);
      // Next to a page already loaded, seek from its edge row (cheap at any depth); a jump asks by offset.
      const prev = ledgerPages.get(page - 1);
      const next = ledgerPages.get(page + 1);
      const edge = prev?.length === LEDGER_PAGE ? prev.at(-1) : next?.[0];
      const cursor =
        edge && (edge === prev?.at(-1) ? { after: cursorOf(edge, ledgerSort.field) } : { before: cursorOf(edge, ledgerSort.field) });
      // A jump into the far half of an exact count reads it from the end, in the reverse order: the end is a first page.
      const { ledgerTotal: total, ledgerTotalCapped: capped } = get();
      const fromEnd = !cursor && total !== null && !capped && page * LEDGER_PAGE > total / 2 && page * LEDGER_PAGE < total;
      const end = total ?? 0;
      const r = await call('ledger.query', {
        filter: sent(ledgerFilter),
        ...(fromEnd
          ? {
              sort: { field: ledgerSort.field, dir: ledgerSort.dir === 'asc' ? ('desc' as const) : ('asc' as const) },
              offset: Math.max(0, end - (page + 1) * LEDGER_PAGE),
              limit: Math.min(LEDGER_PAGE, end - page * LEDGER_PAGE),
            }
          : { sort: ledgerSort, offset: page * LEDGER_PAGE, limit: LEDGER_PAGE }),
        ...(cursor ? { cursor } : {}),
      });
      inFlight.delete(key);
      if (get().ledgerGeneration !== ledgerGeneration) return;
      if (r.ok && fromEnd) r.data.rows.reverse();
      if (!r.ok) {
        // The rows shown before stay, marked stale by the view, beside the reason this filter was refused.
        set({ ledgerError: r.message });
        return;
      }
      set((s) => {
        // A capped count never replaces an exact one of the same filter: the grid's range would shrink under a drag.
        const keepExact = r.data.total === null || (r.data.totalCapped && s.ledgerTotal !== null && !s.ledgerTotalCapped);
        let total = keepExact ? s.ledgerTotal : r.data.total;
        let capped = keepExact ? s.ledgerTotalCapped : r.data.totalCapped;
        // Past a capped count, a short page is the end of the matches: the count is exact from here.
        const end = page * LEDGER_PAGE + r.data.rows.length;
        if (
          capped &&
          total !== null &&
          r.data.rows.length < LEDGER_PAGE &&
          (r.data.rows.length > 0 || s.ledgerPages.get(page - 1)?.length === LEDGER_PAGE) &&
          end > total
        ) {
          total = end;
          capped = false;
        }
        return {
          ledgerTotal: total,
          ledgerTotalCapped: capped,
          ledgerPages: new Map(s.ledgerPages).set(page, r.data.rows),
          ledgerStale: null,
          ledgerError: null,
          ledgerReadAt: s.ledgerReadAt ?? new Date().toISOString(),
          ...(r.data.targets === undefined ? {} : { ledgerTargets: { count: r.data.targets, capped: r.data.targetsCapped ?? false } }),
          ledgerRecording: r.data.recording ?? 0,
          ledgerRecordingFailed: r.data.recordingFailed ?? null,
          ledgerRecordingBusy: r.data.recordingBusy === true,
        };
      });
    },
    countLedgerExactly: async () => {
      const { ledgerFilter, ledgerSort, ledgerGeneration, ledgerTotalCapped, ledgerCounting } = get();
      if (!ledgerTotalCapped || ledgerCounting) return;
      set({ ledgerCounting: true });
      const r = await call('ledger.query', { filter: sent(ledgerFilter), sort: ledgerSort, offset: 0, limit: 1, exactCount: true });
      if (get().ledgerGeneration !== ledgerGeneration) return;
      if (!r.ok) {
        set({ ledgerCounting: false });
        get().notifyFailure('ledger.query', r);
        return;
      }
      set({
        ledgerCounting: false,
        ledgerTotal: r.data.total,
        ledgerTotalCapped: r.data.totalCapped,
        ...(r.data.targets === undefined ? {} : { ledgerTargets: { count: r.data.targets, capped: r.data.targetsCapped ?? false } }),
      });
    },
    toggleSelected: (value) => {
      set((s) => {
        // Picking one row leaves "all matching" for a selection of rows.
        const next = new Set(s.selectedAll ? [] : s.selection);
        if (!next.delete(value)) next.add(value);
        return { selection: next, selectedAll: null };
      });
    },
    setSelected: (values, selected) => {
      set((s) => {
        const next = new Set(s.selectedAll ? [] : s.selection);
        for (const v of values) {
          if (selected) next.add(v);
          else next.delete(v);
        }
        return { selection: next, selectedAll: null };
      });
    },
    selectAllMatching: () => set((s) => ({ selectedAll: sent(s.ledgerFilter), selection: new Set() })),
    clearSelection: () => set({ selection: new Set(), selectedAll: null }),
    followLedger: () => {
      unsubscribe ??= subscribe('ledger.changed', onLedgerChanged);
    },
    refreshLedger: () => reset({}),
    countActive: async (filter) => {
      const r = await call('ledger.query', {
        filter: { ...filter, status: 'active' },
        sort: get().ledgerSort,
        offset: 0,
        limit: 1,
        exactCount: true,
      });
      if (!r.ok) {
        get().notifyFailure('ledger.query', r);
        return null;
      }
      return r.data.total;
    },
    loadCutShort: async () => {
      await request('ledger.cutShort', undefined, 'cutShortRequest', (d) => ({ cutShort: d.generates }), { background: true });
    },
    findCutShort: async (id) => {
      const r = await request('ledger.findCutShort', { id }, 'cutShortRequest', () => ({}));
      if (!r) return;
      const best = r.data.bestMatchOnly ? ' The service sends its best match only, so others may still be missing.' : '';
      get().notify('success', `Found ${fmt.count(r.data.found, NOUNS.key)} by their note; they are recorded here.${best}`);
      reset({});
      await get().loadCutShort();
    },
    dismissCutShort: async (id) => {
      if (await request('ledger.dismissCutShort', { id }, 'cutShortRequest', () => ({}), { toast: true })) await get().loadCutShort();
    },
    exportLedger: async (format) =>
      ctx.saved('ledger.export', await call('ledger.export', { filter: sent(get().ledgerFilter), sort: get().ledgerSort, format })),
  };
}
