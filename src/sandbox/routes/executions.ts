// The execution-count routes.
import type { DetailBody, ExecutionCountBody } from '../../shared/wire.ts';
import { ok, type ServiceHandler } from './types.ts';

export const pushExecutionCount: ServiceHandler<DetailBody<'pushExecutionCount'>> = {
  auth: 'service',
  handle: async ({ executions, service }) =>
    ok({
      message: 'Execution count incremented successfully',
      executionCount: await executions.push(service.id),
    } satisfies Omit<ExecutionCountBody, 'success'>),
};

export const executionCount: ServiceHandler<DetailBody<'executionCount'>> = {
  auth: 'service',
  handle: ({ store, service }) =>
    ok({
      message: 'Execution count retrieved successfully',
      executionCount: store.executionCount(service.id),
    } satisfies Omit<ExecutionCountBody, 'success'>),
};
