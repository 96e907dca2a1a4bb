// The key routes: generate, delete, extend, reset HWID and search.
import { fixedExpiryProblem, LIMITS } from '../../shared/rules.ts';
import type { DeleteKeyBody, DetailBody, FetchGeneratedBody, FetchKeyBody, KeyBody } from '../../shared/wire.ts';
import { invalid } from '../errors.ts';
import { batchJsonChunks, type ResetRules } from '../store.ts';
import {
  counted,
  ok,
  pagedSearch,
  RawJson,
  Streamed,
  type Reply,
  type SandboxLimits,
  type ServiceHandler,
  type ServiceContext,
} from './types.ts';

type Body<T> = Omit<T, 'success'>;

function generate({ params, store, service }: ServiceContext): Reply<DetailBody<'generateKeyPost'>> {
  const expire = params.requiredDate('expire');
  const count = params.requiredInt('count', LIMITS.countMin, LIMITS.countMax);
  const isPremium = params.requiredBool('isPremium');
  const note = params.string('note', LIMITS.noteMaxChars) ?? '';
  const expiresByDaysKey = params.bool('expiresByDaysKey') ?? false;
  // The official JS client spells it daysKeys; both spellings are one parameter.
  const daysKey = params.int(['daysKey', 'daysKeys'], LIMITS.daysMin, LIMITS.daysMax);
  const noHwidValidation = params.bool('noHwidValidation') ?? false;
  if (expiresByDaysKey && daysKey === undefined) throw invalid('daysKey is required when expiresByDaysKey is true.');
  if (!expiresByDaysKey) {
    const problem = fixedExpiryProblem(expire, store.now());
    if (problem) throw invalid(problem);
  }
  const batch = store.generateKeys(service.id, {
    count,
    isPremium,
    note,
    expire,
    expiresByDaysKey,
    daysKey: daysKey ?? null,
    noHwidValidation,
  });
  const message = `Generated ${counted(count, 'key')} successfully`;
  const text = JSON.stringify(message);
  return {
    status: 201,
    body: new Streamed((dialect) =>
      dialect === 'real'
        ? new RawJson(batchJsonChunks(batch, `{"message":${text},"generatedKeys":`, '}', undefined, 'real'))
        : new RawJson(batchJsonChunks(batch, `{"success":true,"message":${text},"generatedKeys":`, '}')),
    ),
  };
}

export const generateKey: ServiceHandler<DetailBody<'generateKeyPost'>> = { auth: 'service', handle: generate };

export const deleteKey: ServiceHandler<DetailBody<'deleteKey'>> = {
  auth: 'service',
  handle: ({ params, store, service }) =>
    ok({
      message: 'Key deleted successfully',
      deletedKey: store.deleteKey(service.id, params.requiredString('keyValue'), false),
    } satisfies Body<DeleteKeyBody>),
};

export const deleteGeneratedKey: ServiceHandler<DetailBody<'deleteGeneratedKey'>> = {
  auth: 'service',
  handle: ({ params, store, service }) =>
    ok({
      message: 'Generated key deleted successfully',
      deletedKey: store.deleteKey(service.id, params.requiredString('keyValue'), true),
    } satisfies Body<DeleteKeyBody>),
};

export const expandExpiration: ServiceHandler<DetailBody<'expandExpiration'>> = {
  auth: 'service',
  handle: ({ params, store, service }) => {
    const keyValue = params.requiredString('keyValue');
    const days = params.requiredInt('days', LIMITS.daysMin, LIMITS.daysMax);
    const key = store.extendKey(service.id, keyValue, days);
    return ok({ message: `Key extended by ${counted(days, 'day')}`, key } satisfies Body<KeyBody>);
  },
};

export const resetHwid: ServiceHandler<DetailBody<'resetHwid'>> = {
  auth: 'service',
  handle: ({ params, store, service, limits }) =>
    ok({
      message: 'HWID reset successfully',
      key: store.resetHwid(service.id, params.requiredString('keyValue'), resetRules(limits)),
    } satisfies Body<KeyBody>),
};

export const resetRules = (limits: SandboxLimits): ResetRules => ({
  cooldownMinutes: limits.hwidResetCooldownMinutes,
  limit: limits.hwidResetLimit,
});

export const fetchKey: ServiceHandler<DetailBody<'fetchKey'>> = {
  auth: 'service',
  handle: ({ params, store, service }) => {
    const page = pagedSearch(
      params,
      (term, limit, offset) => store.searchKeys(service.id, 'active', term, limit, offset),
      'No active key matches that value, HWID or note.',
    );
    return ok({
      message: `Found ${counted(page.total, 'active key')}`,
      key: page.best,
      keys: page.items,
      total: page.total,
    } satisfies Body<FetchKeyBody>);
  },
};

export const fetchGeneratedKey: ServiceHandler<DetailBody<'fetchGeneratedKey'>> = {
  auth: 'service',
  handle: ({ params, store, service }) => {
    const page = pagedSearch(
      params,
      (term, limit, offset) => store.searchKeys(service.id, 'generated', term, limit, offset),
      'No generated key matches that value or note.',
    );
    return ok({
      message: `Found ${counted(page.total, 'generated key')}`,
      generatedKey: page.best,
      generatedKeys: page.items,
      total: page.total,
    } satisfies Body<FetchGeneratedBody>);
  },
};
