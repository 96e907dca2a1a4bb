// Secrets and local files: a stored apiKey never goes to another origin; profiles.json is parsed with a schema and,
// when refused, left untouched with a copy beside it; the reason keys are session-only reaches app.status.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SANDBOX_PROFILE_ID } from '../../src/main/core.ts';
import { MemorySecretStore, type SecretStore } from '../../src/main/secrets/secret-store.ts';
import { startCaptureServer, type CaptureServer } from '../support/capture-server.ts';
import { startTestCore, type TestCore } from '../support/core.ts';
import { startRemoteSandbox, type RemoteSandbox } from '../support/remote-sandbox.ts';
import { tempDir } from '../support/temp-dir.ts';

vi.spyOn(console, 'error').mockImplementation(() => undefined);

describe('a stored apiKey never goes to another origin', () => {
  let t: TestCore;
  let remote: RemoteSandbox;
  let capture: CaptureServer;
  let id: string;

  beforeAll(async () => {
    t = await startTestCore();
    remote = await startRemoteSandbox();
    capture = await startCaptureServer();
    id = (await t.must('profiles.add', { name: 'Remote', baseUrl: remote.url, apiKey: remote.apiKey })).id;
  });
  afterAll(async () => {
    await t.close();
    await remote.close();
    await capture.close();
  });

  it('refuses a profile move to a new origin without the key retyped', async () => {
    const r = await t.call('profiles.update', { id, baseUrl: capture.url });
    expect(r).toEqual({
      ok: false,
      code: 'API_KEY_MISSING',
      message: `Type the API key again to move "Remote" to ${capture.url}: Keydesk never sends a stored key to a new address. Nothing was saved.`,
    });
    expect(capture.requests).toEqual([]);
    expect(t.core.profiles.get(id)?.baseUrl).toBe(remote.url);
    const entry = (await t.must('audit.list', { filter: {}, offset: 0, limit: 1 })).entries[0];
    expect(entry).toMatchObject({ action: 'profiles.update', outcome: 'failed' });
  });

  it("is kept from another origin's validation URL too", async () => {
    const r = await t.call('profiles.update', { id, baseUrl: capture.url, validationUrl: `${capture.url}/v2_validation`, name: 'Moved' });
    expect(r).toMatchObject({ ok: false, code: 'API_KEY_MISSING' });
    expect(capture.requests).toEqual([]);
  });

  it('checks the retyped key at the new origin, sending only that key', async () => {
    const r = await t.call('profiles.update', { id, baseUrl: capture.url, apiKey: 'kd_typed-anew-1234' });
    expect(r).toMatchObject({ ok: false, code: 'API_KEY_INVALID', message: 'The service refused this API key. Nothing was saved.' });
    expect(capture.requests).toHaveLength(1);
    expect(capture.requests[0]?.url).toBe('/api/execution-count?apiKey=kd_typed-anew-1234');
    expect(capture.everything()).not.toContain(remote.apiKey);
    expect(t.core.profiles.get(id)?.baseUrl).toBe(remote.url);
    expect(await t.core.secrets.get(id)).toBe(remote.apiKey);
  });

  it('keeps using the stored key on its own origin', async () => {
    const renamed = await t.must('profiles.update', { id, name: 'Remote Co', baseUrl: remote.url });
    expect(renamed).toMatchObject({ name: 'Remote Co', baseUrl: remote.url, hasKey: true });
  });
});

describe('profiles.json', () => {
  const refusedFile = async (content: string) => {
    const userData = tempDir('keydesk-profiles-');
    const path = join(userData, 'profiles.json');
    writeFileSync(path, content);
    const t = await startTestCore({ userDataDir: userData });
    return { t, path, userData };
  };
  const copies = (dir: string) => readdirSync(dir).filter((f) => f.startsWith('profiles.json.refused-'));

  it('unreadable JSON: refused naming the file, left untouched, a copy beside it', async () => {
    const content = '{"version": 1, "profiles": [ {"id": "p_1", "name": "Acme"'; // cut short by a crash or a bad sync
    const { t, path, userData } = await refusedFile(content);
    try {
      const status = await t.must('app.status');
      expect(status.profilesFileProblem).toBe(
        `Keydesk did not use ${path}: it is not valid JSON. The file was left as it is, a copy is kept beside it as ${copies(userData)[0] ?? '?'}, ` +
          'and Keydesk started with the Local sandbox profile alone. Your next change to profiles writes a new file.',
      );
      expect(readFileSync(path, 'utf8')).toBe(content);
      expect(copies(userData)).toHaveLength(1);
      expect(readFileSync(join(userData, copies(userData)[0]!), 'utf8')).toBe(content);
      expect((await t.must('profiles.list')).profiles.map((p) => p.id)).toEqual([SANDBOX_PROFILE_ID]);
      expect((await t.must('executions.get')).executionCount).toBe(0);
      expect(readFileSync(path, 'utf8')).toBe(content);

      // The user's first change writes a new file; the copy keeps the old one, and the message says so now.
      await t.must('profiles.select', { id: SANDBOX_PROFILE_ID });
      expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ version: 1, activeProfileId: SANDBOX_PROFILE_ID });
      expect(readFileSync(join(userData, copies(userData)[0]!), 'utf8')).toBe(content);
      expect((await t.must('app.status')).profilesFileProblem).toBe(
        `Keydesk did not use ${path}: it is not valid JSON. A copy of it is kept beside it as ${copies(userData)[0] ?? '?'}; your changes to profiles since are in a new file.`,
      );
    } finally {
      await t.close();
    }
  });

  it('written by a newer Keydesk: refused, saying so, the file untouched', async () => {
    const content = JSON.stringify({ version: 2, activeProfileId: 'p_1', profiles: [{ id: 'p_1', name: 'Acme', futureField: {} }] });
    const { t, path, userData } = await refusedFile(content);
    try {
      const { profilesFileProblem } = await t.must('app.status');
      expect(profilesFileProblem).toMatch(
        new RegExp(
          `^Keydesk did not use ${path.replaceAll('.', '\\.')}: it was written by a newer Keydesk \\(format 2; this one reads 1\\)\\.`,
        ),
      );
      expect(readFileSync(path, 'utf8')).toBe(content);
      expect(copies(userData)).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it.each([
    ['a field of the wrong type', [{ id: 5, name: 'Acme' }]],
    [
      'a base URL that is not an http(s) address',
      [
        {
          id: 'p_1',
          name: 'Acme',
          kind: 'remote',
          baseUrl: 'file:///etc',
          validationUrl: 'https://a.example/v2_validation',
          serviceIdentifier: null,
          keyHint: null,
        },
      ],
    ],
  ])('of the right version but wrong shape (%s): refused by the schema', async (_name, profiles) => {
    const content = JSON.stringify({ version: 1, activeProfileId: null, profiles });
    const { t, path } = await refusedFile(content);
    try {
      expect((await t.must('app.status')).profilesFileProblem).toMatch(/: its contents are not profiles this Keydesk understands\./);
      expect(readFileSync(path, 'utf8')).toBe(content);
      expect((await t.must('profiles.list')).profiles).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it('that cannot be copied: never replaced, changes last for the session', async () => {
    const userData = tempDir('keydesk-profiles-');
    const path = join(userData, 'profiles.json');
    mkdirSync(path);
    const t = await startTestCore({ userDataDir: userData });
    try {
      const message = (await t.must('app.status')).profilesFileProblem;
      expect(message).toMatch(
        new RegExp(
          `^Keydesk did not use ${path.replaceAll('.', '\\.')}: it could not be read \\(EISDIR\\)\\. No copy of it could be made \\(\\w+\\), so Keydesk leaves it as it is`,
        ),
      );
      expect(message).toMatch(/changes to profiles last for this session only\.$/);
      await t.must('profiles.select', { id: SANDBOX_PROFILE_ID });
      expect(statSync(path).isDirectory()).toBe(true);
      expect(copies(userData)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('a good file is read back after a restart, with no problem', async () => {
    const userData = tempDir('keydesk-profiles-');
    const secrets = new MemorySecretStore();
    const remote = await startRemoteSandbox({ name: 'Shop', identifier: 'shop' });
    try {
      const first = await startTestCore({ userDataDir: userData, secrets });
      const added = await first.must('profiles.add', { name: 'Shop', baseUrl: remote.url, apiKey: remote.apiKey });
      await first.must('profiles.select', { id: added.id });
      await first.close();
      const second = await startTestCore({ userDataDir: userData, secrets });
      expect((await second.must('app.status')).profilesFileProblem).toBeNull();
      expect((await second.must('profiles.list')).activeProfileId).toBe(added.id);
      expect(existsSync(join(userData, 'profiles.json'))).toBe(true);
      expect(copies(userData)).toEqual([]);
      await second.close();
    } finally {
      await remote.close();
    }
  });
});

describe('why keys are session-only', () => {
  it('reaches app.status in words', async () => {
    const reason = 'No OS keychain answered (The keychain did not answer within 3000 ms).';
    const t = await startTestCore({ secretsFallbackReason: reason });
    try {
      expect(await t.must('app.status')).toMatchObject({ secretStorage: 'session-only', secretStorageReason: reason });
    } finally {
      await t.close();
    }
  });

  it('is null when the OS keychain holds the keys', async () => {
    const memory = new MemorySecretStore();
    const keychain: SecretStore = {
      kind: 'os-keychain',
      get: (a) => memory.get(a),
      set: (a, s) => memory.set(a, s),
      delete: (a) => memory.delete(a),
    };
    const t = await startTestCore({ secrets: keychain, secretsFallbackReason: null });
    try {
      expect(await t.must('app.status')).toMatchObject({ secretStorage: 'os-keychain', secretStorageReason: null });
    } finally {
      await t.close();
    }
  });
});
