// Handlers for the drift watch: the last check's findings, and a check now.
import { ok } from '../../shared/result.ts';
import type { Core } from '../core.ts';
import { checkDrift, driftStatus } from '../drift/drift-watch.ts';
import type { Handlers } from './types.ts';

export const driftHandlers = (core: Core): Pick<Handlers, 'drift.status' | 'drift.check'> => ({
  'drift.status': ({ profileId }) => Promise.resolve(ok(driftStatus(core, profileId))),
  'drift.check': ({ profileId }) => checkDrift(core, profileId),
});
