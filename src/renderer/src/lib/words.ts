// What a person reads instead of the program's own names: the Activity log and error lines say "Reset a key's
// HWID", not "keys.resetHwid", and "10 keys", not "10 key(s)". Every operation has words here (a new one does
// not compile without them); `plain()` is the last guard on any text main sends for the screen.
import type { OperationName } from '../../../shared/contract.ts';
import type { Failure } from '../../../shared/result.ts';
import { fmt, NOUNS } from './format.ts';

const OPERATION_WORDS: Readonly<Record<OperationName, string>> = {
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
  'jobs.getCeiling': 'Read the bulk request limit',
  'jobs.setCeiling': 'Set the bulk request limit',
};
/** Names earlier versions wrote to the activity log. */
const RETIRED_WORDS: Readonly<Record<string, string>> = {
  'keys.bulk': 'Bulk action on keys',
  'keys.bulkCancel': 'Cancel a bulk action',
};

const isOperation = (id: string): id is OperationName => Object.hasOwn(OPERATION_WORDS, id);

/** An operation (or a retired one from an old log row) in words; an id unknown to this version is shown as it is. */
export const operationWords = (id: string): string => (isOperation(id) ? OPERATION_WORDS[id] : (RETIRED_WORDS[id] ?? id));

/** A dotted name that could be an operation id: "keys.resetHwid". */
const ID = /\b[a-z]+\.[a-z][A-Za-z]*\b/g;
/** "10 key(s)", "1 operation(s)". */
const HEDGED_PLURAL = /\b(\d[\d,]*) (key|entry|entrie|operation|day|execution|match)\(e?s\)/g;
const NOUN_OF: Record<string, (typeof NOUNS)[keyof typeof NOUNS]> = {
  key: NOUNS.key, entry: NOUNS.entry, entrie: NOUNS.entry, operation: NOUNS.operation, day: NOUNS.day, execution: NOUNS.execution, match: NOUNS.match,
};

/**
 * Text from main for the screen, in product words: an operation id becomes its words in quotes, a hedged plural
 * ("3 key(s)") a real one. Main already writes this way; old activity rows and any slip are caught here.
 */
export function plain(text: string): string {
  return text
    .replace(ID, (id) => (isOperation(id) || id in RETIRED_WORDS ? `“${operationWords(id)}”` : id))
    .replace(HEDGED_PLURAL, (_all, n: string, noun: string) => fmt.count(Number(n.replace(/,/g, '')), NOUN_OF[noun] ?? NOUNS.key));
}

/** Why the service counts as unreachable, as the failure and the browser tell it. */
export type OfflineCause = 'no-network' | 'refused' | 'slow' | 'down';

/**
 * The cause of an offline failure. Main's detail names what the connection met (its client's words: "refused the
 * connection", "was not found (DNS)"); the browser knows whether this machine has a network at all.
 */
export function offlineCause(reason: Failure | null, networkUp: boolean): OfflineCause {
  if (!networkUp) return 'no-network';
  if (!reason) return 'down';
  if (reason.code === 'TIMEOUT') return 'slow';
  const detail = reason.detail ?? '';
  if (/refused the connection/i.test(detail)) return 'refused';
  if (/not found \(DNS\)|ENOTFOUND|EAI_AGAIN|ENETUNREACH/i.test(detail)) return 'no-network';
  return 'down';
}

/** The offline banner's first sentence, by cause. */
export function offlineHeadline(cause: OfflineCause, name: string): string {
  switch (cause) {
    case 'no-network':
      return `Keydesk cannot reach ${name}: this computer seems to have no network. Check the connection.`;
    case 'refused':
      return `${name} refused the connection: it is probably not running. Start it, or check the port in its address.`;
    case 'slow':
      return `${name} did not answer in time: it may be overloaded or far away.`;
    case 'down':
      return `${name} is not answering.`;
  }
}
