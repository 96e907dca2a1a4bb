// The one fake `window.keydesk` for the renderer's store and component tests, typed by the contract: each test says
// what main answers per operation (anything not faked answers UNSUPPORTED, but app.startup: ready), every call is
// recorded, and events are emitted as main would send them. Below it, the store on it and the states a test starts from.
import type { EventMap, EventName, KeydeskBridge, OperationName, OperationResult } from '../../src/shared/contract.ts';
import type { KeydeskState } from '../../src/renderer/src/store/index.ts';
import type { AppStatus, Key, LedgerRow, Profile, ValidationReport } from '../../src/shared/domain.ts';
import { OPERATION_NAMES } from '../../src/shared/operations.ts';

export type Impl = { [N in OperationName]?: (input: unknown) => Promise<OperationResult<N>> };

export const fake: { impl: Impl; calls: { name: OperationName; input: unknown }[] } = { impl: {}, calls: [] };

const listeners = new Map<string, Set<(payload: unknown) => void>>();

/** Sends an event to the renderer as main would. */
export function emit<E extends EventName>(event: E, payload: EventMap[E]): void {
  for (const l of listeners.get(event) ?? []) l(payload);
}

const bridge = Object.fromEntries([
  ...OPERATION_NAMES.map((name) => [
    name,
    (input: unknown) => {
      fake.calls.push({ name, input });
      const fn = fake.impl[name];
      if (fn) return fn(input);
      // A main that answers anything else has started.
      if (name === 'app.startup') return Promise.resolve({ ok: true, data: { state: 'ready', failure: null } });
      return Promise.resolve({ ok: false, code: 'UNSUPPORTED', message: `${name} not faked` });
    },
  ]),
  [
    'on',
    (event: string, listener: (payload: unknown) => void) => {
      const set = listeners.get(event) ?? new Set();
      set.add(listener);
      listeners.set(event, set);
      return () => set.delete(listener);
    },
  ],
]) as unknown as KeydeskBridge;

/** Installs the bridge where lib/api.ts looks for it; works in node (no window) and in jsdom. */
export function installBridge(): void {
  if (typeof window === 'undefined') Object.assign(globalThis, { window: { keydesk: bridge } });
  else Object.assign(window, { keydesk: bridge });
}

/**
 * Forgets every answer and call: the next test starts from nothing faked. Listeners stay, as they do in the app
 * (the store subscribes once per window).
 */
export function resetFake(): void {
  fake.impl = {};
  fake.calls.length = 0;
}

/** The newest sample of a history main serves, as its `latest` (its last bucket's last sample, the highest count in it here). */
export const latestOf = (buckets: readonly { at: string; max: number }[]): { count: number; at: string } | null => {
  const last = buckets.at(-1);
  return last ? { count: last.max, at: last.at } : null;
};

export const key = (value: string, status: Key['status'] = 'generated', patch: Partial<Key> = {}): Key => ({
  id: `k_${value}`,
  value,
  note: 'n',
  status,
  isPremium: false,
  expire: '2099-01-01',
  expiresByDaysKey: false,
  daysKey: null,
  expiresAt: '2099-01-01T23:59:59.999Z',
  hwid: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  activatedAt: null,
  lastResetAt: null,
  serviceId: 's',
  ...patch,
});

export const ledgerRow = (value: string, patch: Partial<LedgerRow> = {}): LedgerRow => ({
  value,
  note: 'n',
  status: 'generated',
  isPremium: false,
  expiresAt: null,
  daysKey: 30,
  hwid: null,
  createdAt: null,
  lastSeenAt: '2026-01-01T00:00:00.000Z',
  ...patch,
});

/** Main's answer to validation.run when the key is let in on HW-A (and now bound to it). */
export const validReport: ValidationReport = {
  outcome: 'success',
  success: true,
  message: 'The key is valid.',
  dryRun: false,
  hwid: 'HW-A',
  premium: false,
  expiresAt: '2099-01-01T23:59:59.999Z',
  notes: 'spring batch',
  keyless: false,
  registeredServiceId: 'demo',
  raw: JSON.stringify({ V2_Authentication: 'success' }, null, 2),
};

export const sandboxProfile: Profile = {
  id: 'sandbox',
  name: 'Local sandbox',
  kind: 'sandbox',
  baseUrl: 'http://127.0.0.1:1',
  validationUrl: 'http://127.0.0.1:1/v2_validation',
  serviceIdentifier: 'demo',
  hasKey: true,
  keyHint: '…abcd',
  storage: 'os-keychain',
};
export const remoteProfile: Profile = {
  id: 'p2',
  name: 'Remote Shop',
  kind: 'remote',
  baseUrl: 'https://shop.example.com',
  validationUrl: 'https://shop.example.com/v2_validation',
  serviceIdentifier: 'shop',
  hasKey: true,
  keyHint: '…wxyz',
  storage: 'os-keychain',
};

/** Main's status for a started window: the local sandbox running, secrets in the OS keychain. */
export const appStatus = (activeProfileId: string): AppStatus => ({
  version: '1',
  platform: 'linux',
  sandbox: { url: sandboxProfile.baseUrl, running: true, error: null },
  secretStorage: 'os-keychain',
  secretStorageReason: null,
  profilesFileProblem: null,
  activeProfileId,
});

/** Main as a started window finds it: its status, `profiles` with `active` chosen, 3 executions and no history yet. */
export function fakeStartedMain(profiles: Profile[] = [sandboxProfile, remoteProfile], active = 'sandbox'): void {
  fake.impl['app.status'] = () => Promise.resolve({ ok: true, data: appStatus(active) });
  fake.impl['profiles.list'] = () => Promise.resolve({ ok: true, data: { profiles, activeProfileId: active } });
  fake.impl['executions.get'] = () => Promise.resolve({ ok: true, data: { executionCount: 3, sampledAt: '2026-01-01T00:00:00.000Z' } });
  fake.impl['executions.history'] = () => Promise.resolve({ ok: true, data: { buckets: [], samples: 0, latest: null } });
}

installBridge();
// The store, loaded once the bridge is where lib/api.ts looks for it.
export const { useKeydesk } = await import('../../src/renderer/src/store/index.ts');
/** The store before any test touched it. */
const initial = useKeydesk.getState();

/** The store as a window just loaded has it, with `patch` on top; what main answers stays as faked. */
export function reloadedStore(patch: Partial<KeydeskState> = {}): void {
  useKeydesk.setState(initial, true);
  useKeydesk.setState(patch);
}

/** Nothing faked, and the store as a window just loaded has it, with `patch` on top. */
export function freshStore(patch: Partial<KeydeskState> = {}): void {
  resetFake();
  reloadedStore(patch);
}

/** A session ready on the local sandbox, with `profiles` (the remote one beside it unless said). */
export const readyState = (profiles: Profile[] = [sandboxProfile, remoteProfile]): Partial<KeydeskState> => ({
  sessionRequest: { status: 'ready', error: null },
  activeProfileId: 'sandbox',
  profiles,
});

/** Nothing faked, and a fresh store whose session is ready (see readyState). */
export function readyStore(profiles?: Profile[]): void {
  freshStore(readyState(profiles));
}

/** readyStore for a test that keeps its own handle on the store and its first state. */
export function readySession(store: typeof useKeydesk, first: KeydeskState, profiles?: Profile[]): void {
  resetFake();
  store.setState(first, true);
  store.setState(readyState(profiles));
}
