import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './sandbox-process.ts';

export interface HarnessProcess {
  url: string;
  /** Its user data: gone once it exits when startHarnessProcess made it (to start again on it, pass one in). */
  userData: string;
  child: ChildProcess;
  stderr: () => string;
  stop(): Promise<number | null>;
  /** Kills the harness's own process (npm's child, the core) with SIGKILL, as a crash would; resolves once npm has exited. */
  kill(): Promise<number | null>;
}

/**
 * Starts `npm run harness` as a user would, on a fresh user-data directory unless one is given; the fresh one is
 * removed once the harness has exited (stopped, or failed to start). Used by bench scripts too, so it registers
 * no test hooks: a test stops the harness it started in its afterAll. `env`: added to this process's environment.
 * `port`: the port to serve on (a page opened on an earlier run's address finds this run there); any free one unless given.
 */
export function startHarnessProcess(
  given?: string,
  options: { env?: Record<string, string>; port?: number } = {},
): Promise<HarnessProcess> {
  const userData = given ?? mkdtempSync(join(tmpdir(), 'keydesk-harness-test-'));
  const env = { ...process.env, ...options.env };
  const port = options.port === undefined ? [] : ['--port', String(options.port)];
  // The embedded sandbox on any free port: harnesses and tests run side by side.
  const child = spawn('npm', ['run', '--silent', 'harness', '--', '--user-data', userData, '--sandbox-port', '0', ...port], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((r) =>
    child.once('exit', (code) => {
      // A removal that fails (a file still held open) is said, not thrown from this listener: stop() still resolves.
      try {
        if (given === undefined) rmSync(userData, { recursive: true, force: true, maxRetries: 3 });
      } catch (error) {
        console.error(`harness-process: could not remove its user data ${userData}:`, error);
      } finally {
        r(code);
      }
    }),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`harness did not start: ${err}`)), 30_000);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /^Keydesk harness on (http:\/\/\S+)\n/.exec(out);
      if (!m?.[1]) return;
      clearTimeout(timer);
      resolve({
        url: m[1],
        userData,
        child,
        stderr: () => err,
        stop: () => {
          if (child.exitCode === null) child.kill('SIGTERM');
          return exited;
        },
        kill: () => {
          if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
            // `npm run harness` execs node in place of its shell: the core is npm's child, found by npm's pid.
            let children = '';
            try {
              children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(child.pid)], { encoding: 'utf8' });
            } catch {
              // ps finds none (it exits 1): the core is gone already.
            }
            for (const pid of children.trim().split(/\s+/).filter(Boolean).map(Number)) process.kill(pid, 'SIGKILL');
          }
          return exited;
        },
      });
    });
    void exited.then((code) => reject(new Error(`harness exited with ${code}: ${err}`)));
  });
}
