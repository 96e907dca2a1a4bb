// Run by `npm pack`: bundles the sandbox CLI into JavaScript, since Node strips no types under node_modules and
// the package has no dependencies (only Node built-ins stay imports). The commands are a chunk of their own,
// loaded once cli.js has checked the Node: their node:sqlite import would fail an old Node before any check.
import { rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { build } from 'rolldown';

const here = import.meta.dirname;
const dist = join(here, 'dist');
rmSync(dist, { recursive: true, force: true });

const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`), 'node:sqlite']);
const output = await build({
  input: join(here, '../../src/sandbox/cli.ts'),
  platform: 'node',
  // Anything not a Node built-in must be bundled; an unresolved import fails the build rather than the user.
  external: (id) => builtins.has(id),
  output: {
    dir: dist,
    entryFileNames: 'cli.js',
    chunkFileNames: '[name].js',
    format: 'esm',
    banner: '#!/usr/bin/env node',
    minify: false,
  },
});
const imports = output.output.flatMap((chunk) => (chunk.type === 'chunk' ? chunk.imports : []));
const own = new Set(output.output.map((chunk) => chunk.fileName));
const foreign = imports.filter((id) => !builtins.has(id) && !own.has(id));
if (foreign.length > 0) throw new Error(`The sandbox bundle imports more than Node built-ins: ${foreign.join(', ')}`);
// stderr: `npm pack --json` prints its JSON on stdout, after this script has run.
process.stderr.write(
  `keydesk-sandbox: built ${[...own].sort().join(', ')} in dist (imports: ${[...new Set(imports)].sort().join(', ')})\n`,
);
