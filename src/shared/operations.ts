// Every operation's name with its words ("Reset a key's HWID") for Activity, error lines and audit targets, and the
// event names: plain data, so the sandboxed preload needs no zod; contract.ts must name exactly these operations.
export const OPERATION_WORDS = {
  'app.startup': "Read how far Keydesk's start is",
  'app.startAgain': 'Start Keydesk again',
  'app.status': 'Read the app status',
  'profiles.list': 'List the services',
  'profiles.add': 'Add a service',
  'profiles.update': 'Edit a service',
  'profiles.remove': 'Remove a service',
  'profiles.select': 'Switch service',
  'executions.get': 'Read the execution count',
  'executions.push': 'Push an execution',
  'executions.history': 'Read the execution history',
  'keys.generate': 'Generate keys',
  'keys.lookup': 'Find keys',
  'keys.fetchActive': 'Find active keys',
  'keys.fetchGenerated': 'Find generated keys',
  'keys.delete': 'Delete a key',
  'keys.extend': 'Extend a key',
  'keys.resetHwid': "Reset a key's HWID",
  'keys.export': 'Export keys',
  'ledger.query': 'List All keys',
  'ledger.export': 'Export All keys',
  'ledger.cutShort': 'List generates cut short',
  'ledger.findCutShort': 'Find the keys of a generate cut short',
  'ledger.dismissCutShort': 'Dismiss a generate cut short',
  'identifier.check': 'Check an identifier',
  'keyless.lookup': 'Find keyless entries',
  'keyless.add': 'Add a keyless entry',
  'keyless.delete': 'Delete a keyless entry',
  'hwid.read': "Read this machine's HWIDs",
  'validation.run': 'Validate',
  'audit.list': 'Read the activity',
  'audit.export': 'Export the activity',
  'jobs.start': 'Bulk action on keys',
  'jobs.list': 'List bulk actions',
  'jobs.get': 'Read a bulk action',
  'jobs.items': "Read a bulk action's keys",
  'jobs.cancel': 'Cancel a bulk action',
  'jobs.resume': 'Resume a bulk action',
  'jobs.export': 'Export a bulk action',
  'jobs.forget': 'Remove a job from the list',
  'jobs.getCeiling': 'Read the bulk request limit',
  'jobs.setCeiling': 'Set the bulk request limit',
  'service.capabilities': 'Read what the service can do',
  'service.checkCapabilities': 'Check what the service can do',
  'keys.edit': 'Edit a key',
  'keys.hwidHistory': "Read a key's HWID history",
} as const;
export type OperationName = keyof typeof OPERATION_WORDS;
export const OPERATION_NAMES = Object.keys(OPERATION_WORDS) as unknown as readonly [OperationName, ...OperationName[]];

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
