// The app's status and its profiles: which service every other slice talks to.
import type { OperationInput } from '../../../shared/contract.ts';
import type { AppStatus, Profile } from '../../../shared/domain.ts';
import type { Failure } from '../../../shared/result.ts';
import { IDLE, type RequestState } from './request.ts';
import type { ProfileData, StoreContext } from './context.ts';

export interface SessionSlice {
  appStatus: AppStatus | null;
  profiles: Profile[];
  activeProfileId: string | null;
  /** Reading the app's status and its profiles: nothing else can start before it is ready. */
  sessionRequest: RequestState;
  loadSession: () => Promise<void>;
  /** The last profile change (select, add, save, remove); its failure goes to the form or a toast. */
  profileRequest: RequestState;
  selectProfile: (id: string) => Promise<void>;
  addProfile: (input: OperationInput<'profiles.add'>) => Promise<Failure | null>;
  updateProfile: (input: OperationInput<'profiles.update'>) => Promise<Failure | null>;
  removeProfile: (id: string) => Promise<void>;
}

export function createSessionSlice(ctx: StoreContext): Omit<SessionSlice, keyof ProfileData> {
  const { get, runGlobal, requestWith, request, toastOk, activate } = ctx;
  return {
    appStatus: null,
    profiles: [],
    activeProfileId: null,
    sessionRequest: IDLE,
    loadSession: async () => {
      const r = await requestWith(
        async () => {
          const status = await runGlobal('app.status', undefined);
          if ('failure' in status) return status;
          const list = await runGlobal('profiles.list', undefined);
          return 'failure' in list ? list : { data: { appStatus: status.data, ...list.data } };
        },
        'sessionRequest',
        ({ appStatus, profiles }) => ({ appStatus, profiles }),
      );
      if (r) activate(r.data.activeProfileId);
    },
    profileRequest: IDLE,
    selectProfile: async (id) => {
      const r = await request('profiles.select', { id }, 'profileRequest', () => ({}), { global: true, toast: true });
      if (!r) return;
      activate(id);
      toastOk(`Now working on ${r.data.name}.`);
    },
    addProfile: async (input) => {
      const r = await request('profiles.add', input, 'profileRequest', (p) => ({ profiles: [...get().profiles, p] }), { global: true });
      if (!r) return get().profileRequest.error;
      toastOk(`Added ${r.data.name}.`);
      return null;
    },
    updateProfile: async (input) => {
      const r = await request('profiles.update', input, 'profileRequest', (p) => ({ profiles: get().profiles.map((q) => (q.id === p.id ? p : q)) }), {
        global: true,
      });
      if (!r) return get().profileRequest.error;
      toastOk(`Saved ${r.data.name}.`);
      return null;
    },
    removeProfile: async (id) => {
      const r = await request('profiles.remove', { id }, 'profileRequest', () => ({}), { global: true, toast: true });
      if (!r) return;
      await get().loadSession();
      toastOk('Profile removed.');
    },
  };
}
