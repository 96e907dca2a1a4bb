// The optional endpoints vendors' tools call (wire.md, "Seen in vendors' code"): key edits and the end user's reset.
import { LIMITS } from '../../shared/rules.ts';
import { EDIT_FIELDS, type DetailBody, type KeyBody } from '../../shared/wire.ts';
import { invalid } from '../errors.ts';
import type { Params } from '../params.ts';
import type { KeyChanges } from '../store.ts';
import { resetRules } from './keys.ts';
import { ok, type PublicHandler, type ServiceContext, type ServiceHandler } from './types.ts';

/** The fields an edit gives, read by generate's rules; at least one is required. */
function changesOf(params: Params): KeyChanges {
  const changes: KeyChanges = {};
  const note = params.stringOrEmpty('note', LIMITS.noteMaxChars);
  if (note !== undefined) changes.note = note;
  const isPremium = params.bool('isPremium');
  if (isPremium !== undefined) changes.isPremium = isPremium;
  const expiresByDaysKey = params.bool('expiresByDaysKey');
  if (expiresByDaysKey !== undefined) changes.expiresByDaysKey = expiresByDaysKey;
  const daysKey = params.int(['daysKey', 'daysKeys'], LIMITS.daysMin, LIMITS.daysMax);
  if (daysKey !== undefined) changes.daysKey = daysKey;
  const noHwidValidation = params.bool('noHwidValidation');
  if (noHwidValidation !== undefined) changes.noHwidValidation = noHwidValidation;
  if (Object.keys(changes).length === 0) throw invalid(`Give at least one of ${EDIT_FIELDS.join(', ')} to change.`);
  if (expiresByDaysKey === true && daysKey === undefined) throw invalid('daysKey is required when expiresByDaysKey is true.');
  return changes;
}

const edit =
  (state: 'active' | 'generated') =>
  ({ params, store, service }: ServiceContext) => {
    const keyValue = params.requiredString('keyValue');
    const key = store.editKey(service.id, keyValue, state, changesOf(params));
    return ok({ message: 'Key updated successfully', key } satisfies Omit<KeyBody, 'success'>);
  };

export const editKey: ServiceHandler<DetailBody<'editKey'>> = { auth: 'service', handle: edit('active') };
export const editGeneratedKey: ServiceHandler<DetailBody<'editGeneratedKey'>> = { auth: 'service', handle: edit('generated') };

/** No apiKey: the key's holder resets its HWID, under the same cooldown and limit as the vendor's reset. */
export const resetHwidPublic: PublicHandler<DetailBody<'resetHwidPublic'>> = {
  auth: 'public',
  handle: ({ params, store, limits }) => {
    const service = params.requiredString('service');
    const key = params.requiredString('key');
    store.resetHwidPublic(service, key, resetRules(limits));
    return ok({ message: 'HWID reset successfully' });
  },
};
