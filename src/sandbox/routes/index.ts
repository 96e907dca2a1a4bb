import type { RouteName } from '../../shared/wire.ts';
import { executionCount, pushExecutionCount } from './executions.ts';
import { identifierCheck } from './identifier.ts';
import { addKeyless, deleteKeyless, fetchKeyless } from './keyless.ts';
import { deleteGeneratedKey, deleteKey, expandExpiration, fetchGeneratedKey, fetchKey, generateKey, resetHwid } from './keys.ts';
import type { HandlerFor } from './types.ts';
import { validate } from './validation.ts';

/**
 * One handler per route of the wire contract (src/shared/wire.ts): a route without a handler, or a handler that
 * checks the apiKey where the table says there is none (or the reverse), does not compile.
 */
export const HANDLERS: { readonly [R in RouteName]: HandlerFor<R> } = {
  pushExecutionCount,
  executionCount,
  generateKeyGet: generateKey,
  generateKeyPost: generateKey,
  deleteKey,
  deleteGeneratedKey,
  expandExpiration,
  fetchKey,
  resetHwid,
  fetchGeneratedKey,
  identifierCheck,
  addKeyless,
  fetchKeyless,
  deleteKeyless,
  validate,
};
