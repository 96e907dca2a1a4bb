// The sandbox as packages/sandbox/Dockerfile runs it, without Docker: its CMD through the same CLI, bound to
// 0.0.0.0, called with the Host headers a container's clients send (`localhost:8787`, compose's `sandbox:8787`).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { qs, send } from '../support/http.ts';
import { createService, ROOT, startSandbox, type SandboxProcess } from '../support/sandbox-process.ts';
import { tempDir } from '../support/temp-dir.ts';

const dockerfile = readFileSync(join(ROOT, 'packages/sandbox/Dockerfile'), 'utf8');
/** The JSON array of an exec-form instruction, e.g. `CMD ["serve", ...]`. */
function execForm(instruction: string): string[] {
  const m = new RegExp(`^${instruction}\\s+(?:--\\S+\\s+)*(?:CMD\\s+)?(\\[.*\\])\\s*$`, 'm').exec(dockerfile);
  if (!m?.[1]) throw new Error(`no exec-form ${instruction} in the Dockerfile`);
  return JSON.parse(m[1]) as string[];
}
const ENTRYPOINT = execForm('ENTRYPOINT');
const CMD = execForm('CMD');
const HEALTHCHECK = execForm('HEALTHCHECK');
/** The compose example's KEYDESK_SANDBOX_ALLOW_HOSTS, as the docs give it. */
const composeAllow = /KEYDESK_SANDBOX_ALLOW_HOSTS:\s*(\S+)/.exec(readFileSync(join(ROOT, 'docs/reference/sandbox-in-ci.md'), 'utf8'))?.[1];
/** The image runs the bundle of src/sandbox/cli.ts; here the same CLI runs from source. */
const SOURCE_CLI = [process.execPath, '--disable-warning=ExperimentalWarning', join(ROOT, 'src/sandbox/cli.ts')];

const started: SandboxProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.stop()));
});

/** The Dockerfile's CMD on a free port (startSandbox's `--port 0` comes last and wins) and a database of its own. */
async function runCmd(env: Record<string, string> = {}): Promise<{ sandbox: SandboxProcess; apiKey: string }> {
  const db = join(tempDir(), 'container.db');
  const { apiKey } = createService(db, 'Container');
  const sandbox = await startSandbox({ db, command: [...SOURCE_CLI, ...CMD], env });
  started.push(sandbox);
  return { sandbox, apiKey };
}

describe('the Dockerfile', () => {
  it('runs Node 24 slim as a non-root user serving 8787 to localhost', () => {
    expect(dockerfile).toMatch(/^FROM node:24-slim$/m);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^EXPOSE 8787$/m);
    expect(ENTRYPOINT).toEqual(['node', '/app/dist/cli.js']);
    expect(CMD).toEqual(['serve', '--host', '0.0.0.0', '--port', '8787', '--allow-host', 'localhost']);
    expect(HEALTHCHECK.join(' ')).toContain('http://localhost:8787/health');
  });

  it('its CMD answers Host localhost:PORT and refuses other names', async () => {
    const { sandbox, apiKey } = await runCmd();
    const local = `http://127.0.0.1:${sandbox.port}`;
    const health = await send(local, { path: '/health', host: `localhost:${sandbox.port}` });
    expect(health.status).toBe(200);
    expect(health.json).toEqual({ status: 'ok' });
    const count = await send(local, { path: `/api/execution-count?${qs({ apiKey })}`, host: `LOCALHOST:${sandbox.port}` });
    expect(count.json).toEqual({ executionCount: 0 });
    for (const host of [`sandbox:${sandbox.port}`, `localhost:${sandbox.port + 1}`, `attacker.test:${sandbox.port}`, 'localhost']) {
      const res = await send(local, { path: '/health', host });
      expect(res.status, host).toBe(403);
      expect(res.json.code).toBe('HOST_NOT_ALLOWED');
    }
  });

  it('its CMD with the compose example’s variable answers Host sandbox:PORT too', async () => {
    expect(composeAllow).toBe('sandbox');
    const { sandbox } = await runCmd({ KEYDESK_SANDBOX_ALLOW_HOSTS: composeAllow ?? '' });
    const local = `http://127.0.0.1:${sandbox.port}`;
    for (const host of [`sandbox:${sandbox.port}`, `localhost:${sandbox.port}`]) {
      expect((await send(local, { path: '/health', host })).status, host).toBe(200);
    }
    expect(sandbox.stderr()).toContain(`sandbox:${sandbox.port}`);
  });

  it('its health check passes against the running CMD', async () => {
    const { sandbox } = await runCmd();
    const [exe, ...args] = HEALTHCHECK.map((a) => a.replace(':8787/', `:${sandbox.port}/`));
    expect(exe).toBe('node');
    const code = await new Promise<number | null>((resolve) => {
      spawn(process.execPath, args, { stdio: 'ignore' }).once('exit', resolve);
    });
    expect(code).toBe(0);
  });
});

describe('serve --allow-host', () => {
  it('is repeatable and joins the variable’s names', async () => {
    const db = join(tempDir(), 'allow.db');
    createService(db, 'Allow');
    const sandbox = await startSandbox({
      db,
      args: ['--host', '0.0.0.0', '--allow-host', 'one.test', '--allow-host', 'Two'],
      env: { KEYDESK_SANDBOX_ALLOW_HOSTS: 'three, ,four' },
    });
    started.push(sandbox);
    const local = `http://127.0.0.1:${sandbox.port}`;
    for (const name of ['one.test', 'two', 'three', 'four']) {
      expect((await send(local, { path: '/health', host: `${name}:${sandbox.port}` })).status, name).toBe(200);
    }
    expect((await send(local, { path: '/health', host: `five:${sandbox.port}` })).status).toBe(403);
  });

  it('refuses a name with a port, exit 2 and the usage', async () => {
    const db = join(tempDir(), 'allow-bad.db');
    await expect(startSandbox({ db, args: ['--allow-host', 'localhost:8787'] })).rejects.toThrow(
      /sandbox exited with 2: --allow-host takes a host name without a port/,
    );
  });
});
