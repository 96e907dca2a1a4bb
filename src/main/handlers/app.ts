import { ok } from '../../shared/result.ts';
import type { Core } from '../core.ts';
import type { Handlers } from './types.ts';

export const appHandlers = (core: Core): Pick<Handlers, 'app.status'> => ({
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
