// The app's status and its profiles: which service every other slice talks to.
import type { StartupStatus } from '../../../shared/domain.ts';
import type { Failure } from '../../../shared/result.ts';
import { subscribe } from '../lib/api.ts';
import { IDLE } from './request.ts';
import type { SessionSlice, StoreContext } from './types.ts';

/** How often the window asks whether main's start is over, besides hearing it (an event may come before it listens). */
export const STARTUP_POLL_MS = 1_000;

export function createSessionSlice(ctx: StoreContext): SessionSlice {
  const { get, set, runGlobal, requestWith, request, toastOk, activate } = ctx;

  /** Resolves once main's start is ready or failed; `startup` follows its events and a poll every STARTUP_POLL_MS. */
  const startupDone = (): Promise<{ data: StartupStatus } | { failure: Failure }> =>
    new Promise((resolve) => {
      let finished = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const finish = (answer: { data: StartupStatus } | { failure: Failure }): void => {
        finished = true;
        clearTimeout(timer);
        off();
        resolve(answer);
      };
      /** Shows `status`; true once the start is over (ready or failed). */
      const seen = (status: StartupStatus): boolean => {
        if (finished) return true;
        set({ startup: status });
        if (status.state === 'ready') finish({ data: status });
        else if (status.state === 'failed')
          finish({
            failure: { ok: false, code: 'INTERNAL', message: `Keydesk could not start: ${status.failure ?? 'no reason was given.'}` },
          });
        return finished;
      };
      const off = subscribe('app.startup', (status) => seen(status));
      const ask = async (): Promise<void> => {
        const r = await runGlobal('app.startup', undefined);
        if (finished) return;
        if ('failure' in r) {
          finish(r);
          return;
        }
        if (!seen(r.data)) timer = setTimeout(() => void ask(), STARTUP_POLL_MS);
      };
      void ask();
    });

  let backupOff: (() => void) | null = null;

  return {
    startup: null,
    backupProblem: null,
    appStatus: null,
    profiles: [],
    activeProfileId: null,
    sessionRequest: IDLE,
    loadSession: async () => {
      const r = await requestWith(
        async () => {
          const started = await startupDone();
          if ('failure' in started) return started;
          const status = await runGlobal('app.status', undefined);
          if ('failure' in status) return status;
          const list = await runGlobal('profiles.list', undefined);
          return 'failure' in list ? list : { data: { appStatus: status.data, ...list.data } };
        },
        'sessionRequest',
        ({ appStatus, profiles }) => ({ appStatus, profiles }),
      );
      if (!r) return;
      activate(r.data.activeProfileId);
      // Jobs keep running while any view is shown (another profile's too): every view hears them from here.
      get().followJobs();
      // The theme chosen in Settings, applied as soon as main can say it.
      void get().loadSettings();
      backupOff ??= subscribe('backup.changed', ({ problem }) => {
        set({ backupProblem: problem });
      });
    },
    startAgain: async (restore) => {
      await runGlobal('app.startAgain', { restore });
      // Whatever it answered (a start already under way, say), the start screen follows main's own state.
      await get().loadSession();
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
      const r = await request(
        'profiles.update',
        input,
        'profileRequest',
        (p) => ({ profiles: get().profiles.map((q) => (q.id === p.id ? p : q)) }),
        {
          global: true,
        },
      );
      if (!r) return get().profileRequest.error;
      toastOk(`Saved ${r.data.name}.`);
      return null;
    },
    askRemoval: async (profileId) => {
      const [jobs, listed] = await Promise.all([runGlobal('jobs.list', undefined), runGlobal('profiles.list', undefined)]);
      if ('data' in listed) set({ profiles: listed.data.profiles });
      if ('failure' in jobs) return null;
      return [...jobs.data.jobs, ...jobs.data.elsewhere].find((j) => j.profileId === profileId && j.finishedAt === null) ?? null;
    },
    loadDrift: async (profileId) => {
      const r = await runGlobal('drift.status', { profileId });
      return 'data' in r ? r.data : null;
    },
    checkDrift: async (profileId) => {
      const r = await runGlobal('drift.check', { profileId });
      return 'data' in r ? r.data : r.failure;
    },
    removeProfile: async (id) => {
      const r = await request('profiles.remove', { id }, 'profileRequest', () => ({}), { global: true, toast: true });
      if (!r) return;
      await get().loadSession();
      toastOk('Profile removed.');
    },
  };
}
