import type { RouteName } from '../../shared/wire.ts';
import { executionCount, pushExecutionCount } from './executions.ts';
import { identifierCheck } from './identifier.ts';
import { addKeyless, deleteKeyless, fetchKeyless } from './keyless.ts';
import {
  deleteGeneratedKey,
  deleteKey,
  expandExpiration,
  fetchGeneratedKey,
  fetchKey,
  generateKey,
  resetHwid,
} from './keys.ts';
import type { RouteHandler } from './types.ts';
import { validate } from './validation.ts';

/** One handler per route of the wire contract; a route without a handler does not compile. */
export const HANDLERS: Readonly<Record<RouteName, RouteHandler>> = {
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
