// The Integration view's slice: one fresh test key per profile, its status as the service reports it now
// (so a vendor can watch it activate), and whether the embedded sandbox is running.
import type { StateCreator } from 'zustand';
import type { Key, SandboxState } from '../../../shared/domain.ts';
import type { Failure } from '../../../shared/result.ts';
import { call, subscribe } from '../lib/api.ts';

export const TEST_KEY_NOTE = 'integration test';
const TEST_KEY_DAYS = 30;

export interface IntegrationSlice {
  /** The last test key, with the profile it belongs to: another profile's key is never shown as this one's. */
  testKey: { profileId: string; key: Key } | null;
  testKeyBusy: boolean;
  testKeyError: Failure | null;
  sandboxState: SandboxState | null;
  generateTestKey: (profileId: string) => Promise<void>;
  /** Asks the service for the test key now (which also brings All keys up to date). */
  refreshTestKey: () => Promise<void>;
  /** Reads the sandbox's state and follows its changes until the returned function is called. */
  watchSandbox: () => () => void;
}

type Notify = { notify: (kind: 'success' | 'error', text: string) => void; activeProfileId: string | null };

/** YYYY-MM-DD, `days` from now, in UTC (the service's dates are UTC). */
const utcDateIn = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

export const createIntegrationSlice: StateCreator<IntegrationSlice & Notify, [], [], IntegrationSlice> = (set, get) => ({
  testKey: null,
  testKeyBusy: false,
  testKeyError: null,
  sandboxState: null,
  generateTestKey: async (profileId) => {
    set({ testKeyBusy: true, testKeyError: null });
    const r = await call('keys.generate', { expire: utcDateIn(TEST_KEY_DAYS), count: 1, isPremium: false, note: TEST_KEY_NOTE });
    // An answer for a profile that is no longer active is dropped, not shown under the new one.
    if (get().activeProfileId !== profileId) {
      set({ testKeyBusy: false });
      return;
    }
    const key = r.ok ? r.data.generatedKeys[0] : undefined;
    if (!r.ok || key === undefined) {
      set({ testKeyBusy: false, testKeyError: r.ok ? { ok: false, code: 'BAD_RESPONSE', message: 'The service answered without a key.' } : r });
      return;
    }
    set({ testKeyBusy: false, testKey: { profileId, key } });
    get().notify('success', 'Generated a test key.');
  },
  refreshTestKey: async () => {
    const current = get().testKey;
    if (!current) return;
    set({ testKeyBusy: true, testKeyError: null });
    const r = await call('keys.lookup', { term: current.key.value });
    if (get().testKey !== current) {
      set({ testKeyBusy: false });
      return;
    }
    if (!r.ok) {
      set({ testKeyBusy: false, testKeyError: r });
      return;
    }
    const found = [...r.data.active, ...r.data.generated].find((k) => k.value === current.key.value);
    if (!found) {
      set({ testKeyBusy: false, testKeyError: { ok: false, code: 'NOT_FOUND', message: 'The service no longer has this key: it was deleted.' } });
      return;
    }
    set({ testKeyBusy: false, testKey: { profileId: current.profileId, key: found } });
  },
  watchSandbox: () => {
    let live = true;
    void call('app.status', undefined).then((r) => {
      if (live && r.ok) set({ sandboxState: r.data.sandbox });
    });
    const off = subscribe('sandbox.stateChanged', (state) => {
      set({ sandboxState: state });
    });
    return () => {
      live = false;
      off();
    };
  },
});
