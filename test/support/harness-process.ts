import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT, tempDir } from './sandbox-process.ts';

export interface HarnessProcess {
  url: string;
  userData: string;
  child: ChildProcess;
  stderr: () => string;
  stop(): Promise<number | null>;
}

/** Starts `npm run harness` as a user would, on a fresh user-data directory unless one is given. */
export function startHarnessProcess(userData = tempDir('keydesk-harness-test-')): Promise<HarnessProcess> {
  const child = spawn('npm', ['run', '--silent', 'harness', '--', '--user-data', userData], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
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
      });
    });
    void exited.then((code) => reject(new Error(`harness exited with ${code}: ${err}`)));
  });
}
