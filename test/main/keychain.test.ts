// The real OS keychain (gnome-keyring over a private D-Bus session), and the session-only fallback when no
// keychain answers. These run in CI; they are not skipped.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { KeytarSecretStore, openSecretStore } from '../../src/main/secrets/keytar-store.ts';
import { MemorySecretStore } from '../../src/main/secrets/secret-store.ts';
import { startKeyring, type Keyring } from '../support/keyring.ts';

const SERVICE = `Keydesk-test-${process.pid}`;

describe('OS keychain through keytar', () => {
  let keyring: Keyring;
  beforeAll(() => {
    keyring = startKeyring();
  });
  afterAll(() => {
    keyring.stop();
  });

  // The probe's own timeout is tested below with a keychain that hangs; here the real one only has to answer,
  // however loaded the machine is.
  const patient = { service: SERVICE, probeTimeoutMs: 60_000 };

  it('is chosen when it answers, and stores, replaces and deletes a secret', async () => {
    const { store, fallbackReason } = await openSecretStore(patient);
    expect(fallbackReason).toBeNull();
    expect(store).toBeInstanceOf(KeytarSecretStore);
    expect(store.kind).toBe('os-keychain');
    await store.set('profile-1', 'kd_first');
    expect(await store.get('profile-1')).toBe('kd_first');
    await store.set('profile-1', 'kd_second');
    expect(await store.get('profile-1')).toBe('kd_second');
    expect(await store.delete('profile-1')).toBe(true);
    expect(await store.get('profile-1')).toBeNull();
    expect(await store.delete('profile-1')).toBe(false);
  });

  it('keeps accounts apart', async () => {
    const { store } = await openSecretStore(patient);
    await store.set('a', 'kd_a');
    await store.set('b', 'kd_b');
    expect([await store.get('a'), await store.get('b')]).toEqual(['kd_a', 'kd_b']);
    await store.delete('a');
    expect(await store.get('b')).toBe('kd_b');
    await store.delete('b');
  });
});

describe('session-only fallback', () => {
  let warn: MockInstance<typeof console.warn>;
  beforeEach(() => {
    warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    warn.mockRestore();
  });

  it('is used, with the reason, when keytar cannot load', async () => {
    const opened = await openSecretStore({
      loadKeytar: () => {
        throw new Error('libsecret-1.so.0: cannot open shared object file');
      },
    });
    expect(opened.store).toBeInstanceOf(MemorySecretStore);
    expect(opened.store.kind).toBe('session-only');
    expect(opened.fallbackReason).toBe('No OS keychain answered: the keychain module could not load.');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('libsecret-1.so.0: cannot open shared object file'));
  });

  it('is used when no keychain answers (no session bus)', async () => {
    const saved = process.env.DBUS_SESSION_BUS_ADDRESS;
    process.env.DBUS_SESSION_BUS_ADDRESS = 'unix:path=/nonexistent/keydesk-test-bus';
    try {
      const opened = await openSecretStore({ service: SERVICE, probeTimeoutMs: 2_000 });
      expect(opened.store.kind).toBe('session-only');
      // The raw D-Bus text ("Cannot autolaunch D-Bus…", "org.freedesktop…") goes to the log, never to the screen.
      expect(opened.fallbackReason).toMatch(
        /^No OS keychain answered: (the Secret Service is not running|it did not answer within 2 s)\.$/,
      );
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/keychain probe failed/));
    } finally {
      if (saved === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
      else process.env.DBUS_SESSION_BUS_ADDRESS = saved;
    }
  });

  it('is used when the keychain hangs past the probe timeout', async () => {
    const opened = await openSecretStore({
      probeTimeoutMs: 50,
      loadKeytar: () => ({
        getPassword: () => new Promise<never>(() => {}),
        setPassword: () => new Promise<never>(() => {}),
        deletePassword: () => new Promise<never>(() => {}),
      }),
    });
    expect(opened.store.kind).toBe('session-only');
    expect(opened.fallbackReason).toBe('No OS keychain answered: it did not answer within 0.05 s.');
  });

  it('keeps secrets in memory only for the session', async () => {
    const store = new MemorySecretStore();
    await store.set('p', 'kd_x');
    expect(await store.get('p')).toBe('kd_x');
    expect(await store.delete('p')).toBe(true);
    expect(await new MemorySecretStore().get('p')).toBeNull();
  });
});
