// Operation words beyond operations.ts's table: bulk acts, the names older versions wrote to the activity log, and
// key counts.
import { OPERATION_WORDS, type OperationName } from './operations.ts';

export { OPERATION_WORDS };

/** Names earlier versions wrote to the activity log. */
export const RETIRED_WORDS: Readonly<Record<string, string>> = {
  'keys.bulk': 'Bulk action on keys',
  'keys.bulkCancel': 'Cancel a bulk action',
};

export const isOperation = (id: string): id is OperationName => Object.hasOwn(OPERATION_WORDS, id);

/** An operation (or a retired one from an old log row) in words; an id unknown to this version is shown as it is. */
export const operationWords = (id: string): string => (isOperation(id) ? OPERATION_WORDS[id] : (RETIRED_WORDS[id] ?? id));

/** A bulk act's words in Activity (its entry's action is the one its items do). */
export const BULK_WORDS: Readonly<Partial<Record<OperationName, string>>> = {
  'keys.delete': 'Bulk delete',
  'keys.extend': 'Bulk extend',
  'keys.resetHwid': 'Bulk HWID reset',
  'keys.generate': 'Generate as a job',
  'keys.edit': 'Bulk edit',
};

/** A bulk entry's operation in words ("Bulk extend"); an action with none, as a single act's. */
export const bulkWords = (id: string): string => (isOperation(id) ? BULK_WORDS[id] : undefined) ?? operationWords(id);

/** "1 key", "100,000 keys": a count of keys in words, for main's messages and audit targets. */
export const keyCount = (n: number): string => `${n.toLocaleString('en-US')} ${n === 1 ? 'key' : 'keys'}`;
