// The handler of every wire route.
import type { RouteName } from '../../shared/wire.ts';
import { executionCount, pushExecutionCount } from './executions.ts';
import { identifierCheck } from './identifier.ts';
import { addKeyless, deleteKeyless, fetchKeyless } from './keyless.ts';
import { deleteGeneratedKey, deleteKey, expandExpiration, fetchGeneratedKey, fetchKey, generateKey, resetHwid } from './keys.ts';
import { editGeneratedKey, editKey, resetHwidPublic } from './optional.ts';
import type { HandlerFor } from './types.ts';
import { validate } from './validation.ts';

/** A missing handler, or one whose apiKey check disagrees with the route table, does not compile. */
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
  editKey,
  editGeneratedKey,
  resetHwidPublic,
  validate,
};
