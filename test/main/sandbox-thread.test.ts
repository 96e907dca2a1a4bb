// The embedded sandbox serves from a thread of its own: it starts, answers, says why it could not start, and closes.
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { SandboxStartError, startSandboxThread } from '../../src/main/sandbox-thread.ts';
import { SandboxStore } from '../../src/sandbox/store.ts';
import { ROUTES } from '../../src/shared/wire.ts';
import { startTestCore } from '../support/core.ts';
import { tempDir } from '../support/temp-dir.ts';

const SERVICE = { name: 'Demo', identifier: 'demo' };
const noExit = (code: number): void => {
  throw new Error(`the sandbox thread ended unasked (exit code ${code})`);
};

describe('the embedded sandbox thread', () => {
  it('serves from a thread other than main, with a stored key', async () => {
    const file = join(tempDir('keydesk-sandbox-thread-'), 'sandbox.db');
    const thread = await startSandboxThread({ file, cacheKiB: 1024, service: SERVICE, ports: [0], apiKey: null }, noExit);
    try {
      expect(thread.threadId).not.toBe(threadId);
      const res = await request(`${thread.url}${ROUTES.generateKeyPost.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiKey: thread.apiKey, expire: '2099-01-01', count: 3, isPremium: false, note: 'thread' }),
      });
      const body = (await res.body.json()) as { generatedKeys: { value: string }[] };
      expect(res.statusCode).toBe(201);
      expect(body.generatedKeys).toHaveLength(3);
    } finally {
      await thread.close(2_000);
    }
    // Closed: the port refuses, and the store's file holds the keys it made.
    await expect(request(thread.url)).rejects.toThrow();
    const store = new SandboxStore(file);
    try {
      expect(store.inspect("SELECT count(*) AS n FROM keys JOIN notes ON notes.id = keys.note_id WHERE notes.text = 'thread'")).toEqual([
        { n: 3 },
      ]);
      expect(store.serviceByApiKey(thread.apiKey)?.identifier).toBe('demo');
    } finally {
      store.close();
    }
  });

  it('keeps a known stored key and issues one for a lost key', async () => {
    const file = join(tempDir('keydesk-sandbox-thread-'), 'sandbox.db');
    const first = await startSandboxThread({ file, cacheKiB: 1024, service: SERVICE, ports: [0], apiKey: null }, noExit);
    await first.close(2_000);
    const again = await startSandboxThread({ file, cacheKiB: 1024, service: SERVICE, ports: [0], apiKey: first.apiKey }, noExit);
    await again.close(2_000);
    expect(again.apiKey).toBe(first.apiKey);
    const lost = await startSandboxThread({ file, cacheKiB: 1024, service: SERVICE, ports: [0], apiKey: null }, noExit);
    await lost.close(2_000);
    expect(lost.apiKey).not.toBe(first.apiKey);
  });

  it("rejects with SQLite's code when its database cannot be opened", async () => {
    const file = join(tempDir('keydesk-sandbox-thread-'), 'no-such-folder', 'sandbox.db');
    const start = startSandboxThread({ file, cacheKiB: 1024, service: SERVICE, ports: [0], apiKey: null }, noExit);
    await expect(start).rejects.toBeInstanceOf(SandboxStartError);
    await expect(start).rejects.toMatchObject({ code: 'ERR_SQLITE_ERROR' });
  });

  it('closes with the core: its port refuses afterwards', async () => {
    const t = await startTestCore();
    const url = t.core.sandboxState().url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const r = await t.must('keys.generate', { expire: '2099-01-01', count: 2, isPremium: false });
    expect(r.generated.count).toBe(2);
    await t.close();
    await expect(request(url ?? '')).rejects.toThrow();
  });
});
