import type { Key } from '../../shared/domain.ts';
import type { ServiceClient } from './service-client.ts';

/**
 * The key after a change the service made but did not fully describe (the real dialect answers a reset with
 * `{message}` alone, and an extend with a key without its status; some services answer an extend with
 * `{message}` alone): read it back, active keys first. `given` when it cannot be read back; the change itself
 * stands.
 */
export async function readBack(client: ServiceClient, keyValue: string, given: Key | null): Promise<Key | null> {
  if (given && !given.unreported?.includes('status')) return given;
  for (const fetch of [client.fetchActive.bind(client), client.fetchGenerated.bind(client)]) {
    const r = await fetch(keyValue, 1);
    const found = r.ok ? r.data.keys.find((k) => k.value === keyValue) : undefined;
    if (found) return found;
  }
  return given;
}
