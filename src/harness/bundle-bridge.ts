// Bundles the harness page's bridge script (bridge-entry.ts) into one classic script and prints it. A process of
// its own, so the bundler's native heap never stays in the harness, which stands for main in memory figures.
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
