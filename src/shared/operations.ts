// Operation and event names alone, so the sandboxed preload builds the bridge without zod.
// contract.ts is checked against this list at compile time.
export const OPERATION_NAMES = [
  'app.startup',
  'app.startAgain',
  'app.status',
  'profiles.list',
  'profiles.add',
  'profiles.update',
  'profiles.remove',
  'profiles.select',
  'executions.get',
  'executions.push',
  'executions.history',
  'keys.generate',
  'keys.lookup',
  'keys.fetchActive',
  'keys.fetchGenerated',
  'keys.delete',
  'keys.extend',
  'keys.resetHwid',
  'keys.export',
  'ledger.query',
  'ledger.export',
  'identifier.check',
  'keyless.lookup',
  'keyless.add',
  'keyless.delete',
  'hwid.read',
  'validation.run',
  'audit.list',
  'audit.export',
  'jobs.start',
  'jobs.list',
  'jobs.get',
  'jobs.items',
  'jobs.cancel',
  'jobs.resume',
  'jobs.export',
  'jobs.forget',
  'jobs.getCeiling',
  'jobs.setCeiling',
] as const;
export type OperationName = (typeof OPERATION_NAMES)[number];

export const EVENT_NAMES = [
  'app.startup',
  'jobs.progress',
  'sandbox.stateChanged',
  'executions.sampled',
  'ledger.changed',
  'backup.changed',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

/** IPC channel names, derived here once for main and preload. */
export const operationChannel = (name: OperationName): string => `keydesk:op:${name}`;
export const eventChannel = (name: EventName): string => `keydesk:event:${name}`;
