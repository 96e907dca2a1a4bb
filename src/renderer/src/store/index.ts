// One zustand store made of slices; each slice keeps its data, its status and its last error. Components
// select narrowly. Nothing secret is ever held here: apiKeys go straight through to main and are dropped.
import { useCallback } from 'react';
import { create } from 'zustand';
import type { OperationInput, OperationName, OperationOutput } from '../../../shared/contract.ts';
import type { AppStatus, HistoryBucket, Key, KeylessEntry, Profile, ValidationReport, HwidReading, AuditEntry } from '../../../shared/domain.ts';
import type { Failure } from '../../../shared/result.ts';
import { call } from '../lib/api.ts';
import { fmt, NOUNS } from '../lib/format.ts';
import { createDraftsSlice, DRAFT_DEFAULTS, type Drafts, type DraftsSlice } from './drafts.ts';
import { createIntegrationSlice, type IntegrationSlice } from './integration.ts';
import { createLedgerSlice, type LedgerSlice } from './ledger.ts';
import type { ViewName } from '../views/registry.ts';

export type Status = 'idle' | 'loading' | 'ready' | 'error';
export type { ViewName } from '../views/registry.ts';
export interface Toast {
  id: number;
  kind: 'success' | 'error';
  text: string;
}

interface UiSlice {
  view: ViewName;
  online: boolean;
  toasts: Toast[];
  paletteOpen: boolean;
  setView: (view: ViewName) => void;
  setPaletteOpen: (open: boolean) => void;
  notify: (kind: Toast['kind'], text: string) => void;
  dismiss: (id: number) => void;
}

interface SessionSlice {
  appStatus: AppStatus | null;
  profiles: Profile[];
  activeProfileId: string | null;
  session: Status;
  sessionError: string | null;
  loadSession: () => Promise<void>;
  selectProfile: (id: string) => Promise<void>;
  addProfile: (input: OperationInput<'profiles.add'>) => Promise<Failure | null>;
  updateProfile: (input: OperationInput<'profiles.update'>) => Promise<Failure | null>;
  removeProfile: (id: string) => Promise<void>;
}

interface ExecutionsSlice {
  executionCount: number | null;
  sampledAt: string | null;
  /** The execution history as main serves it: at most as many buckets as the chart asked for. */
  history: HistoryBucket[];
  executions: Status;
  executionsError: string | null;
  refreshExecutions: () => Promise<void>;
  pushExecution: () => Promise<void>;
  loadHistory: (range: OperationInput<'executions.history'>['range'], points?: number) => Promise<void>;
}

interface KeysSlice {
  lastGenerated: Key[];
  generating: Status;
  generateError: Failure | null;
  generate: (input: OperationInput<'keys.generate'>) => Promise<boolean>;
  exportGenerated: (format: 'csv' | 'json') => Promise<void>;
  lookupTerm: string;
  /**
   * One page of a search: active and generated keys from the same offset. Totals are null when the service
   * answers with its best match only (the real dialect), so the screen can say so rather than claim "all".
   */
  lookupResult: { active: Key[]; generated: Key[]; page?: number; totals?: { active: number | null; generated: number | null } } | null;
  lookup: Status;
  lookupError: string | null;
  runLookup: (term: string, page?: number) => Promise<void>;
  selectedKey: Key | null;
  selectKey: (key: Key | null) => void;
  keyAction: Status;
  keyActionError: Failure | null;
  extendKey: (keyValue: string, days: number) => Promise<boolean>;
  resetHwid: (keyValue: string) => Promise<boolean>;
  deleteKey: (key: Key) => Promise<boolean>;
}

interface ServiceSlice {
  /** total: null when the service sent its best match only. */
  keyless: { entries: KeylessEntry[]; total: number | null } | null;
  keylessStatus: Status;
  keylessError: Failure | null;
  lookupKeyless: (term: string) => Promise<void>;
  addKeyless: (input: OperationInput<'keyless.add'>) => Promise<boolean>;
  deleteKeyless: (hwid: string) => Promise<boolean>;
  identifier: { identifier: string; exists: boolean; service: string | null } | null;
  identifierStatus: Status;
  identifierError: string | null;
  checkIdentifier: (identifier: string) => Promise<void>;
  hwids: HwidReading[];
  loadHwids: () => Promise<void>;
  validation: ValidationReport | null;
  validationStatus: Status;
  validationError: Failure | null;
  runValidation: (input: OperationInput<'validation.run'>) => Promise<void>;
  audit: { entries: AuditEntry[]; total: number } | null;
  loadAudit: (input: OperationInput<'audit.list'>) => Promise<void>;
  exportAudit: (filter: OperationInput<'audit.export'>['filter'], format: 'csv' | 'json') => Promise<void>;
}

export type KeydeskState = UiSlice & SessionSlice & ExecutionsSlice & KeysSlice & ServiceSlice & LedgerSlice & DraftsSlice & IntegrationSlice;

let toastId = 0;
/** Keys of each state per Lookup page. */
export const LOOKUP_PAGE = 50;
const OFFLINE_CODES = new Set(['NETWORK', 'TIMEOUT']);

export const useKeydesk = create<KeydeskState>()((set, get, store) => {
  /** Calls main, tracks connectivity, and hands back the data or the failure. */
  async function run<N extends OperationName>(name: N, input: OperationInput<N>): Promise<{ data: OperationOutput<N> } | { failure: Failure }> {
    const r = await call(name, input);
    if (r.ok) {
      if (!get().online) set({ online: true });
      return { data: r.data };
    }
    if (OFFLINE_CODES.has(r.code)) set({ online: false });
    return { failure: r };
  }
  const toastOk = (text: string) => {
    get().notify('success', text);
  };
  /** Makes a profile the active one; what was shown or selected for another profile goes. */
  const activate = (id: string | null) => {
    if (get().activeProfileId === id) return;
    set({ activeProfileId: id, lookupResult: null, selectedKey: null, executionCount: null, history: [], keyless: null, identifier: null, validation: null, lastGenerated: [] });
    get().clearLedger();
  };

  return {
    ...createLedgerSlice(set, get, store),
    ...createIntegrationSlice(set, get, store),
    ...createDraftsSlice(set, get, store),
    // ---- ui ----
    view: 'overview',
    online: true,
    toasts: [],
    paletteOpen: false,
    setView: (view) => {
      set({ view, paletteOpen: false });
    },
    setPaletteOpen: (paletteOpen) => {
      set({ paletteOpen });
    },
    notify: (kind, text) => {
      const id = ++toastId;
      set((s) => ({ toasts: [...s.toasts.slice(-3), { id, kind, text }] }));
      setTimeout(() => {
        get().dismiss(id);
      }, kind === 'error' ? 8_000 : 3_000);
    },
    dismiss: (id) => {
      set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
    },

    // ---- session ----
    appStatus: null,
    profiles: [],
    activeProfileId: null,
    session: 'idle',
    sessionError: null,
    loadSession: async () => {
      set({ session: 'loading' });
      const status = await run('app.status', undefined);
      const list = await run('profiles.list', undefined);
      if ('failure' in status || 'failure' in list) {
        const f = 'failure' in status ? status.failure : (list as { failure: Failure }).failure;
        set({ session: 'error', sessionError: f.message });
        return;
      }
      set({ session: 'ready', sessionError: null, appStatus: status.data, profiles: list.data.profiles });
      activate(list.data.activeProfileId);
    },
    selectProfile: async (id) => {
      const r = await run('profiles.select', { id });
      if ('failure' in r) {
        get().notify('error', r.failure.message);
        return;
      }
      activate(id);
      toastOk(`Now working on ${r.data.name}.`);
    },
    addProfile: async (input) => {
      const r = await run('profiles.add', input);
      if ('failure' in r) return r.failure;
      set((s) => ({ profiles: [...s.profiles, r.data] }));
      toastOk(`Added ${r.data.name}.`);
      return null;
    },
    updateProfile: async (input) => {
      const r = await run('profiles.update', input);
      if ('failure' in r) return r.failure;
      set((s) => ({ profiles: s.profiles.map((p) => (p.id === r.data.id ? r.data : p)) }));
      toastOk(`Saved ${r.data.name}.`);
      return null;
    },
    removeProfile: async (id) => {
      const r = await run('profiles.remove', { id });
      if ('failure' in r) {
        get().notify('error', r.failure.message);
        return;
      }
      await get().loadSession();
      toastOk('Profile removed.');
    },

    // ---- executions ----
    executionCount: null,
    sampledAt: null,
    history: [],
    executions: 'idle',
    executionsError: null,
    refreshExecutions: async () => {
      set({ executions: get().executionCount === null ? 'loading' : get().executions });
      const r = await run('executions.get', undefined);
      if ('failure' in r) {
        set({ executions: 'error', executionsError: r.failure.message });
        return;
      }
      set({ executions: 'ready', executionsError: null, executionCount: r.data.executionCount, sampledAt: r.data.sampledAt });
    },
    pushExecution: async () => {
      const r = await run('executions.push', undefined);
      if ('failure' in r) {
        get().notify('error', r.failure.message);
        return;
      }
      const total = r.data.executionCount;
      if (total === null) {
        toastOk('Execution counted. The service did not report the new total; refresh to read it.');
        return;
      }
      set({ executionCount: total });
      toastOk(`Execution counted: ${fmt.number(total)}.`);
    },
    loadHistory: async (range, points) => {
      const r = await run('executions.history', points === undefined ? { range } : { range, points });
      if ('data' in r) set({ history: r.data.buckets });
    },

    // ---- keys ----
    lastGenerated: [],
    generating: 'idle',
    generateError: null,
    generate: async (input) => {
      set({ generating: 'loading', generateError: null });
      const r = await run('keys.generate', input);
      if ('failure' in r) {
        set({ generating: 'error', generateError: r.failure });
        return false;
      }
      set({ generating: 'ready', lastGenerated: r.data.generatedKeys });
      toastOk(`Generated ${fmt.count(r.data.generatedKeys.length, NOUNS.key)}.`);
      return true;
    },
    exportGenerated: async (format) => {
      const keyValues = get().lastGenerated.map((k) => k.value);
      if (keyValues.length === 0) return;
      const r = await run('keys.export', { keyValues, format });
      if ('failure' in r) get().notify('error', r.failure.message);
      else if (r.data.path) toastOk(`Saved ${fmt.count(keyValues.length, NOUNS.key)} to ${r.data.path}.`);
    },
    lookupTerm: '',
    lookupResult: null,
    lookup: 'idle',
    lookupError: null,
    runLookup: async (term, page = 0) => {
      set({ lookupTerm: term, lookup: 'loading', lookupError: null });
      const paging = { term, limit: LOOKUP_PAGE, offset: page * LOOKUP_PAGE };
      const [active, generated] = await Promise.all([run('keys.fetchActive', paging), run('keys.fetchGenerated', paging)]);
      if (get().lookupTerm !== term) return; // a newer search has started
      if ('failure' in active || 'failure' in generated) {
        const f = 'failure' in active ? active.failure : (generated as { failure: Failure }).failure;
        set({ lookup: 'error', lookupError: f.message, lookupResult: null });
        return;
      }
      set({
        lookup: 'ready',
        lookupResult: { active: active.data.keys, generated: generated.data.keys, page, totals: { active: active.data.total, generated: generated.data.total } },
      });
    },
    selectedKey: null,
    selectKey: (key) => {
      set({ selectedKey: key, keyActionError: null });
    },
    keyAction: 'idle',
    keyActionError: null,
    extendKey: async (keyValue, days) => {
      set({ keyAction: 'loading', keyActionError: null });
      const r = await run('keys.extend', { keyValue, days });
      if ('failure' in r) {
        set({ keyAction: 'error', keyActionError: r.failure });
        return false;
      }
      // The service extended the key; if it could not be read back, keep the selection and say so.
      set((s) => ({ keyAction: 'ready', selectedKey: r.data.key ?? s.selectedKey }));
      toastOk(r.data.key ? `Extended by ${fmt.count(days, NOUNS.day)}.` : `Extended by ${fmt.count(days, NOUNS.day)}. The service did not describe the key: look it up to see the new expiry.`);
      return true;
    },
    resetHwid: async (keyValue) => {
      set({ keyAction: 'loading', keyActionError: null });
      const r = await run('keys.resetHwid', { keyValue });
      if ('failure' in r) {
        set({ keyAction: 'error', keyActionError: r.failure });
        return false;
      }
      set((s) => ({ keyAction: 'ready', selectedKey: r.data.key ?? s.selectedKey }));
      toastOk(r.data.key ? 'HWID reset.' : 'HWID reset. The service did not describe the key: look it up to see it.');
      return true;
    },
    deleteKey: async (key) => {
      set({ keyAction: 'loading', keyActionError: null });
      const r = await run('keys.delete', { keyValue: key.value, state: key.status });
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

    // ---- keyless, identifier, validation, activity ----
    keyless: null,
    keylessStatus: 'idle',
    keylessError: null,
    lookupKeyless: async (term) => {
      set({ keylessStatus: 'loading', keylessError: null });
      const r = await run('keyless.lookup', { term });
      if ('failure' in r) {
        set({ keylessStatus: 'error', keylessError: r.failure });
        return;
      }
      set({ keylessStatus: 'ready', keyless: r.data });
    },
    addKeyless: async (input) => {
      const r = await run('keyless.add', input);
      if ('failure' in r) {
        set({ keylessError: r.failure });
        return false;
      }
      set({ keylessError: null, keyless: { entries: [r.data.entry], total: 1 } });
      toastOk('Keyless entry added.');
      return true;
    },
    deleteKeyless: async (hwid) => {
      const r = await run('keyless.delete', { hwid });
      if ('failure' in r) {
        set({ keylessError: r.failure });
        return false;
      }
      set((s) => ({ keyless: s.keyless && { entries: s.keyless.entries.filter((e) => e.hwid !== hwid), total: s.keyless.total === null ? null : s.keyless.total - 1 } }));
      toastOk('Keyless entry deleted.');
      return true;
    },
    identifier: null,
    identifierStatus: 'idle',
    identifierError: null,
    checkIdentifier: async (identifier) => {
      set({ identifierStatus: 'loading', identifierError: null });
      const r = await run('identifier.check', { identifier });
      if ('failure' in r) {
        set({ identifierStatus: 'error', identifierError: r.failure.message });
        return;
      }
      set({ identifierStatus: 'ready', identifier: { identifier, ...r.data } });
    },
    hwids: [],
    loadHwids: async () => {
      const r = await run('hwid.read', undefined);
      if ('data' in r) set({ hwids: r.data.readings });
    },
    validation: null,
    validationStatus: 'idle',
    validationError: null,
    runValidation: async (input) => {
      set({ validationStatus: 'loading', validationError: null });
      const r = await run('validation.run', input);
      if ('failure' in r) {
        set({ validationStatus: 'error', validationError: r.failure });
        return;
      }
      set({ validationStatus: 'ready', validation: r.data });
    },
    audit: null,
    loadAudit: async (input) => {
      const r = await run('audit.list', input);
      if ('data' in r) set({ audit: r.data });
    },
    exportAudit: async (filter, format) => {
      const r = await run('audit.export', { filter, format });
      if ('failure' in r) get().notify('error', r.failure.message);
      else if (r.data.path) toastOk(`Saved to ${r.data.path}.`);
    },
  };
});

/** Like useState, for a named form draft kept by the store: leaving a view and coming back finds it as it was. */
export function useDraft<K extends keyof Drafts>(key: K): [Drafts[K], (value: Drafts[K]) => void] {
  const value = useKeydesk((s) => s.drafts[key]) ?? DRAFT_DEFAULTS[key];
  const setDraft = useKeydesk((s) => s.setDraft);
  const update = useCallback(
    (next: Drafts[K]) => {
      setDraft(key, next);
    },
    [key, setDraft],
  );
  return [value, update];
}
