import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { MemorySecretStore, type SecretStore } from './secret-store.ts';

/** The keychain service name every Keydesk secret is stored under; the account is the profile id. */
export const KEYCHAIN_SERVICE = 'Keydesk';

interface Keytar {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export class KeytarSecretStore implements SecretStore {
  readonly kind = 'os-keychain' as const;
  private readonly keytar: Keytar;
  private readonly service: string;

  constructor(keytar: Keytar, service = KEYCHAIN_SERVICE) {
    this.keytar = keytar;
    this.service = service;
  }
  get(account: string): Promise<string | null> {
    return this.keytar.getPassword(this.service, account);
  }
  set(account: string, secret: string): Promise<void> {
    return this.keytar.setPassword(this.service, account, secret);
  }
  delete(account: string): Promise<boolean> {
    return this.keytar.deletePassword(this.service, account);
  }
}

export interface OpenedSecretStore {
  store: SecretStore;
  /** Why the keychain is not used, in words for the user; null when it is. */
  fallbackReason: string | null;
}

const withTimeout = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms).unref())]);

/**
 * The OS keychain through keytar, proven by a round trip (set, read back, delete) before it is trusted; or,
 * when keytar cannot load or no keychain answers, memory for this session.
 */
export async function openSecretStore(
  options: { loadKeytar?: () => Keytar; service?: string; probeTimeoutMs?: number } = {},
): Promise<OpenedSecretStore> {
  const load = options.loadKeytar ?? (() => createRequire(import.meta.url)('keytar') as Keytar);
  let keytar: Keytar;
  try {
    keytar = load();
  } catch (error) {
    return { store: new MemorySecretStore(), fallbackReason: `The keychain module could not load (${(error as Error).message}).` };
  }
  const store = new KeytarSecretStore(keytar, options.service);
  const account = `probe-${randomUUID()}`;
  // A keychain that is there but slow (a loaded machine, a keyring opening for the first time) must not send the
  // user's keys to session-only storage; one that hangs must not hold up the start for long either.
  const timeout = options.probeTimeoutMs ?? 10_000;
  try {
    await withTimeout(store.set(account, 'probe'), timeout, 'The keychain');
    const back = await withTimeout(store.get(account), timeout, 'The keychain');
    await withTimeout(store.delete(account), timeout, 'The keychain');
    if (back !== 'probe') throw new Error('it did not return what was stored');
    return { store, fallbackReason: null };
  } catch (error) {
    return { store: new MemorySecretStore(), fallbackReason: `No OS keychain answered (${(error as Error).message}).` };
  }
}
