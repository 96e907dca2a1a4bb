// Binding anywhere but loopback: one clear stderr line says who can now reach the sandbox, and the Host guard
// answers only the address bound (a client on the network can claim `Host: 127.0.0.1`, so that proves nothing).
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { qs, send } from '../support/http.ts';
import { createService, startSandbox } from '../support/sandbox-process.ts';
import { tempDir } from '../support/temp-dir.ts';

const ownIPv4 = Object.values(networkInterfaces())
  .flat()
  .find((i) => i !== undefined && !i.internal && i.family === 'IPv4')?.address;

describe('a non-loopback bind', () => {
  it.skipIf(ownIPv4 === undefined)('names who can reach it and accepts only its own Host', async () => {
    const address = ownIPv4 ?? '';
    const db = join(tempDir(), 'exposed.db');
    const { apiKey } = createService(db, 'Exposed');
    const sandbox = await startSandbox({ db, args: ['--host', address] });
    try {
      const lines = sandbox.stderr().split('\n').filter(Boolean);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(
        `bound to ${address}, not loopback: any machine that can reach this host on port ${sandbox.port} can now call it`,
      );
      const path = `/api/execution-count?${qs({ apiKey })}`;
      expect((await send(sandbox.url, { path })).status).toBe(200);
      for (const host of [
        `127.0.0.1:${sandbox.port}`,
        `localhost:${sandbox.port}`,
        `[::1]:${sandbox.port}`,
        `attacker.test:${sandbox.port}`,
      ]) {
        const res = await send(sandbox.url, { path, host });
        expect(res.status, host).toBe(403);
        expect(res.json.code).toBe('HOST_NOT_ALLOWED');
      }
    } finally {
      await sandbox.stop();
    }
  });

  it.skipIf(ownIPv4 === undefined)('on 0.0.0.0 accepts this machine’s own addresses only, never the loopback names', async () => {
    const db = join(tempDir(), 'wildcard.db');
    const { apiKey } = createService(db, 'Wildcard');
    const sandbox = await startSandbox({ db, args: ['--host', '0.0.0.0'] });
    try {
      expect(sandbox.stderr()).toContain('bound to 0.0.0.0, not loopback');
      const local = `http://127.0.0.1:${sandbox.port}`;
      const path = `/api/execution-count?${qs({ apiKey })}`;
      expect((await send(local, { path })).status).toBe(403);
      expect((await send(local, { path, host: `${ownIPv4 ?? ''}:${sandbox.port}` })).status).toBe(200);
    } finally {
      await sandbox.stop();
    }
  });

  it('says nothing on loopback', async () => {
    const db = join(tempDir(), 'loopback.db');
    createService(db, 'Loopback');
    const sandbox = await startSandbox({ db });
    try {
      expect(sandbox.stderr()).toBe('');
    } finally {
      await sandbox.stop();
    }
  });
});
