// A job run by a Keydesk core in a child process (job-child.ts, job-retry-child.ts) and killed with SIGKILL mid-way,
// as a crash or a power cut would stop it: the test reads what it printed, and the job's records from its user data.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './sandbox-process.ts';

/**
 * Runs `script` (a path from the repo's root) on user data `dir`, kills it with SIGKILL once it has printed
 * "done N" with N at least `done`, and answers all it printed by the time it exited.
 */
export async function killJobChildAfter(script: string, dir: string, done: number): Promise<string> {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', join(ROOT, script), dir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const printed = [...out.matchAll(/^done (\d+)$/gm)].map((m) => Number(m[1])).at(-1) ?? 0;
      if (printed >= done) resolve();
    });
    child.on('exit', (code) => reject(new Error(`the child exited (${code}) before the kill: ${err}`)));
  });
  child.kill('SIGKILL');
  await exited;
  return out;
}
