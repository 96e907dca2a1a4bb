// Starts the real sandbox CLI as a child process, the way a vendor or CI would.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
const CLI = ['--disable-warning=ExperimentalWarning', join(ROOT, 'src/sandbox/cli.ts')];

export interface CreatedService {
  name: string;
  identifier: string;
  apiKey: string;
}

export function createService(db: string, name: string, identifier?: string): CreatedService {
  const args = [...CLI, 'create-service', '--db', db, '--name', name];
  if (identifier !== undefined) args.push('--identifier', identifier);
  const r = spawnSync(process.execPath, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`create-service failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout) as CreatedService;
}

export interface SandboxProcess {
  url: string;
  port: number;
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Sends a signal and resolves with the exit code (null when killed by a signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function startSandbox(options: {
  db: string;
  args?: string[];
  env?: NodeJS.ProcessEnv;
  command?: string[];
}): Promise<SandboxProcess> {
  const command = options.command ?? [process.execPath, ...CLI, 'serve'];
  const [exe, ...rest] = command as [string, ...string[]];
  const child = spawn(exe, [...rest, '--port', '0', '--db', options.db, ...(options.args ?? [])], {
    cwd: ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  return new Promise((resolveStart, rejectStart) => {
    const timer = setTimeout(() => rejectStart(new Error(`sandbox did not start: ${err}`)), 20_000);
    const onData = (): void => {
      const m = /Keydesk sandbox listening on (http:\/\/[^\s]+)\n/.exec(out);
      if (!m?.[1]) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      const url = m[1];
      resolveStart({
        url,
        port: Number(new URL(url).port),
        child,
        stdout: () => out,
        stderr: () => err,
        stop: async (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      });
    };
    child.stdout.on('data', onData);
    void exited.then((code) => rejectStart(new Error(`sandbox exited with ${code}: ${err}`)));
  });
}
