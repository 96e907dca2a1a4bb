// Reads a key back after a change the service did not fully describe (the real dialect's terse answers).
import type { Key } from '../../shared/domain.ts';
import type { Call, ServiceClient } from './service-client.ts';

/** The key read back, active keys first; `given` when it cannot be, and the change itself stands. */
export async function readBack(client: ServiceClient, keyValue: string, given: Key | null, call: Call = {}): Promise<Key | null> {
  if (given && !given.unreported?.includes('status')) return given;
  for (const fetch of [client.fetchActive.bind(client), client.fetchGenerated.bind(client)]) {
    const r = await fetch(keyValue, 1, undefined, call);
    const found = r.ok ? r.data.keys.find((k) => k.value === keyValue) : undefined;
    if (found) return found;
  }
  return given;
}
