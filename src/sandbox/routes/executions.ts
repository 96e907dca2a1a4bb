import type { ExecutionCountBody } from '../../shared/wire.ts';
import { ok, type RouteHandler } from './types.ts';

export const pushExecutionCount: RouteHandler = {
  auth: 'service',
  handle: async ({ executions, service }) =>
    ok({
      message: 'Execution count incremented successfully',
      executionCount: await executions.push(service.id),
    } satisfies Omit<ExecutionCountBody, 'success'>),
};

export const executionCount: RouteHandler = {
  auth: 'service',
  handle: ({ store, service }) =>
    ok({
      message: 'Execution count retrieved successfully',
      executionCount: store.executionCount(service.id),
    } satisfies Omit<ExecutionCountBody, 'success'>),
};
