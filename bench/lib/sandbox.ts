// The run's temp dir and the sandboxes (and other child processes) cases start in it; all go when the bench exits.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { request } from 'undici';
import { SandboxStore } from '../../src/sandbox/store.ts';
import { ROUTES } from '../../src/shared/wire.ts';

export const ROOT = resolve(import.meta.dirname, '../..');
const NODE_FLAGS = ['--disable-warning=ExperimentalWarning'];

/** Every case's files go here. */
export const work = mkdtempSync(join(tmpdir(), 'keydesk-bench-'));
const children: ChildProcess[] = [];

process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

export interface Child {
  url: string;
  child: ChildProcess;
}

/** Runs a script of this tree in Node; resolves with the URL its stdout announces (`ready`'s first group). */
export function startChild(script: string, scriptArgs: string[], ready: RegExp): Promise<Child> {
  const child = spawn(process.execPath, [...NODE_FLAGS, join(ROOT, script), ...scriptArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((res, rej) => {
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = ready.exec(out);
      if (m?.[1]) res({ url: m[1], child });
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('exit', (code) => rej(new Error(`${script} exited with ${code}: ${err}`)));
  });
}

/** `npm run sandbox -- serve` on a free port over `db`; its origin. */
export async function startSandbox(db: string, extraArgs: string[] = []): Promise<Child> {
  return startChild('src/sandbox/cli.ts', ['serve', '--port', '0', '--db', db, ...extraArgs], /listening on (http:\/\/\S+)\n/);
}

/** A service created in the sandbox file `db` (before it is served); its apiKey. */
export function createService(db: string, identifier: string): string {
  const argv = [...NODE_FLAGS, 'src/sandbox/cli.ts', 'create-service', '--db', db, '--name', identifier, '--identifier', identifier];
  const r = spawnSync(process.execPath, argv, { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return (JSON.parse(r.stdout) as { apiKey: string }).apiKey;
}

/** `count` keys generated on the service over HTTP (not recorded by any core). */
export async function generateRaw(origin: string, apiKey: string, count: number, note: string, expire = '2099-01-01'): Promise<string[]> {
  const res = await request(`${origin}${ROUTES.generateKeyPost.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey, expire, count, isPremium: false, note }),
  });
  const body = (await res.body.json()) as { generatedKeys: { value: string }[] };
  return body.generatedKeys.map((k) => k.value);
}

/** Each key's expiry in the sandbox's file, by value. */
export function expiries(dbFile: string): Map<string, number> {
  const store = new SandboxStore(dbFile);
  try {
    return new Map(store.inspect('SELECT value, expires_at FROM keys').map((r) => [String(r.value), Number(r.expires_at)]));
  } finally {
    store.close();
  }
}
