// Keydesk's own settings, as main keeps them in settings.json: read once the session is up (the theme applies at
// once), changed one field at a time, and the local sandbox's port.
import type { Failure } from '../../../shared/result.ts';
import { applyTheme } from '../lib/theme.ts';
import { IDLE } from './request.ts';
import type { SettingsSlice, StoreContext } from './types.ts';

export function createSettingsSlice(ctx: StoreContext): SettingsSlice {
  const { get, set, request, runGlobal, toastOk } = ctx;
  const shown = (state: NonNullable<SettingsSlice['settingsState']>) => {
    applyTheme(state.settings.theme);
    return { settingsState: state };
  };
  return {
    settingsState: null,
    settingsRequest: IDLE,
    sandboxPortRequest: IDLE,
    loadSettings: async () => {
      await request('settings.get', undefined, 'settingsRequest', shown, { global: true });
    },
    changeSetting: async (change) => {
      // Shown at once (a theme is seen as it is picked); put back as it was if main refuses it.
      const was = get().settingsState;
      const now = was && { ...was, settings: { ...was.settings, ...change } };
      if (now) applyTheme(now.settings.theme);
      const r = await request('settings.set', change, 'settingsRequest', shown, {
        global: true,
        toast: true,
        before: { settingsState: now },
        onFailure: { settingsState: was },
      });
      if (r) return null;
      if (was) applyTheme(was.settings.theme);
      return get().settingsRequest.error;
    },
    setSandboxPort: async (port): Promise<Failure | null> => {
      const r = await request('settings.setSandboxPort', { port }, 'sandboxPortRequest', shown, { global: true });
      if (!r) return get().sandboxPortRequest.error;
      const { sandbox } = r.data;
      // The sandbox profile's address changed with it: the switcher and every view read the new one.
      const listed = await runGlobal('profiles.list', undefined);
      const status = get().appStatus;
      set({
        ...('data' in listed ? { profiles: listed.data.profiles } : {}),
        ...(status ? { appStatus: { ...status, sandbox: { url: sandbox.url, running: sandbox.running, error: sandbox.error } } } : {}),
      });
      toastOk(sandbox.running ? `The local sandbox now listens at ${sandbox.url ?? ''}.` : 'The local sandbox did not start on that port.');
      return null;
    },
    openDataFolder: async () => {
      const r = await runGlobal('settings.openDataFolder', undefined);
      if ('failure' in r) get().notifyFailure('settings.openDataFolder', r.failure);
    },
  };
}
