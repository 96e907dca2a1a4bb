// Product words instead of the program's names ("Reset a key's HWID", "10 keys"); every operation's words are in
// src/shared/operation-words.ts, and `plain()` is the last guard on any text for the screen.
import { isOperation, operationWords, RETIRED_WORDS } from '../../../shared/operation-words.ts';
import type { Failure } from '../../../shared/result.ts';
import { fmt, NOUNS } from './format.ts';

export { operationWords };

/** A dotted name that could be an operation id: "keys.resetHwid". */
const ID = /\b[a-z]+\.[a-z][A-Za-z]*\b/g;
/** "10 key(s)", "1 operation(s)". */
const HEDGED_PLURAL = /\b(\d[\d,]*) (key|entry|entrie|operation|day|execution|match)\(e?s\)/g;
const NOUN_OF: Record<string, (typeof NOUNS)[keyof typeof NOUNS]> = {
  key: NOUNS.key,
  entry: NOUNS.entry,
  entrie: NOUNS.entry,
  operation: NOUNS.operation,
  day: NOUNS.day,
  execution: NOUNS.execution,
  match: NOUNS.match,
};

/** Text from main in product words: an operation id becomes its words, "3 key(s)" a real plural (old activity rows). */
export function plain(text: string): string {
  return text
    .replace(ID, (id) => (isOperation(id) || id in RETIRED_WORDS ? `“${operationWords(id)}”` : id))
    .replace(HEDGED_PLURAL, (_all, n: string, noun: string) => fmt.count(Number(n.replace(/,/g, '')), NOUN_OF[noun] ?? NOUNS.key));
}

/** Why the service counts as unreachable, as the failure and the browser tell it. */
export type OfflineCause = 'no-network' | 'refused' | 'slow' | 'down';

/** The cause of an offline failure, from main's client words ("refused the connection") and whether the machine is online. */
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

/** Changes whose answer was lost, named: "“Push an execution”", "“Extend a key” and “Delete a key”". */
export function unknownWords(operations: readonly string[]): string {
  const named = operations.map((o) => `“${operationWords(o)}”`);
  return named.length <= 1 ? (named[0] ?? 'A change') : `${named.slice(0, -1).join(', ')} and ${named.at(-1) ?? ''}`;
}
