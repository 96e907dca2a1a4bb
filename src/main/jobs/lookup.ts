// A read-only job's request: a key looked up by its exact value (active keys, then generated ones), and what that
// says against the ledger's row (an import's find, a refresh's changes).
import type { Key, LedgerRow } from '../../shared/domain.ts';
import { IMPORT_FOUND_WORDS, refreshItemWords, type ImportFound, type RefreshChange } from '../../shared/job-words.ts';
import type { Failure } from '../../shared/result.ts';
import type { Call, ServiceClient } from '../client/service-client.ts';

export type Found = { ok: true; key: Key | null } | Failure;

/** The key as the service has it now, null when neither list holds it, or the failure that left it unknown. */
export async function lookUp(client: ServiceClient, value: string, call: Call): Promise<Found> {
  for (const fetch of [client.fetchActive.bind(client), client.fetchGenerated.bind(client)]) {
    // The best match comes first, and an exact value is the best: one is enough.
    const r = await fetch(value, 1, undefined, call);
    if (r.ok) {
      const key = r.data.keys.find((k) => k.value === value);
      if (key) return { ok: true, key };
    } else if (r.code !== 'NOT_FOUND') return r;
  }
  return { ok: true, key: null };
}

/** An import's item: what was found, as its code and words. */
export function importFind(key: Key | null): { code: ImportFound; message: string } {
  const code: ImportFound = key === null ? 'absent' : key.status === 'active' ? 'active' : 'generated';
  const words = IMPORT_FOUND_WORDS[code];
  return { code, message: words.charAt(0).toUpperCase() + words.slice(1) };
}

/** What changed elsewhere since the ledger last saw a key; a key the ledger did not hold has no "before" to differ from. */
export function changesOf(before: LedgerRow | null, after: Key | null): RefreshChange[] {
  if (before === null) return [];
  if (after === null) return before.status === 'deleted' ? [] : ['deleted'];
  const changes: RefreshChange[] = [];
  if (after.status === 'active' && before.status === 'generated') changes.push('activated');
  if (before.status === 'active' && after.hwid !== null && after.hwid !== before.hwid) changes.push('hwidChanged');
  if (before.hwid !== null && after.hwid === null) changes.push('hwidCleared');
  if (before.expiresAt !== null && after.expiresAt !== null && after.expiresAt > before.expiresAt) changes.push('extended');
  return changes;
}

/** A refresh's item: its changes as a comma list (null: none) and in words. */
export function refreshFind(changes: readonly RefreshChange[]): { code: string | null; message: string | null } {
  return changes.length === 0 ? { code: null, message: null } : { code: changes.join(','), message: refreshItemWords(changes) };
}
