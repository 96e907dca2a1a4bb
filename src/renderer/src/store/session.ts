// The app's status and its profiles: which service every other slice talks to.
import type { OperationInput } from '../../../shared/contract.ts';
import type { AppStatus, Profile } from '../../../shared/domain.ts';
import type { Failure } from '../../../shared/result.ts';
import type { Status } from './index.ts';
import type { ProfileData, StoreContext } from './context.ts';

export interface SessionSlice {
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

export function createSessionSlice(ctx: StoreContext): Omit<SessionSlice, keyof ProfileData> {
  const { set, get, runGlobal, toastOk, activate } = ctx;
  return {
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
  };
}
