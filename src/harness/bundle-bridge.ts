// Bundles the harness page's bridge script (bridge-entry.ts: the shared bridge builder with the loopback
// transport, from the same TypeScript the preload uses) into one classic script, and prints it. Run as its own
// short-lived process by bridge-script.ts, so the bundler (a native addon with its own threads and heap, ~30 MiB)
// never stays in the harness process, which stands for Electron's main process in the memory figures.
import { join } from 'node:path';
import { build } from 'rolldown';

const output = await build({
  input: join(import.meta.dirname, 'bridge-entry.ts'),
  platform: 'browser',
  write: false,
  output: { format: 'iife', minify: false },
});
const [chunk] = output.output;
process.stdout.write(chunk.code);
