// One zustand store made of slices; each slice keeps its data, its status and its last error. Components
// select narrowly. Nothing secret is ever held here: apiKeys go straight through to main and are dropped.
import { useCallback } from 'react';
import { create } from 'zustand';
import type { OperationInput, OperationName, OperationOutput } from '../../../shared/contract.ts';
import type { AppStatus, HistoryBucket, Key, KeylessEntry, Profile, ValidationReport, HwidReading, AuditEntry } from '../../../shared/domain.ts';
import type { ErrorCode, Failure } from '../../../shared/result.ts';
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
  /** False from a call that could not reach the service until the next one that did (a probe runs meanwhile). */
  online: boolean;
  /** The failure that made the service count as unreachable. */
  offlineReason: Failure | null;
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
  /** The last read failed: the count shown (if any) is the one read at `sampledAt`, no longer current. */
  executionsError: Failure | null;
  refreshExecutions: () => Promise<void>;
  pushExecution: () => Promise<void>;
  loadHistory: (range: OperationInput<'executions.history'>['range'], points?: number) => Promise<void>;
}

interface KeysSlice {
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

interface ServiceSlice {
  /** total: null when the service sent its best match only. */
  keyless: { entries: KeylessEntry[]; total: number | null } | null;
  keylessStatus: Status;
  keylessError: Failure | null;
  /** The last add's failure, shown with the add form (the search's own failure is keylessError). */
  keylessAddError: Failure | null;
  /** The term of the search the list shows, so a change to the list can show that search again. */
  keylessTerm: string | null;
  lookupKeyless: (term: string) => Promise<void>;
  addKeyless: (input: OperationInput<'keyless.add'>) => Promise<boolean>;
  deleteKeyless: (hwid: string) => Promise<boolean>;
  identifier: { identifier: string; exists: boolean; service: string | null } | null;
  identifierStatus: Status;
  identifierError: Failure | null;
  checkIdentifier: (identifier: string) => Promise<void>;
  hwids: HwidReading[];
  loadHwids: () => Promise<void>;
  validation: ValidationReport | null;
  validationStatus: Status;
  validationError: Failure | null;
  runValidation: (input: OperationInput<'validation.run'>) => Promise<void>;
  audit: { entries: AuditEntry[]; total: number; offset: number; limit: number } | null;
  auditStatus: Status;
  auditError: Failure | null;
  loadAudit: (input: OperationInput<'audit.list'>) => Promise<void>;
  exportAudit: (filter: OperationInput<'audit.export'>['filter'], format: 'csv' | 'json') => Promise<void>;
}

export type KeydeskState = UiSlice & SessionSlice & ExecutionsSlice & KeysSlice & ServiceSlice & LedgerSlice & DraftsSlice & IntegrationSlice;

let toastId = 0;
/** Keys of each state per Lookup page. */
export const LOOKUP_PAGE = 50;
const OFFLINE_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['NETWORK', 'TIMEOUT']);
/** Failures only an answering service gives (main's own checks never use these): the service is back. */
const ANSWERED_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'API_KEY_MISSING', 'API_KEY_INVALID', 'METHOD_NOT_ALLOWED', 'HOST_NOT_ALLOWED', 'PAYLOAD_TOO_LARGE', 'URI_TOO_LONG',
  'UNSUPPORTED_MEDIA_TYPE', 'COOLDOWN', 'RATE_LIMITED', 'HTTP_ERROR', 'BAD_RESPONSE',
]);
/** How long after a failed call the service is asked again while it counts as unreachable. */
export const OFFLINE_PROBE_MS = 2_000;
/**
 * Operations answered by main alone (local files, the ledger, the audit log, this machine): their success says
 * nothing about whether the service answers, so they never clear the offline banner.
 */
const LOCAL_OPERATIONS: ReadonlySet<OperationName> = new Set<OperationName>([
  'app.status', 'profiles.list', 'profiles.select', 'profiles.remove', 'executions.history', 'keys.export',
  'ledger.query', 'ledger.export', 'hwid.read', 'audit.list', 'audit.export',
  'jobs.list', 'jobs.get', 'jobs.items', 'jobs.cancel', 'jobs.export', 'jobs.getCeiling', 'jobs.setCeiling',
]);
type Answer<N extends OperationName> = { data: OperationOutput<N> } | { failure: Failure };

/** Everything shown, selected or failed for one profile: what a profile switch puts back to nothing. */
function profileData() {
  return {
    online: true,
    offlineReason: null,
    executionCount: null,
    sampledAt: null,
    history: [],
    executions: 'idle',
    executionsError: null,
    lastGenerated: [],
    generating: 'idle',
    generateError: null,
    lookupTerm: '',
    lookupResult: null,
    lookup: 'idle',
    lookupError: null,
    selectedKey: null,
    keyAction: 'idle',
    keyActionError: null,
    keyless: null,
    keylessStatus: 'idle',
    keylessError: null,
    keylessAddError: null,
    keylessTerm: null,
    identifier: null,
    identifierStatus: 'idle',
    identifierError: null,
    validation: null,
    validationStatus: 'idle',
    validationError: null,
  } satisfies Partial<KeydeskState>;
}

/** A key that changed on the service replaces its row wherever a search result shows it. */
function replaceKey<R extends { active: Key[]; generated: Key[] }>(result: R | null, key: Key): R | null {
  if (!result) return result;
  const swap = (list: Key[]) => list.map((k) => (k.value === key.value ? key : k));
  return { ...result, active: swap(result.active), generated: swap(result.generated) };
}

export const useKeydesk = create<KeydeskState>()((set, get, store) => {
  /** Bumps on every profile switch; an answer that arrives for an earlier profile is dropped. */
  let profileEpoch = 0;
  let probing: ReturnType<typeof setTimeout> | null = null;

  /**
   * Calls main and tracks whether the service answers. Resolves null when another profile became active while
   * the call was out: its answer belongs to no view any more.
   */
  async function run<N extends OperationName>(name: N, input: OperationInput<N>): Promise<Answer<N> | null> {
    const epoch = profileEpoch;
    const r = await call(name, input);
    if (epoch !== profileEpoch) return null;
    if (r.ok) {
      if (!LOCAL_OPERATIONS.has(name) && !get().online) goOnline();
      return { data: r.data };
    }
    if (OFFLINE_CODES.has(r.code)) goOffline(r);
    else if (ANSWERED_CODES.has(r.code) && !get().online) goOnline(); // it answered, if only to refuse
    return { failure: r };
  }
  /** The same, for calls about profiles or this machine rather than the active service: never dropped. */
  async function runGlobal<N extends OperationName>(name: N, input: OperationInput<N>): Promise<Answer<N>> {
    const r = await call(name, input);
    return r.ok ? { data: r.data } : { failure: r };
  }
  function stopProbing() {
    if (probing !== null) clearTimeout(probing);
    probing = null;
  }
  function goOnline() {
    stopProbing();
    set({ online: true, offlineReason: null });
  }
  function goOffline(reason: Failure) {
    set({ online: false, offlineReason: reason });
    if (probing !== null) return;
    // A light read, again and again while the service is away, so the banner goes within seconds of its return.
    const epoch = profileEpoch;
    const probe = async () => {
      if (epoch !== profileEpoch) return; // another profile: its own notice, its own probe
      if (get().online) {
        probing = null;
        return;
      }
      const r = await run('executions.get', undefined);
      if (epoch !== profileEpoch || !r) return;
      probing = null;
      if ('data' in r) set({ executions: 'ready', executionsError: null, executionCount: r.data.executionCount, sampledAt: r.data.sampledAt });
      else if (!get().online) probing = setTimeout(() => void probe(), OFFLINE_PROBE_MS);
    };
    probing = setTimeout(() => void probe(), OFFLINE_PROBE_MS);
  }
  /** Reads the search and the selected key again after a change the service did not describe. */
  async function refreshAfterChange(keyValue: string) {
    const term = get().lookupTerm;
    if (term !== '') await get().runLookup(term, get().lookupResult?.page ?? 0);
    const fresh = get().lookupResult;
    const found = fresh && [...fresh.active, ...fresh.generated].find((k) => k.value === keyValue);
    if (found && get().selectedKey?.value === keyValue) set({ selectedKey: found });
  }
  const toastOk = (text: string) => {
    get().notify('success', text);
  };
  /** Makes a profile the active one: nothing shown, selected or failed for another profile remains. */
  const activate = (id: string | null) => {
    if (get().activeProfileId === id) return;
    profileEpoch++;
    stopProbing();
    // Toasts too: "0 of 2 done" under the new service's name would be about the wrong one.
    set({ activeProfileId: id, ...profileData(), toasts: [] });
    get().clearLedger();
  };

  return {
    ...createLedgerSlice(set, get, store),
    ...createIntegrationSlice(set, get, store),
    ...createDraftsSlice(set, get, store),
    ...profileData(),
    // ---- ui ----
    view: 'overview',
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
      const status = await runGlobal('app.status', undefined);
      const list = await runGlobal('profiles.list', undefined);
      if ('failure' in status || 'failure' in list) {
        const f = 'failure' in status ? status.failure : (list as { failure: Failure }).failure;
        set({ session: 'error', sessionError: f.message });
        return;
      }
      set({ session: 'ready', sessionError: null, appStatus: status.data, profiles: list.data.profiles });
      activate(list.data.activeProfileId);
    },
    selectProfile: async (id) => {
      const r = await runGlobal('profiles.select', { id });
      if ('failure' in r) {
        get().notify('error', r.failure.message);
        return;
      }
      activate(id);
      toastOk(`Now working on ${r.data.name}.`);
    },
    addProfile: async (input) => {
      const r = await runGlobal('profiles.add', input);
      if ('failure' in r) return r.failure;
      set((s) => ({ profiles: [...s.profiles, r.data] }));
      toastOk(`Added ${r.data.name}.`);
      return null;
    },
    updateProfile: async (input) => {
      const r = await runGlobal('profiles.update', input);
      if ('failure' in r) return r.failure;
      set((s) => ({ profiles: s.profiles.map((p) => (p.id === r.data.id ? r.data : p)) }));
      toastOk(`Saved ${r.data.name}.`);
      return null;
    },
    removeProfile: async (id) => {
      const r = await runGlobal('profiles.remove', { id });
      if ('failure' in r) {
        get().notify('error', r.failure.message);
        return;
      }
      await get().loadSession();
      toastOk('Profile removed.');
    },

    // ---- executions ----
    refreshExecutions: async () => {
      set({ executions: get().executionCount === null ? 'loading' : get().executions });
      const r = await run('executions.get', undefined);
      if (!r) return;
      if ('failure' in r) {
        // The count read earlier stays, marked by the view as the last known one.
        set({ executions: 'error', executionsError: r.failure });
        return;
      }
      set({ executions: 'ready', executionsError: null, executionCount: r.data.executionCount, sampledAt: r.data.sampledAt });
    },
    pushExecution: async () => {
      const r = await run('executions.push', undefined);
      if (!r) return;
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
      // A failed read leaves no chart of another range or profile behind.
      if (r) set({ history: 'data' in r ? r.data.buckets : [] });
    },

    // ---- keys ----
    generate: async (input) => {
      // A batch shown under a new attempt would read as its result: it goes (the ledger keeps every key).
      set({ generating: 'loading', generateError: null, lastGenerated: [] });
      const r = await run('keys.generate', input);
      if (!r) return false;
      if ('failure' in r) {
        set({ generating: 'error', generateError: r.failure });
        return false;
      }
      set({ generating: 'ready', lastGenerated: r.data.generatedKeys });
      toastOk(`Generated ${fmt.count(r.data.generatedKeys.length, NOUNS.key)}.`);
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

    // ---- keyless, identifier, validation, activity ----
    lookupKeyless: async (term) => {
      set({ keylessStatus: 'loading', keylessError: null, keylessTerm: term });
      const r = await run('keyless.lookup', { term });
      if (!r || get().keylessTerm !== term) return;
      if ('failure' in r) {
        set({ keylessStatus: 'error', keylessError: r.failure, keyless: null });
        return;
      }
      set({ keylessStatus: 'ready', keyless: r.data });
    },
    addKeyless: async (input) => {
      const r = await run('keyless.add', input);
      if (!r) return false;
      if ('failure' in r) {
        set({ keylessAddError: r.failure });
        return false;
      }
      set({ keylessAddError: null });
      toastOk('Keyless entry added.');
      // The list shows the current search again, now with the new entry where it matches; with no search yet,
      // the new entry alone.
      const term = get().keylessTerm;
      if (term === null) set({ keylessError: null, keylessStatus: 'ready', keyless: { entries: [r.data.entry], total: 1 } });
      else await get().lookupKeyless(term);
      return true;
    },
    deleteKeyless: async (hwid) => {
      const r = await run('keyless.delete', { hwid });
      if (!r) return false;
      if ('failure' in r) {
        set({ keylessError: r.failure });
        return false;
      }
      set((s) => ({ keylessError: null, keyless: s.keyless && { entries: s.keyless.entries.filter((e) => e.hwid !== hwid), total: s.keyless.total === null ? null : s.keyless.total - 1 } }));
      toastOk('Keyless entry deleted.');
      return true;
    },
    checkIdentifier: async (identifier) => {
      set({ identifierStatus: 'loading', identifierError: null, identifier: null });
      const r = await run('identifier.check', { identifier });
      if (!r) return;
      if ('failure' in r) {
        set({ identifierStatus: 'error', identifierError: r.failure });
        return;
      }
      set({ identifierStatus: 'ready', identifier: { identifier, ...r.data } });
    },
    hwids: [],
    loadHwids: async () => {
      const r = await runGlobal('hwid.read', undefined);
      if ('data' in r) set({ hwids: r.data.readings });
    },
    runValidation: async (input) => {
      // A new question: no earlier answer, good or bad, may stay on screen beside the new one.
      set({ validationStatus: 'loading', validationError: null, validation: null });
      const r = await run('validation.run', input);
      if (!r) return;
      if ('failure' in r) {
        set({ validationStatus: 'error', validationError: r.failure });
        return;
      }
      set({ validationStatus: 'ready', validation: r.data });
    },
    audit: null,
    auditStatus: 'idle',
    auditError: null,
    loadAudit: async (input) => {
      set({ auditStatus: 'loading', auditError: null });
      const r = await runGlobal('audit.list', input);
      if ('failure' in r) {
        // The old list answered another filter: showing it under this one would be untrue.
        set({ auditStatus: 'error', auditError: r.failure, audit: null });
        return;
      }
      set({ auditStatus: 'ready', audit: { ...r.data, offset: input.offset, limit: input.limit } });
    },
    exportAudit: async (filter, format) => {
      const r = await runGlobal('audit.export', { filter, format });
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
