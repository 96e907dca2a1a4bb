// Handlers for Settings: Keydesk's own settings (settings.json), the local sandbox's port and the data folder.
import type { SettingsState } from '../../shared/contract.ts';
import { fail, ok } from '../../shared/result.ts';
import { SANDBOX_PROFILE_ID, type Core } from '../core.ts';
import type { Handlers } from './types.ts';

type SettingsOps = 'settings.get' | 'settings.set' | 'settings.setSandboxPort' | 'settings.openDataFolder';

export const settingsHandlers = (core: Core): Pick<Handlers, SettingsOps> => {
  const state = (): SettingsState => ({
    settings: core.settings.value,
    problem: core.settings.problem,
    sandbox: { ...core.sandboxState(), port: core.sandboxPort },
    dataFolder: core.options.userDataDir,
  });
  return {
    'settings.get': () => Promise.resolve(ok(state())),
    'settings.set': (input) => {
      core.settings.update(input);
      return Promise.resolve(ok(state()));
    },
    'settings.setSandboxPort': async ({ port }) => {
      if (core.jobs.runsOn(SANDBOX_PROFILE_ID))
        return fail('CONFLICT', 'A job is running on the Local sandbox: wait for it to end (or cancel it), then change the port.');
      await core.setSandboxPort(port ?? 0);
      return ok(state());
    },
    'settings.openDataFolder': async () => {
      if (!core.options.openPath)
        return fail('INTERNAL', `This Keydesk cannot open folders here. Its data folder is ${core.options.userDataDir}.`);
      const problem = await core.options.openPath(core.options.userDataDir);
      return problem === ''
        ? ok(null)
        : fail('INTERNAL', `The data folder could not be opened: ${problem}. It is ${core.options.userDataDir}.`);
    },
  };
};
