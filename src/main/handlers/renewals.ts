// Handlers for Renewals: the keys expiring per week, read on the ledger reader's thread, and the profile's message.
import { ok } from '../../shared/result.ts';
import { DEFAULT_RENEWAL_TEMPLATE } from '../../shared/renewals.ts';
import type { Core } from '../core.ts';
import { needsProfile, type Handlers } from './types.ts';

export const renewalHandlers = (core: Core): Pick<Handlers, 'renewals.weeks' | 'renewals.getTemplate' | 'renewals.setTemplate'> => ({
  'renewals.weeks': needsProfile(core, async (_input, p) => ok({ weeks: await core.reader.expiryWeeks(p.id) })),
  'renewals.getTemplate': needsProfile(core, (_input, p) => {
    const template = core.db.renewalTemplate(p.id);
    return ok({ template: template ?? DEFAULT_RENEWAL_TEMPLATE, isDefault: template === null });
  }),
  'renewals.setTemplate': needsProfile(core, async ({ template }, p) => {
    await core.writer.run('renewalTemplate', { profileId: p.id, template });
    return ok({ template: template ?? DEFAULT_RENEWAL_TEMPLATE, isDefault: template === null });
  }),
});
