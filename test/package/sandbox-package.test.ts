// The sandbox as a vendor gets it: `npm pack` of packages/sandbox (its prepack bundles the CLI), installed
// offline into an empty directory, started through its `keydesk-sandbox` bin, and called once. And
// create-service's JSON is the only thing on stdout, whether run from the bin or as `npm run -s sandbox`.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SANDBOX_VERSION } from '../../src/sandbox/runtime.ts';
import { ROOT, startSandbox, type SandboxProcess } from '../support/sandbox-process.ts';
import { tempDir } from '../support/temp-dir.ts';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const PACKAGE_DIR = join(ROOT, 'packages/sandbox');
const running: SandboxProcess[] = [];
afterAll(async () => {
  for (const s of running) await s.stop();
});

/** One line of JSON and nothing else: what a script parsing the output needs. */
function onlyJsonLine(stdout: string): { name: string; identifier: string; apiKey: string } {
  expect(stdout.endsWith('\n')).toBe(true);
  expect(stdout.trimEnd().split('\n')).toHaveLength(1);
  return JSON.parse(stdout) as { name: string; identifier: string; apiKey: string };
}

describe('the keydesk-sandbox package', () => {
  it('packs with no dependencies, installs offline and serves from its bin', async () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.bin).toEqual({ 'keydesk-sandbox': 'dist/cli.js' });
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) expect(manifest[field], field).toBeUndefined();
    // What build.ts imports besides Node is declared, here and at the root where `npm ci` installs it.
    const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(manifest.devDependencies).toEqual({ rolldown: root.devDependencies.rolldown });
    expect(manifest.version).toBe(SANDBOX_VERSION);

    const packDir = tempDir('keydesk-sandbox-pack-');
    const packed = JSON.parse(
      execFileSync(npm, ['pack', '--json', '--pack-destination', packDir], { cwd: PACKAGE_DIR, encoding: 'utf8' }),
    ) as {
      filename: string;
      files: { path: string }[];
    }[];
    // The commands are a chunk of their own: cli.js checks the Node before it loads them (and node:sqlite).
    expect(packed[0]?.files.map((f) => f.path).sort()).toEqual([
      'README.md',
      'dist/cli.js',
      'dist/commands.js',
      'dist/runtime.js',
      'package.json',
    ]);
    const tarball = join(packDir, packed[0]!.filename);

    const project = tempDir('keydesk-sandbox-vendor-');
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'vendor-ci', private: true }));
    execFileSync(npm, ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: project, encoding: 'utf8' });
    const bin = join(project, 'node_modules/.bin', process.platform === 'win32' ? 'keydesk-sandbox.cmd' : 'keydesk-sandbox');
    const dist = join(project, 'node_modules/keydesk-sandbox/dist');
    const imports = ['cli.js', 'commands.js', 'runtime.js'].flatMap((file) =>
      [...readFileSync(join(dist, file), 'utf8').matchAll(/^import\s[^'"]*["']([^'"]+)["']/gm)].map((m) => m[1]),
    );
    expect(imports).toContain('node:sqlite');
    for (const id of imports) expect(id, 'the bundle imports Node built-ins and its own chunks only').toMatch(/^(node:|\.\/)/);
    expect(readFileSync(join(project, 'node_modules/keydesk-sandbox/README.md'), 'utf8')).toMatch(/^# keydesk-sandbox\n/);

    const version = spawnSync(bin, ['--version'], { encoding: 'utf8' });
    expect(version.status).toBe(0);
    expect(version.stdout).toBe(`${String(manifest.version)}\n`);
    expect(spawnSync(bin, ['--help'], { encoding: 'utf8' }).status).toBe(0);
    // The bundle keeps the check before node:sqlite: an old Node gets one line.
    const old = spawnSync(
      process.execPath,
      ['--import', join(ROOT, 'test/support/node-without-sqlite.ts'), join(dist, 'cli.js'), 'serve'],
      {
        encoding: 'utf8',
      },
    );
    expect(old.status).toBe(1);
    expect(old.stderr).toMatch(/^keydesk-sandbox needs Node\.js 22\.19\.0 or newer \(for node:sqlite\); this is Node\.js 20\.11\.1\.\n$/);

    const db = join(project, 'sandbox.db');
    const created = spawnSync(bin, ['create-service', '--db', db, '--name', 'Vendor CI'], { cwd: project, encoding: 'utf8' });
    expect(created.status, created.stderr).toBe(0);
    const service = onlyJsonLine(created.stdout);
    expect(service).toMatchObject({ name: 'Vendor CI', identifier: 'vendor-ci' });

    const sandbox = await startSandbox({ db, command: [bin, 'serve'] });
    running.push(sandbox);
    const res = await fetch(`${sandbox.url}/api/execution-count?apiKey=${encodeURIComponent(service.apiKey)}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ executionCount: 0 });
    const validation = await fetch(`${sandbox.url}/v2_validation?key=NOPE-NOPE&service=vendor-ci&hwid=H1`);
    expect(validation.status).toBe(200);
    expect(await sandbox.stop()).toBe(0);
  }, 180_000);

  it('prints only the JSON line on stdout for create-service', () => {
    const db = join(tempDir('keydesk-sandbox-npm-'), 'sandbox.db');
    const r = spawnSync(npm, ['run', '-s', 'sandbox', '--', 'create-service', '--db', db, '--name', 'Scripted'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(onlyJsonLine(r.stdout)).toMatchObject({ name: 'Scripted', identifier: 'scripted' });
  });
});
