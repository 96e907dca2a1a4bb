// Key edits on a service that has the optional edit endpoints (wire.md, "Seen in vendors' code"): sent once.
import type { Key } from '../../shared/domain.ts';
import type { Result } from '../../shared/result.ts';
import { readKey } from './read.ts';
import type { Call, ServiceClient } from './service-client.ts';

/** What an edit changes: only the fields given. */
export interface EditFields {
  note?: string | undefined;
  isPremium?: boolean | undefined;
  noHwidValidation?: boolean | undefined;
  expiresByDaysKey?: boolean | undefined;
  daysKey?: number | undefined;
}

/** The edited key, or null when the service answered `{message}` alone (the caller reads it back). */
export function editKey(
  client: ServiceClient,
  keyValue: string,
  state: Key['status'],
  fields: EditFields,
  call: Call = {},
): Promise<Result<Key | null>> {
  const generated = state === 'generated';
  return client.send(generated ? 'editGeneratedKey' : 'editKey', { keyValue, ...fields }, (b) => readKey(b.key ?? b.generatedKey, state), {
    ...call,
    probablyDone: 'the key was probably changed: look it up before editing again',
  });
}
