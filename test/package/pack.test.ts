// The packaged file set, checked offline: electron-builder packs the built app against a stub Electron
// distribution (the real one cannot be downloaded here), and the archive must hold the app and its runtime
// dependencies, and nothing of the sources, tests or tooling. Fuses need the real Electron binary, so this
// check runs without them; the real configuration is validated against electron-builder's schema.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import asar from '@electron/asar';
import { build, Platform } from 'electron-builder';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/sandbox-process.ts';
import { tempDir } from '../support/temp-dir.ts';

describe('electron-builder', () => {
  it('packs out/, package.json and the runtime dependencies only, with keytar unpacked', async () => {
    expect(existsSync(join(ROOT, 'out/main/index.js')), 'run npm run build first (npm test does)').toBe(true);
    const work = tempDir('keydesk-pack-');
    const stub = join(work, 'electron-dist');
    mkdirSync(stub);
    writeFileSync(join(stub, 'electron'), '#!/bin/sh\nexit 0\n');
    chmodSync(join(stub, 'electron'), 0o755);
    const output = join(work, 'dist');
    await build({
      projectDir: ROOT,
      targets: Platform.LINUX.createTarget('dir'),
      config: {
        extends: join(ROOT, 'electron-builder.yml'),
        electronDist: stub,
        electronVersion: '45.4.1',
        directories: { output },
        electronFuses: null,
        publish: null,
      },
    });
    const resources = join(output, 'linux-unpacked', 'resources');
    const files = asar.listPackage(join(resources, 'app.asar'), { isPack: false });
    for (const f of ['/package.json', '/out/main/index.js', '/out/preload/index.cjs', '/out/renderer/index.html'])
      expect(files).toContain(f);
    for (const dep of ['undici', 'zod', 'keytar', 'node-machine-id']) expect(files).toContain(`/node_modules/${dep}/package.json`);
    for (const banned of [
      '/src',
      '/test',
      '/bench',
      '/.ci',
      '/node_modules/electron',
      '/node_modules/vitest',
      '/node_modules/react',
      '/node_modules/typescript',
    ]) {
      expect(
        files.some((f) => f === banned || f.startsWith(`${banned}/`)),
        banned,
      ).toBe(false);
    }
    expect(files.some((f) => f.endsWith('.map'))).toBe(false);
    expect(existsSync(join(resources, 'app.asar.unpacked/node_modules/keytar/build/Release/keytar.node'))).toBe(true);
  }, 180_000);
});
