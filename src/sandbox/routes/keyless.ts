// The keyless-list routes.
import { LIMITS } from '../../shared/rules.ts';
import type { DetailBody, FetchKeylessBody, KeylessBody } from '../../shared/wire.ts';
import { counted, ok, pagedSearch, type ServiceHandler } from './types.ts';

export const addKeyless: ServiceHandler<DetailBody<'addKeyless'>> = {
  auth: 'service',
  handle: ({ params, store, service }) => {
    const hwid = params.requiredString('hwid');
    const isPremium = params.bool('isPremium') ?? false;
    const days = params.int('days', LIMITS.daysMin, LIMITS.daysMax) ?? null;
    const keyless = store.addKeyless(service.id, hwid, isPremium, days);
    return ok({ message: 'Keyless entry added successfully', keyless } satisfies Omit<KeylessBody, 'success'>, 201);
  },
};

export const fetchKeyless: ServiceHandler<DetailBody<'fetchKeyless'>> = {
  auth: 'service',
  handle: ({ params, store, service }) => {
    const page = pagedSearch(
      params,
      (term, limit, offset) => store.searchKeyless(service.id, term, limit, offset),
      'No keyless entry has a HWID containing that text.',
    );
    return ok({
      message: `Found ${counted(page.total, 'keyless entry', 'keyless entries')}`,
      keyless: page.best,
      keylessEntries: page.items,
      total: page.total,
    } satisfies Omit<FetchKeylessBody, 'success'>);
  },
};

export const deleteKeyless: ServiceHandler<DetailBody<'deleteKeyless'>> = {
  auth: 'service',
  handle: ({ params, store, service }) => {
    store.deleteKeyless(service.id, params.requiredString('hwid'));
    return ok({ message: 'Keyless entry deleted successfully' });
  },
};
