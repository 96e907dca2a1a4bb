// The identifier check route.
import { isIdentifier } from '../../shared/rules.ts';
import type { DetailBody, IdentifierCheckBody } from '../../shared/wire.ts';
import { invalid } from '../errors.ts';
import { ok, type ServiceHandler } from './types.ts';

/** Service identifiers are global: this says whether any service holds one, and which. */
export const identifierCheck: ServiceHandler<DetailBody<'identifierCheck'>> = {
  auth: 'service',
  handle: ({ params, store }) => {
    const identifier = params.requiredString('identifier');
    if (!isIdentifier(identifier)) throw invalid('identifier must be 1 to 64 letters, digits, dots, underscores or hyphens.');
    const owner = store.serviceByIdentifier(identifier);
    return ok({
      message: owner ? 'The identifier exists' : 'The identifier does not exist',
      exists: owner !== null,
      service: owner?.name ?? null,
    } satisfies Omit<IdentifierCheckBody, 'success'>);
  },
};
