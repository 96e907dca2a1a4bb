// Operation ids as a person reads them: the Activity log and error lines say "Reset a key's HWID", not
// "keys.resetHwid". An id without words here (a new operation) is shown as it is rather than hidden.
const OPERATION_WORDS: Readonly<Record<string, string>> = {
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
  'keys.bulk': 'Bulk action on keys',
  'keys.bulkCancel': 'Cancel a bulk action',
  'keys.export': 'Export keys',
  'jobs.start': 'Bulk action on keys',
  'jobs.cancel': 'Cancel a bulk action',
  'ledger.export': 'Export All keys',
  'identifier.check': 'Check an identifier',
  'keyless.lookup': 'Find keyless entries',
  'keyless.add': 'Add a keyless entry',
  'keyless.delete': 'Delete a keyless entry',
  'validation.run': 'Validate',
  'audit.export': 'Export the activity',
};

export const operationWords = (id: string): string => OPERATION_WORDS[id] ?? id;
