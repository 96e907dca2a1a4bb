// `npm start`'s decision before it launches Electron, with a stand-in for the download: present, missing and
// fetched, missing and failing (with the one short message it prints, and no stack).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  classifyDownloadFailure,
  electronInstalled,
  ensureElectron,
  failureMessage,
  type EnsureDeps,
} from '../../scripts/electron-binary.ts';
import { tempDir } from '../support/temp-dir.ts';

/** A stand-in machine: whether the binary is there, and what the download does to it. */
function machine(installed: boolean, download: 'fetches' | 'fails') {
  const state = { installed, downloads: 0, said: [] as string[], diagnosed: [] as string[] };
  const deps: EnsureDeps = {
    isInstalled: () => state.installed,
    download: () => {
      state.downloads++;
      if (download === 'fetches') state.installed = true;
      return Promise.resolve(download === 'fetches' ? null : 'TypeError: fetch failed\n    at node:internal/deps/undici/undici:13502:13');
    },
    diagnose: (output) => {
      state.diagnosed.push(output);
      return Promise.resolve(classifyDownloadFailure(output, { host: 'github.com', code: 'ENOTFOUND', status: null }, {}));
    },
    say: (line) => state.said.push(line),
  };
  return { state, deps };
}

describe('ensureElectron', () => {
  it('present: launches at once, downloading nothing', async () => {
    const { state, deps } = machine(true, 'fails');
    expect(await ensureElectron(deps)).toEqual({ ok: true, downloaded: false });
    expect(state.downloads).toBe(0);
    expect(state.said).toEqual([]);
  });

  it('missing and fetched: downloads it once, says so, then launches', async () => {
    const { state, deps } = machine(false, 'fetches');
    expect(await ensureElectron(deps)).toEqual({ ok: true, downloaded: true });
    expect(state.downloads).toBe(1);
    expect(state.said).toEqual(["Electron's binary is not installed yet: downloading it once (about 100 MB)…"]);
  });

  it('missing and failing: says what failed and how to retry', async () => {
    const { state, deps } = machine(false, 'fails');
    const outcome = await ensureElectron(deps);
    expect(outcome).toEqual({
      ok: false,
      failure: { kind: 'offline', evidence: 'github.com could not be reached (ENOTFOUND), so this machine looks offline' },
    });
    expect(state.downloads).toBe(1);
    expect(state.diagnosed[0]).toMatch(/^TypeError: fetch failed/);
    const message = failureMessage(outcome.ok ? { kind: 'unknown', evidence: '' } : outcome.failure, '45.4.1');
    expect(message).toBe(
      [
        "Keydesk cannot start: Electron 45.4.1's binary is not installed, and downloading it failed: github.com could not be reached (ENOTFOUND), so this machine looks offline.",
        'Connect to the network, then run `npm start` again.',
        'Meanwhile, Keydesk runs in a browser on the same core: `npm run build && npm run harness`.',
      ].join('\n'),
    );
    expect(message).not.toMatch(/\n\s+at /);
  });
});

describe('classifyDownloadFailure', () => {
  const host = 'github.com';
  it.each([
    ['DNS fails, no proxy', '', { host, code: 'ENOTFOUND', status: null }, {}, 'offline'],
    ['DNS fails behind a proxy', '', { host, code: 'EAI_AGAIN', status: null }, { HTTPS_PROXY: 'http://proxy:3128' }, 'proxy'],
    ['connection refused', '', { host, code: 'ECONNREFUSED', status: null }, {}, 'blocked'],
    ['timed out', '', { host, code: 'ETIMEDOUT', status: null }, {}, 'blocked'],
    ['a filter answers 403', '', { host, code: null, status: 403 }, {}, 'blocked'],
    ['the proxy wants credentials', '', { host, code: null, status: 407 }, {}, 'proxy'],
    [
      'a bad download',
      'Error: Generated checksum for "electron.zip" did not match expected checksum.',
      { host, code: null, status: 302 },
      {},
      'corrupt',
    ],
    ['something else', 'Error: EACCES: permission denied, mkdir', { host, code: null, status: 302 }, {}, 'unknown'],
  ] as const)('%s: %s', (_name, output, probe, env, kind) => {
    expect(classifyDownloadFailure(output, probe, env).kind).toBe(kind);
  });

  it('gives every kind a retry line and the harness', () => {
    for (const kind of ['offline', 'blocked', 'proxy', 'corrupt', 'unknown'] as const) {
      const lines = failureMessage({ kind, evidence: 'x' }, '45.4.1').split('\n');
      expect(lines).toHaveLength(3);
      expect(lines[1]).toMatch(/npm start/);
      expect(lines[2]).toContain('npm run build && npm run harness');
    }
  });
});

describe('electronInstalled', () => {
  const fakeElectron = (files: Record<string, string>) => {
    const dir = tempDir('keydesk-electron-');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ version: '45.4.1' }));
    mkdirSync(join(dir, 'dist'));
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
    return dir;
  };

  it('is true only with path.txt, this version and the binary', () => {
    expect(electronInstalled(fakeElectron({}), {})).toBe(false);
    expect(electronInstalled(fakeElectron({ 'path.txt': 'electron', 'dist/version': 'v45.4.1' }), {})).toBe(false);
    expect(electronInstalled(fakeElectron({ 'path.txt': 'electron', 'dist/version': '44.0.0', 'dist/electron': '' }), {})).toBe(false);
    expect(electronInstalled(fakeElectron({ 'path.txt': 'electron', 'dist/version': 'v45.4.1', 'dist/electron': '' }), {})).toBe(true);
  });
});
