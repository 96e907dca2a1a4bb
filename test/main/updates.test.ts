// Help → Check for updates against a real feed on 127.0.0.1, with Electron mocked: electron-updater's own
// `require('electron')` gets a fake app whose net.request is Node's http. The feed's app-update.yml and
// package-type sit in the resources folder as electron-builder writes them for a .deb.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { registerHooks } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AppUpdater } from 'electron-updater';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { updateFeed } from '../../electron-builder.config.ts';
import { NO_FEED, Updates, updateConfigFile, type Ask } from '../../src/main/updates.ts';
import { tempDir } from '../support/temp-dir.ts';

const work = tempDir('keydesk-updates-');
const resources = join(work, 'resources');
const INSTALLER = Buffer.from('not really a .deb, but its sha512 is checked all the same');
const feed = { version: '0.2.0', status: 200 };
const served: string[] = [];
let server: Server;
let updater: AppUpdater;

// The fake Electron that electron-updater requires: a packaged app at 0.1.0, and net.request through Node's http.
const fakeElectron = {
  app: {
    isPackaged: true,
    getVersion: () => '0.1.0',
    getName: () => 'Keydesk',
    getAppPath: () => work,
    getPath: () => work,
    whenReady: () => Promise.resolve(),
    once: () => undefined,
    on: () => undefined,
    quit: () => undefined,
    relaunch: () => undefined,
  },
  net: { request: (options: Parameters<typeof request>[0]) => request(options) },
  session: { fromPartition: () => ({}) },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    // The updater adds ?noCache=… to the feed's file.
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    served.push(path);
    if (feed.status !== 200) {
      res.writeHead(feed.status).end('no feed here');
    } else if (/^\/latest.*\.yml$/.test(path)) {
      const sha512 = createHash('sha512').update(INSTALLER).digest('base64');
      const file = `Keydesk_${feed.version}_amd64.deb`;
      res.writeHead(200, { 'content-type': 'text/yaml' });
      res.end(
        `version: ${feed.version}\nfiles:\n  - url: ${file}\n    sha512: ${sha512}\n    size: ${INSTALLER.length}\npath: ${file}\nsha512: ${sha512}\nreleaseDate: '2026-11-29T00:00:00.000Z'\n`,
      );
    } else if (path === `/Keydesk_${feed.version}_amd64.deb`) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': INSTALLER.length }).end(INSTALLER);
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  // What electron-builder writes into a .deb's resources with KEYDESK_UPDATE_URL set (the packing test checks it).
  const publish = updateFeed(url) as { provider: string; url: string };
  mkdirSync(resources);
  writeFileSync(
    join(resources, 'app-update.yml'),
    `provider: ${publish.provider}\nurl: ${publish.url}\nupdaterCacheDirName: keydesk-updater\n`,
  );
  writeFileSync(join(resources, 'package-type'), 'deb');
  Object.assign(process, { resourcesPath: resources });
  vi.stubEnv('XDG_CACHE_HOME', join(work, 'cache'));
  const fake = join(work, 'electron.cjs');
  writeFileSync(fake, 'module.exports = globalThis.keydeskFakeElectron;\n');
  Object.assign(globalThis, { keydeskFakeElectron: fakeElectron });
  registerHooks({
    resolve: (specifier, context, next) =>
      specifier === 'electron' ? { url: pathToFileURL(fake).href, shortCircuit: true } : next(specifier, context),
  });
  updater = (await import('electron-updater')).default.autoUpdater;
});
afterAll(async () => {
  vi.unstubAllEnvs();
  Reflect.deleteProperty(process, 'resourcesPath');
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  served.length = 0;
  Object.assign(feed, { version: '0.2.0', status: 200 });
});

/** Answers each box with the next of `choices` and keeps what it said. */
function answering(...choices: number[]): { ask: Ask; said: string[] } {
  const said: string[] = [];
  const ask: Ask = (box) => {
    said.push(box.message);
    return Promise.resolve(choices.shift() ?? 0);
  };
  return { ask, said };
}

describe.runIf(process.platform === 'linux')('updates from a feed on 127.0.0.1', () => {
  it("finds the build's feed in a packed app's resources only", () => {
    expect(updateConfigFile(resources, true)).toBe(join(resources, 'app-update.yml'));
    expect(updateConfigFile(resources, false)).toBeNull();
    expect(updateConfigFile(work, true)).toBeNull();
    expect(updateConfigFile(undefined, true)).toBeNull();
  });

  it('downloads a newer version when asked and restarts to install it', async () => {
    expect(updater.constructor.name).toBe('DebUpdater');
    const restart = vi.spyOn(updater, 'quitAndInstall').mockImplementation(() => undefined);
    const { ask, said } = answering(0, 0);
    const updates = new Updates(updater, ask, '0.1.0');
    expect(updates.off).toBeNull();
    expect(await updates.check()).toEqual({ kind: 'restarting', version: '0.2.0' });
    expect(said).toEqual(['Keydesk 0.2.0 is available', 'Keydesk 0.2.0 is ready']);
    expect(served).toEqual(['/latest-linux.yml', '/Keydesk_0.2.0_amd64.deb']);
    expect(restart).toHaveBeenCalledTimes(1);
  });

  it('downloads nothing when the user says later', async () => {
    const { ask, said } = answering(1);
    expect(await new Updates(updater, ask, '0.1.0').check()).toEqual({ kind: 'later', version: '0.2.0' });
    expect(said).toEqual(['Keydesk 0.2.0 is available']);
    expect(served).toEqual(['/latest-linux.yml']);
  });

  it('says so when this version is the newest', async () => {
    feed.version = '0.1.0';
    const { ask, said } = answering();
    expect(await new Updates(updater, ask, '0.1.0').check()).toEqual({ kind: 'current', version: '0.1.0' });
    expect(said).toEqual(['Keydesk 0.1.0 is the newest version']);
  });

  it('says why when the feed cannot be read', async () => {
    feed.status = 404;
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { ask, said } = answering();
    const outcome = await new Updates(updater, ask, '0.1.0').check();
    expect(outcome).toMatchObject({ kind: 'failed', message: expect.stringContaining('404') as string });
    expect(said).toEqual(['Keydesk could not check for updates']);
    expect(errors).toHaveBeenCalledWith('keydesk: the update check failed:', expect.any(Error));
  });

  it('without a feed checks nothing and says so', async () => {
    const { ask, said } = answering();
    const updates = new Updates(null, ask, '0.1.0');
    expect(updates.off).toBe(NO_FEED);
    expect(await updates.check()).toEqual({ kind: 'off' });
    expect(said).toEqual(['Updates are not set up']);
    expect(served).toEqual([]);
  });
});
