// Two harnesses on one data folder, as two Keydesks would be: the second refuses in one sentence naming the folder
// and exits; the first keeps working, its running job not interrupted (held on the wire, then finished once) and
// its profiles as they were.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobSummary } from '../../src/shared/domain.ts';
import { useApp } from '../support/app-page.ts';
import { startHeldSandbox, type HeldSandbox } from '../support/held-sandbox.ts';
import { startHeldExtend } from '../support/held-job-page.ts';
import { ROOT } from '../support/sandbox-process.ts';

let remote: HeldSandbox;
let second: ChildProcess | null = null;
beforeAll(async () => {
  remote = await startHeldSandbox({ file: 'acme.db', name: 'Acme Remote', identifier: 'acme' });
});
afterAll(async () => {
  if (second?.exitCode === null) second.kill('SIGTERM');
  await remote.close();
});
const app = useApp();
// Released before the app closes (the hooks after a file's tests run in reverse): a held request would keep its job running.
afterAll(() => {
  remote.release();
});

/** The harness on `userData` (`npm run harness`'s command, without npm: a stop reaches it), until it exits. */
function runHarness(userData: string): Promise<{ code: number | null; stderr: string }> {
  const args = ['--disable-warning=ExperimentalWarning', 'src/harness/cli.ts', '--user-data', userData];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  second = child;
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stderr })));
}

const jobs = () =>
  app.page.evaluate(async () => {
    const r = await window.keydesk['jobs.list'](undefined);
    if (!r.ok) throw new Error(r.message);
    return r.data.jobs;
  });

describe('a second harness on a data folder in use', () => {
  it("refuses in words and exits, leaving the first one's job running", async () => {
    await startHeldExtend(app.page, remote);
    const { userData } = app.harness;
    const profiles = readFileSync(join(userData, 'profiles.json'), 'utf8');

    const refused = await runHarness(userData);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `keydesk harness: Keydesk could not start: Another Keydesk is using ${userData}. Close it, or start this one with another data folder.\n`,
    );
    expect(readFileSync(join(userData, 'profiles.json'), 'utf8')).toBe(profiles);

    // The first: its job still running on its held requests, not marked interrupted; then it ends, each key answered once.
    expect((await jobs()).map((j: JobSummary) => j.state)).toEqual(['running']);
    remote.release();
    await expect.poll(async () => (await jobs())[0]?.state, { timeout: 60_000 }).toBe('finished');
    expect((await jobs())[0]?.counts).toMatchObject({ pending: 0, sent: 0, unknown: 0, failed: 2, done: 0 });
    const names = await app.page.evaluate(async () => {
      const r = await window.keydesk['profiles.list'](undefined);
      return r.ok ? r.data.profiles.map((p) => p.name) : [r.message];
    });
    expect(names.sort()).toEqual(['Acme Remote', 'Local sandbox']);
  });
});
