// The Linux installers' configuration, built offline: electron-builder packs the built app against a stub Electron
// distribution (the real one cannot be downloaded here), then computes the .deb and the AppImage up to the tools
// that would write them (fpm and appimagetool are downloads), which effectiveOptionComputed stops short of. The
// archive holds the app and its runtime dependencies only; the .deb has its homepage, maintainer, icons and
// desktop entry. Fuses need the real Electron binary, so this check runs without them.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import asar from '@electron/asar';
import { build, Platform } from 'electron-builder';
import { describe, expect, it } from 'vitest';
import builderConfig, { updateFeed } from '../../electron-builder.config.ts';
import { LINUX_SIZES } from '../../scripts/icons.ts';
import { ROOT } from '../support/sandbox-process.ts';
import { tempDir } from '../support/temp-dir.ts';

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;

describe('electron-builder', () => {
  it('names a homepage, repository, author email and desktop name', () => {
    expect(manifest.homepage).toMatch(/^https:\/\//);
    expect(manifest.repository).toMatchObject({ type: 'git', url: expect.stringMatching(/^git\+https:\/\//) as string });
    expect(manifest.author).toMatchObject({ name: 'Keydesk', email: expect.stringMatching(/^[^@\s]+@[^@\s]+\.\w+$/) as string });
    expect(manifest.desktopName).toBe('keydesk.desktop');
  });

  it('checks an https feed set at build time, and none without one', () => {
    // The test's environment has no KEYDESK_UPDATE_URL: the default build publishes nowhere and never checks.
    expect(builderConfig.publish).toBeNull();
    expect(updateFeed(undefined)).toBeNull();
    expect(updateFeed('https://updates.example/keydesk/')).toEqual({ provider: 'generic', url: 'https://updates.example/keydesk/' });
    expect(updateFeed('http://127.0.0.1:8080/feed')).toEqual({ provider: 'generic', url: 'http://127.0.0.1:8080/feed' });
    expect(() => updateFeed('http://updates.example/')).toThrow(/must be an https address/);
  });

  it('packs the app and computes the .deb and AppImage, icons included', async () => {
    expect(existsSync(join(ROOT, 'out/main/index.js')), 'run npm run build first (npm test does)').toBe(true);
    const work = tempDir('keydesk-pack-');
    const stub = join(work, 'electron-dist');
    mkdirSync(stub);
    writeFileSync(join(stub, 'electron'), '#!/bin/sh\nexit 0\n');
    chmodSync(join(stub, 'electron'), 0o755);
    const output = join(work, 'dist');
    const computed: unknown[] = [];
    await build({
      projectDir: ROOT,
      targets: Platform.LINUX.createTarget(['deb', 'AppImage']),
      config: {
        extends: join(ROOT, 'electron-builder.config.ts'),
        electronDist: stub,
        electronVersion: '45.5.0',
        directories: { output },
        electronFuses: null,
        publish: updateFeed('https://updates.example/keydesk/'),
      },
      // Told each target's computed options just before its tool would run; true stops there.
      effectiveOptionComputed: (options: unknown) => {
        // The .deb's desktop file is a temporary file: read while it is there.
        computed.push(Array.isArray(options) ? [options[0], readFileSync(options[1] as string, 'utf8')] : options);
        return Promise.resolve(true);
      },
    });
    const resources = join(output, 'linux-unpacked', 'resources');
    const files = asar.listPackage(join(resources, 'app.asar'), { isPack: false });
    for (const f of ['/package.json', '/out/main/index.js', '/out/preload/index.cjs', '/out/renderer/index.html'])
      expect(files).toContain(f);
    for (const dep of ['undici', 'zod', 'keytar', 'node-machine-id', 'electron-updater'])
      expect(files).toContain(`/node_modules/${dep}/package.json`);
    for (const banned of [
      '/src',
      '/test',
      '/bench',
      '/build',
      '/scripts',
      '/.ci',
      '/node_modules/electron',
      '/node_modules/vitest',
      '/node_modules/react',
      '/node_modules/typescript',
      '/node_modules/@resvg',
    ]) {
      expect(
        files.some((f) => f === banned || f.startsWith(`${banned}/`)),
        banned,
      ).toBe(false);
    }
    expect(files.some((f) => f.endsWith('.map'))).toBe(false);
    expect(existsSync(join(resources, 'app.asar.unpacked/node_modules/keytar/build/Release/keytar.node'))).toBe(true);
    // The feed given at build time, where electron-updater looks for it.
    expect(readFileSync(join(resources, 'app-update.yml'), 'utf8')).toContain('url: https://updates.example/keydesk/');

    // The .deb: fpm's arguments, with the homepage electron-builder used to stop for, and every icon size.
    const deb = computed.find(Array.isArray) as [string[], string] | undefined;
    expect(deb, 'the .deb was computed').toBeDefined();
    const [args, entry] = deb!;
    const arg = (name: string) => args[args.indexOf(name) + 1];
    expect(arg('--url')).toBe(manifest.homepage);
    expect(arg('--maintainer')).toBe('Keydesk <hello@keydesk.app>');
    for (const size of LINUX_SIZES)
      expect(args).toContain(
        `${join(ROOT, 'build/icons', `${size}x${size}.png`)}=/usr/share/icons/hicolor/${size}x${size}/apps/keydesk.png`,
      );
    expect(args.some((a) => a.endsWith('=/usr/share/applications/keydesk.desktop'))).toBe(true);
    for (const line of ['Name=Keydesk', 'Icon=keydesk', 'StartupWMClass=keydesk', 'Categories=Development;'])
      expect(entry.split('\n')).toContain(line);

    // The AppImage: its desktop entry, under the same name.
    const appImage = computed.find((o) => !Array.isArray(o)) as { desktop: string; desktopFileName: string } | undefined;
    expect(appImage?.desktopFileName).toBe('keydesk.desktop');
    expect(appImage?.desktop).toContain('Icon=keydesk');
  }, 300_000);
});
