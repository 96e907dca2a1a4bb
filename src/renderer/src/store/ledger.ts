// The ledger slice: the All keys table's pages, filter, sort, selection and bulk jobs. Pages are fetched on
// demand and cached until the filter or sort changes, so 100,000 rows never sit in memory at once.
import type { StateCreator } from 'zustand';
import type { OperationInput } from '../../../shared/contract.ts';
import type { BulkItemResult, LedgerRow, LedgerSortField } from '../../../shared/domain.ts';
import { LIMITS } from '../../../shared/rules.ts';
import { call, subscribe } from '../lib/api.ts';

export const LEDGER_PAGE = 200;
export type LedgerFilter = OperationInput<'ledger.query'>['filter'];
export type BulkAction = 'delete' | 'extend' | 'resetHwid';

export interface BulkJob {
  jobId: string;
  action: BulkAction;
  total: number;
  done: number;
  failed: number;
  running: boolean;
  cancelled: boolean;
  results: BulkItemResult[];
}

export interface LedgerSlice {
  ledgerFilter: LedgerFilter;
  ledgerSort: { field: LedgerSortField; dir: 'asc' | 'desc' };
  ledgerTotal: number | null;
  ledgerPages: ReadonlyMap<number, LedgerRow[]>;
  /** What the table showed before the filter or sort changed, kept on screen until the first new page arrives. */
  ledgerStale: { total: number; pages: ReadonlyMap<number, LedgerRow[]> } | null;
  /** Bumps on every filter or sort change; answers for an older generation are dropped. */
  ledgerGeneration: number;
  ledgerError: string | null;
  selection: ReadonlySet<string>;
  bulk: BulkJob | null;
  setLedgerFilter: (filter: LedgerFilter) => void;
  /** Another profile became active: nothing shown or selected belongs to it. */
  clearLedger: () => void;
  setLedgerSort: (field: LedgerSortField) => void;
  loadLedgerPage: (page: number) => Promise<void>;
  toggleSelected: (value: string) => void;
  selectAllMatching: () => Promise<void>;
  clearSelection: () => void;
  runBulk: (action: BulkAction, days?: number) => Promise<void>;
  cancelBulk: () => Promise<void>;
  exportLedger: (format: 'csv' | 'json') => Promise<string | null>;
}

type Notify = { notify: (kind: 'success' | 'error', text: string) => void };

export const createLedgerSlice: StateCreator<LedgerSlice & Notify, [], [], LedgerSlice> = (set, get) => {
  const inFlight = new Set<string>();
  /** Starts a new generation of pages; the rows shown so far stay as stale unless the patch says otherwise. */
  const reset = (patch: Pick<Partial<LedgerSlice>, 'ledgerFilter' | 'ledgerSort' | 'selection' | 'ledgerStale'>) => {
    inFlight.clear();
    set((s) => ({
      ledgerStale: s.ledgerTotal === null ? s.ledgerStale : { total: s.ledgerTotal, pages: s.ledgerPages },
      ledgerTotal: null,
      ledgerPages: new Map(),
      ledgerGeneration: s.ledgerGeneration + 1,
      ledgerError: null,
      ...patch,
    }));
  };
  return {
    ledgerFilter: {},
    ledgerSort: { field: 'createdAt', dir: 'desc' },
    ledgerTotal: null,
    ledgerPages: new Map(),
    ledgerStale: null,
    ledgerGeneration: 0,
    ledgerError: null,
    selection: new Set(),
    bulk: null,
    setLedgerFilter: (ledgerFilter) => {
      reset({ ledgerFilter });
    },
    clearLedger: () => {
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
      const r = await call('ledger.query', { filter: ledgerFilter, sort: ledgerSort, offset: page * LEDGER_PAGE, limit: LEDGER_PAGE });
      inFlight.delete(key);
      if (get().ledgerGeneration !== ledgerGeneration) return;
      if (!r.ok) {
        set({ ledgerError: r.message, ledgerStale: null });
        return;
      }
      set((s) => ({ ledgerTotal: r.data.total, ledgerPages: new Map(s.ledgerPages).set(page, r.data.rows), ledgerStale: null, ledgerError: null }));
    },
    toggleSelected: (value) => {
      set((s) => {
        const next = new Set(s.selection);
        if (!next.delete(value)) next.add(value);
        return { selection: next };
      });
    },
    selectAllMatching: async () => {
      const r = await call('ledger.values', { filter: get().ledgerFilter });
      if (!r.ok) {
        get().notify('error', r.message);
        return;
      }
      set({ selection: new Set(r.data.values) });
      if (r.data.total > r.data.values.length) {
        get().notify('error', `Selected ${r.data.values.length.toLocaleString()} of ${r.data.total.toLocaleString()}: one bulk action takes at most ${LIMITS.countMax.toLocaleString()} keys. Narrow the filter for the rest.`);
      }
    },
    clearSelection: () => {
      set({ selection: new Set() });
    },
    runBulk: async (action, days) => {
      const keyValues = [...get().selection];
      if (keyValues.length === 0) return;
      const jobId = crypto.randomUUID();
      set({ bulk: { jobId, action, total: keyValues.length, done: 0, failed: 0, running: true, cancelled: false, results: [] } });
      const off = subscribe('bulk.progress', (p) => {
        if (p.jobId === jobId) set((s) => ({ bulk: s.bulk && { ...s.bulk, done: p.done, failed: p.failed } }));
      });
      const r = await call('keys.bulk', { jobId, action, keyValues, ...(days === undefined ? {} : { days }) });
      off();
      if (!r.ok) {
        set((s) => ({ bulk: s.bulk && { ...s.bulk, running: false } }));
        get().notify('error', r.message);
        return;
      }
      const failed = r.data.results.filter((x) => !x.ok).length;
      set((s) => ({
        bulk: s.bulk && { ...s.bulk, running: false, cancelled: r.data.cancelled, results: r.data.results, done: r.data.results.length - (r.data.cancelled ? r.data.results.filter((x) => x.message.startsWith('Cancelled')).length : 0), failed },
        selection: new Set(r.data.results.filter((x) => !x.ok).map((x) => x.keyValue)),
      }));
      reset({});
      get().notify(failed === 0 ? 'success' : 'error', `${r.data.results.length - failed} of ${r.data.results.length} done${r.data.cancelled ? ' (cancelled)' : ''}.`);
    },
    cancelBulk: async () => {
      const job = get().bulk;
      if (job?.running) await call('keys.bulkCancel', { jobId: job.jobId });
    },
    exportLedger: async (format) => {
      const r = await call('ledger.export', { filter: get().ledgerFilter, format });
      if (!r.ok) {
        get().notify('error', r.message);
        return null;
      }
      if (r.data.path) get().notify('success', `Saved to ${r.data.path}.`);
      return r.data.path;
    },
  };
};
