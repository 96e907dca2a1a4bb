// Handlers for Overview (home): the keys' figures and per-day activity from the ledger, and the first-run steps.
import { FIRST_RUN_STEPS, type FirstRunStep } from '../../shared/domain.ts';
import { ok } from '../../shared/result.ts';
import type { Core } from '../core.ts';
import { needsProfile, type Handlers } from './types.ts';

/** Notes a first-run step done on the profile; a failed write only leaves the step unticked. */
export function markStep(core: Core, profileId: string, step: FirstRunStep): void {
  core.writer.run('firstRunStep', { profileId, step, at: new Date().toISOString() }).catch((error: unknown) => {
    console.error('keydesk: noting a first-run step failed:', error);
  });
}

/**
 * The steps done on the profile: noted ones, and those the ledger and the profiles show done (noted now); null when
 * the checklist is not this profile's: it held keys when first asked (the checklist begins on a profile with none).
 */
async function stepsDone(core: Core, profileId: string): Promise<FirstRunStep[] | null> {
  const done = new Set(core.db.firstRunSteps(profileId));
  if (!done.has('shown')) {
    if (core.db.ledgerSize(profileId) > 0) return null;
    await core.writer.run('firstRunStep', { profileId, step: 'shown', at: new Date().toISOString() });
  }
  const seen: FirstRunStep[] = [];
  if (!done.has('generate') && core.db.ledgerSize(profileId) > 0) seen.push('generate');
  if (!done.has('service') && core.profiles.list().some((p) => p.kind === 'remote')) seen.push('service');
  for (const step of seen) {
    await core.writer.run('firstRunStep', { profileId, step, at: new Date().toISOString() });
    done.add(step);
  }
  return FIRST_RUN_STEPS.filter((s) => done.has(s));
}

export const overviewHandlers = (
  core: Core,
): Pick<Handlers, 'overview.figures' | 'overview.activity' | 'overview.firstRun' | 'overview.markStep'> => ({
  'overview.figures': needsProfile(core, (_input, p) => ok(core.db.overviewFigures(p.id))),
  'overview.activity': needsProfile(core, ({ days }, p) => ok({ days: core.db.keyActivity(p.id, days) })),
  'overview.firstRun': needsProfile(core, async (_input, p) => ok({ done: await stepsDone(core, p.id) })),
  'overview.markStep': needsProfile(core, async ({ step }, p) => {
    await core.writer.run('firstRunStep', { profileId: p.id, step, at: new Date().toISOString() });
    return ok({ done: await stepsDone(core, p.id) });
  }),
});
