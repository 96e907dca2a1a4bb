// The embedded sandbox at one address: 8787 or the next free port, kept across restarts in profiles.json.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_PORT, sandboxPortsToTry } from '../../src/main/sandbox-thread.ts';
import { startTestCore, type TestCore } from '../support/core.ts';
import { tempDir } from '../support/temp-dir.ts';

const held: Server[] = [];
const cores: TestCore[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.close()));
  await Promise.all(held.splice(0).map((s) => new Promise((done) => s.close(done))));
});

/** Listens on 127.0.0.1:`port` (0: any free one) and keeps it taken until the test ends. */
async function hold(port = 0): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  held.push(server);
  return (server.address() as { port: number }).port;
}

/** A core that chooses its sandbox's port as the app does (no explicit port). */
async function start(userDataDir: string): Promise<{ core: TestCore; port: number }> {
  const core = await startTestCore({ userDataDir, sandboxPort: undefined });
  cores.push(core);
  const url = core.core.sandboxState().url ?? '';
  return { core, port: Number(new URL(url).port) };
}

const storedPort = (userData: string): unknown =>
  (JSON.parse(readFileSync(join(userData, 'profiles.json'), 'utf8')) as { sandboxPort?: unknown }).sandboxPort;

async function stop(core: TestCore): Promise<void> {
  cores.splice(cores.indexOf(core), 1);
  await core.close();
}

describe('the embedded sandbox port', () => {
  it('tries 8787 first, then each port above it, then any free port', () => {
    expect(DEFAULT_SANDBOX_PORT).toBe(8787);
    const ports = sandboxPortsToTry(8787);
    expect(ports.slice(0, 3)).toEqual([8787, 8788, 8789]);
    expect(ports).toHaveLength(101);
    expect(ports.at(-1)).toBe(0);
    expect(sandboxPortsToTry(65_535)).toEqual([65_535, 0]);
  });

  it('starts on 8787 or the next free port on a first start', async () => {
    const userData = tempDir('keydesk-port-');
    const { core, port } = await start(userData);
    expect(port).toBeGreaterThanOrEqual(8787);
    expect(port).toBeLessThan(8887);
    expect(storedPort(userData)).toBe(port);
    expect(core.core.sandboxPort).toBe(port);
    expect(core.core.profiles.get('sandbox')?.baseUrl).toBe(`http://127.0.0.1:${port}`);
  });

  it('keeps its port across restarts', async () => {
    const userData = tempDir('keydesk-port-');
    const first = await start(userData);
    await stop(first.core);
    const second = await start(userData);
    expect(second.port).toBe(first.port);
    const res = await request(`http://127.0.0.1:${second.port}/health`);
    expect(res.statusCode).toBe(200);
    await res.body.dump();
  });

  it('takes and keeps the next free port when its own is taken', async () => {
    const userData = tempDir('keydesk-port-');
    const first = await start(userData);
    await stop(first.core);
    await hold(first.port);
    const second = await start(userData);
    expect(second.port).toBeGreaterThan(first.port);
    expect(second.port).toBeLessThan(first.port + 100);
    expect(storedPort(userData)).toBe(second.port);
  });

  it('moves to a port a setting gives, and starts there next time', async () => {
    const userData = tempDir('keydesk-port-');
    const first = await start(userData);
    const wanted = await hold();
    // Taken by this test: the sandbox lands just above it, and keeps that.
    const state = await first.core.core.setSandboxPort(wanted);
    const moved = Number(new URL(state.url ?? '').port);
    expect(state.running).toBe(true);
    expect(moved).toBeGreaterThan(wanted);
    expect(moved).toBeLessThan(wanted + 100);
    expect(first.core.core.profiles.get('sandbox')?.baseUrl).toBe(`http://127.0.0.1:${moved}`);
    const r = await first.core.must('keys.generate', { expire: '2099-01-01', count: 1, isPremium: false });
    expect(r.generated.count).toBe(1);
    await stop(first.core);
    expect((await start(userData)).port).toBe(moved);
  });

  it('refuses a port out of range', async () => {
    const { core } = await start(tempDir('keydesk-port-'));
    await expect(core.core.setSandboxPort(70_000)).rejects.toThrow(/1 to 65535/);
  });

  it('with an explicit port 0 takes any free port and stores nothing', async () => {
    const userData = tempDir('keydesk-port-');
    const core = await startTestCore({ userDataDir: userData, sandboxPort: 0 });
    cores.push(core);
    expect(core.core.sandboxState().running).toBe(true);
    expect(storedPort(userData)).toBeUndefined();
  });
});
