// Handlers for the app's own state: startup and status.
import { fail, ok } from '../../shared/result.ts';
import type { Core } from '../core.ts';
import type { Handlers } from './types.ts';

export const appHandlers = (core: Core): Pick<Handlers, 'app.startup' | 'app.startAgain' | 'app.status'> => ({
  // A core exists only once it is up (src/main/startup.ts answers before that).
  'app.startup': () => Promise.resolve(ok({ state: 'ready', failure: null })),
  'app.startAgain': () => Promise.resolve(fail('CONFLICT', 'Keydesk has started already.')),
  'app.status': () =>
    Promise.resolve(
      ok({
        version: core.options.version,
        platform: core.options.platform ?? process.platform,
        sandbox: core.sandboxState(),
        secretStorage: core.secretStorage,
        secretStorageReason: core.secretStorageReason,
        profilesFileProblem: core.profiles.problem,
        activeProfileId: core.profiles.activeProfileId,
      }),
    ),
});
