// Every operation in words ("Reset a key's HWID", not "keys.resetHwid") for the Activity log, error lines
// and audit targets.
import type { OperationName } from './contract.ts';

export const OPERATION_WORDS: Readonly<Record<OperationName, string>> = {
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
};
/** Names earlier versions wrote to the activity log. */
export const RETIRED_WORDS: Readonly<Record<string, string>> = {
  'keys.bulk': 'Bulk action on keys',
  'keys.bulkCancel': 'Cancel a bulk action',
};

export const isOperation = (id: string): id is OperationName => Object.hasOwn(OPERATION_WORDS, id);

/** An operation (or a retired one from an old log row) in words; an id unknown to this version is shown as it is. */
export const operationWords = (id: string): string => (isOperation(id) ? OPERATION_WORDS[id] : (RETIRED_WORDS[id] ?? id));

/** "1 key", "100,000 keys": a count of keys in words, for main's messages and audit targets. */
export const keyCount = (n: number): string => `${n.toLocaleString('en-US')} ${n === 1 ? 'key' : 'keys'}`;
