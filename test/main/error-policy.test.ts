// One error policy: every failure that crosses the bridge has a code, a message a vendor reads first and, apart,
// the technical detail; no raw exception text (D-Bus, SQLite, zod) reaches a result or the audit log.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SANDBOX_PROFILE_ID } from '../../src/main/core.ts';
import { audited } from '../../src/main/handlers/types.ts';
import { MemorySecretStore } from '../../src/main/secrets/secret-store.ts';
import { startSandboxServer } from '../../src/sandbox/server.ts';
import type { Failure } from '../../src/shared/result.ts';
import { startTestCore, type TestCore } from '../support/core.ts';
import { startRemoteSandbox, type RemoteSandbox } from '../support/remote-sandbox.ts';
import { tempDir } from '../support/temp-dir.ts';

const DBUS_TEXT = 'org.freedesktop.Secret.Error.IsLocked: Cannot create an item in a locked collection';
const RAW = /freedesktop|IsLocked|locked collection|SQLITE|database is locked|Invalid input|expected string|received/i;

/** A keychain that answers until it is locked, then refuses the way libsecret does over D-Bus. */
class LockableSecretStore extends MemorySecretStore {
  locked = false;
  override get(account: string): Promise<string | null> {
    return this.locked ? Promise.reject(new Error(DBUS_TEXT)) : super.get(account);
  }
  override set(account: string, secret: string): Promise<void> {
    return this.locked ? Promise.reject(new Error(DBUS_TEXT)) : super.set(account, secret);
  }
  override delete(account: string): Promise<boolean> {
    return this.locked ? Promise.reject(new Error(DBUS_TEXT)) : super.delete(account);
  }
}

let t: TestCore;
let secrets: LockableSecretStore;
let remote: RemoteSandbox;
const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);

beforeAll(async () => {
  secrets = new LockableSecretStore();
  t = await startTestCore({ secrets });
  remote = await startRemoteSandbox();
});
afterAll(async () => {
  await t.close();
  await remote.close();
  logged.mockRestore();
});

const lastAudit = async () => (await t.must('audit.list', { filter: {}, offset: 0, limit: 1 })).entries[0]!;

describe('a locked keychain', () => {
  let remoteId: string;
  beforeAll(async () => {
    remoteId = (await t.must('profiles.add', { name: 'Remote', baseUrl: remote.url, apiKey: remote.apiKey })).id;
    secrets.locked = true;
  });
  afterAll(() => {
    secrets.locked = false;
  });

  it('on replacing a key: KEYCHAIN_UNAVAILABLE in words, no D-Bus text anywhere', async () => {
    const r = await t.call('profiles.update', { id: remoteId, apiKey: remote.apiKey });
    expect(r).toMatchObject({ ok: false, code: 'KEYCHAIN_UNAVAILABLE' });
    const f = r as Failure;
    expect(f.message).toBe(
      'The OS keychain refused to store the API key for "Remote". It may be locked: unlock it and try again. Nothing was saved.',
    );
    expect(f.detail).toBe("keychain store failed; the system's own message is in Keydesk's log.");
    expect(JSON.stringify(r)).not.toMatch(RAW);
    const entry = await lastAudit();
    expect(entry).toMatchObject({ action: 'profiles.update', outcome: 'failed', message: f.message });
    expect(JSON.stringify(entry)).not.toMatch(RAW);
    expect(logged.mock.calls.some((c) => c.some((a) => a instanceof Error && a.message === DBUS_TEXT))).toBe(true);
  });

  it('on adding a profile and on calling the service, the same words', async () => {
    const added = await t.call('profiles.add', { name: 'Second', baseUrl: remote.url, apiKey: remote.apiKey });
    expect(added).toMatchObject({
      ok: false,
      code: 'KEYCHAIN_UNAVAILABLE',
      message: 'The OS keychain refused to store the API key for "Second". It may be locked: unlock it and try again. Nothing was saved.',
    });
    await t.must('profiles.select', { id: remoteId });
    const read = await t.call('identifier.check', { identifier: 'remote-co' });
    expect(read).toMatchObject({
      ok: false,
      code: 'KEYCHAIN_UNAVAILABLE',
      message: 'The OS keychain did not give Keydesk the API key for "Remote". It may be locked: unlock it and try again.',
    });
    const removed = await t.call('profiles.remove', { id: remoteId });
    expect(removed).toMatchObject({ ok: false, code: 'KEYCHAIN_UNAVAILABLE' });
    expect((removed as Failure).message).toMatch(/refused to delete the API key for "Remote".*The profile was kept\.$/);
    expect(JSON.stringify([added, read, removed])).not.toMatch(RAW);
    expect(t.core.profiles.get(remoteId)).not.toBeNull();
  });
});

describe('a keychain locked before Keydesk starts', () => {
  it('keeps the Local sandbox working with its key kept for the session', async () => {
    const locked = new LockableSecretStore();
    locked.locked = true;
    const u = await startTestCore({ secrets: locked });
    try {
      expect((await u.must('app.status')).sandbox).toMatchObject({ running: true, error: null });
      expect((await u.must('keys.generate', { expire: '2099-01-01', count: 1, isPremium: false })).generated.count).toBe(1);
    } finally {
      await u.close();
    }
  });
});

describe('a failure from the service', () => {
  beforeAll(async () => {
    await t.must('profiles.select', { id: SANDBOX_PROFILE_ID });
  });

  it("reads in the vendor's words, with status, route and wording as detail", async () => {
    const r = await t.call('keys.delete', { keyValue: 'NO-SUCH-KEY' });
    expect(r).toMatchObject({ ok: false, code: 'NOT_FOUND', message: 'The service has no key with that value.' });
    const detail = (r as Failure).detail ?? '';
    expect(detail).toMatch(/^POST \/api\/key\/delete: .*\(HTTP 404\)$/);
    const apiKey = (await secrets.get(SANDBOX_PROFILE_ID)) ?? 'unset';
    expect(detail).not.toContain(apiKey);
    expect(await lastAudit()).toMatchObject({
      action: 'keys.delete',
      target: 'NO-SUCH-KEY',
      outcome: 'failed',
      message: 'The service has no key with that value.',
    });
  });

  it('an unreachable service: NETWORK in words, the redacted address as detail', async () => {
    const closed = await startSandboxServer({ store: remote.store });
    const url = closed.url;
    await closed.close();
    const r = await t.call('profiles.add', { name: 'Gone', baseUrl: url, apiKey: remote.apiKey });
    expect(r).toMatchObject({
      ok: false,
      code: 'NETWORK',
      message: 'Keydesk could not reach the service. Check that it is running and that the address is right. Nothing was saved.',
    });
    const detail = (r as Failure).detail ?? '';
    expect(detail).toContain(`GET ${url}/api/execution-count?apiKey=[redacted]`);
    expect(detail).not.toContain(remote.apiKey);
  });
});

describe('a handler that throws', () => {
  it('is an INTERNAL failure naming the action; raw text only logged', async () => {
    const r = await audited(t.core, { id: SANDBOX_PROFILE_ID, name: 'Local sandbox' }, 'keys.extend', 'KEY-1', () =>
      Promise.reject(Object.assign(new Error('SQLITE_BUSY: database is locked'), { code: 'ERR_SQLITE_ERROR' })),
    );
    expect(r).toEqual({
      ok: false,
      code: 'INTERNAL',
      message: 'Keydesk could not finish “Extend a key” because of an internal error. Try again, and report it if it repeats.',
      detail: "unexpected error (ERR_SQLITE_ERROR) in “Extend a key”; the full text is in Keydesk's log.",
    });
    const entry = await lastAudit();
    expect(entry).toMatchObject({ action: 'keys.extend', outcome: 'failed', message: (r as Failure).message });
    expect(JSON.stringify(entry)).not.toMatch(RAW);
  });
});

describe('an export that cannot be written', () => {
  it('says so in words with the error code, never the system text', async () => {
    const blocker = join(tempDir('keydesk-blocked-'), 'a-file');
    writeFileSync(blocker, '');
    const u = await startTestCore({ askSavePath: () => Promise.resolve(join(blocker, 'export.csv')) });
    try {
      const r = await u.call('audit.export', { filter: {}, format: 'csv' });
      expect(r).toEqual({
        ok: false,
        code: 'INTERNAL',
        message: 'The export could not be written: the system refused. Choose another place and try again.',
        detail: 'writing the export failed (ENOTDIR)',
      });
    } finally {
      await u.close();
    }
  });
});

describe('input the contract refuses', () => {
  it('is answered in clear words, never zod defaults', async () => {
    const cases = [
      [
        await t.call('profiles.add', { name: 5, baseUrl: 'https://a.example', apiKey: 'k', extra: true } as never),
        'Name: Must be text. Keydesk does not know the field "extra".',
      ],
      [await t.call('profiles.add', { baseUrl: 'https://a.example', apiKey: 'k' } as never), 'Name: This is required.'],
      [
        await t.call('profiles.add', { name: 'x'.repeat(101), baseUrl: 'https://a.example', apiKey: 'k' }),
        'Name: Use at most 100 characters.',
      ],
      [await t.call('jobs.cancel', { jobId: 'not-a-uuid' }), 'Job id: Must be an id Keydesk made (a UUID).'],
      [await t.call('executions.history', { range: 'week' } as never), 'Range: Must be one of "1h", "24h", "7d", "30d", "all".'],
      [await t.call('app.status', {} as never), 'This operation takes no input.'],
      [await t.call('jobs.start', { action: 'extend', target: { keyValues: [] }, days: 1 }), 'Keys: Give at least 1.'],
      [await t.call('jobs.start', { action: 'extend', target: { keyValues: ['KD-1', ''] }, days: 1 }), 'Key is required.'],
    ] as const;
    for (const [r, message] of cases) {
      expect(r).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
      expect((r as Failure).message).toBe(message);
    }
  });
});
