// Every operation's handler, gathered from the handler rooms over one core.
import type { Core } from '../core.ts';
import { appHandlers } from './app.ts';
import { driftHandlers } from './drift.ts';
import { customerHandlers } from './customers.ts';
import { executionHandlers } from './executions.ts';
import { jobHandlers } from './jobs.ts';
import { keyHandlers } from './keys.ts';
import { ledgerHandlers } from './ledger.ts';
import { overviewHandlers } from './overview.ts';
import { lookupHandlers } from './lookups.ts';
import { profileHandlers } from './profiles.ts';
import { renewalHandlers } from './renewals.ts';
import { serviceFactHandlers } from './service-facts.ts';
import { serviceHandlers } from './service.ts';
import { settingsHandlers } from './settings.ts';
import type { Handlers } from './types.ts';

/** Every operation's handler over one core. */
export function createHandlers(core: Core): Handlers {
  return {
    ...appHandlers(core),
    ...profileHandlers(core),
    ...executionHandlers(core),
    ...keyHandlers(core),
    ...ledgerHandlers(core),
    ...jobHandlers(core),
    ...lookupHandlers(core),
    ...serviceHandlers(core),
    ...settingsHandlers(core),
    ...driftHandlers(core),
    ...overviewHandlers(core),
    ...renewalHandlers(core),
    ...customerHandlers(core),
    ...serviceFactHandlers(core),
  };
}

export type { Handlers };
