// The harness page's bridge script: the shared bridge builder with the loopback transport, bundled from the
// same TypeScript the preload uses into one classic script, when the harness starts.
import { join } from 'node:path';
import { build } from 'rolldown';

export { BRIDGE_PATH, EVENTS_PATH, RPC_PREFIX, TOKEN_HEADER, TOKEN_META } from './loopback-bridge.ts';

export async function buildBridgeScript(): Promise<string> {
  const output = await build({
    input: join(import.meta.dirname, 'bridge-entry.ts'),
    platform: 'browser',
    write: false,
    output: { format: 'iife', minify: false },
  });
  const [chunk] = output.output;
  return chunk.code;
}
