// What every slice of the store shares: the one way to call main (connectivity, a profile switch dropping
// stale answers), the one request helper (status and error kept for the caller), toasts and profile activation.
import type { StoreApi } from 'zustand';
import type { OperationInput, OperationName, OperationOutput } from '../../../shared/contract.ts';
import type { ErrorCode, Failure } from '../../../shared/result.ts';
import { call } from '../lib/api.ts';
import type { KeydeskState, Status } from './index.ts';

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
export type ProfileData = ReturnType<typeof profileData>;
export function profileData() {
  return {
    online: true,
    offlineReason: null,
    executionCount: null,
    sampledAt: null,
    history: [],
    historyStatus: 'idle',
    historyError: null,
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

type Set = StoreApi<KeydeskState>['setState'];
type Get = StoreApi<KeydeskState>['getState'];
/** Names of the state's status fields, and of its last-failure fields. */
type StatusKey = { [K in keyof KeydeskState]: KeydeskState[K] extends Status ? (Status extends KeydeskState[K] ? K : never) : never }[keyof KeydeskState];
type FailureKey = { [K in keyof KeydeskState]: [KeydeskState[K]] extends [Failure | null] ? (null extends KeydeskState[K] ? K : never) : never }[keyof KeydeskState];

export interface StoreContext {
  set: Set;
  get: Get;
  run: <N extends OperationName>(name: N, input: OperationInput<N>) => Promise<Answer<N> | null>;
  runGlobal: <N extends OperationName>(name: N, input: OperationInput<N>) => Promise<Answer<N>>;
  /**
   * The request a loader or an action makes: marks `status` loading and clears `error`, calls main, then records
   * the failure under `error` (status "error") or sets what `done` makes of the data (status "ready").
   * Resolves the data, or null after a failure or an answer for a profile no longer active.
   */
  request: <N extends OperationName>(
    name: N,
    input: OperationInput<N>,
    keys: { status: StatusKey; error: FailureKey },
    done: (data: OperationOutput<N>) => Partial<KeydeskState>,
    options?: { global?: boolean; before?: Partial<KeydeskState>; onFailure?: Partial<KeydeskState> },
  ) => Promise<OperationOutput<N> | null>;
  toastOk: (text: string) => void;
  activate: (id: string | null) => void;
  refreshAfterChange: (keyValue: string) => Promise<void>;
}

export function createStoreContext(set: Set, get: Get): StoreContext {
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
    get().clearProfileDrafts();
  };

  const request: StoreContext['request'] = async (name, input, keys, done, options = {}) => {
    set({ [keys.status]: 'loading', [keys.error]: null, ...options.before } as Partial<KeydeskState>);
    const r = options.global ? await runGlobal(name, input) : await run(name, input);
    if (!r) return null;
    if ('failure' in r) {
      set({ [keys.status]: 'error', [keys.error]: r.failure, ...options.onFailure } as Partial<KeydeskState>);
      return null;
    }
    set({ [keys.status]: 'ready', ...done(r.data) } as Partial<KeydeskState>);
    return r.data;
  };
  return { set, get, run, runGlobal, request, toastOk, activate, refreshAfterChange };
}
