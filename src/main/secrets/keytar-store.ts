// The OS keychain through keytar, trusted only after a round-trip probe; memory for the session otherwise.
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

/** A probe step that did not answer in time: told apart from a keychain that answered with an error. */
class ProbeTimeout extends Error {
  readonly ms: number;
  constructor(ms: number) {
    super(`The keychain did not answer within ${ms} ms`);
    this.ms = ms;
  }
}

/** The keychain answered, but not with the secret it was given. */
class ProbeMismatch extends Error {}

const withTimeout = <T>(p: Promise<T>, ms: number): Promise<T> =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new ProbeTimeout(ms)), ms).unref())]);

const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(2))} s`;

/** The reason the user reads: never the raw error text (D-Bus names, library paths), which goes to main's log. */
function fallbackWords(error: unknown): string {
  if (error instanceof ProbeTimeout) return `No OS keychain answered: it did not answer within ${seconds(error.ms)}.`;
  if (error instanceof ProbeMismatch)
    return 'The OS keychain answered but did not give back the test secret it was given, so it is not trusted.';
  return 'No OS keychain answered: the Secret Service is not running.';
}

const rawText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The OS keychain via keytar, trusted after a set/read/delete round trip; else memory for this session. */
export async function openSecretStore(
  options: { loadKeytar?: () => Keytar; service?: string; probeTimeoutMs?: number } = {},
): Promise<OpenedSecretStore> {
  const load = options.loadKeytar ?? (() => createRequire(import.meta.url)('keytar') as Keytar);
  let keytar: Keytar;
  try {
    keytar = load();
  } catch (error) {
    console.warn(`Keydesk: the keychain module (keytar) could not load: ${rawText(error)}`);
    return { store: new MemorySecretStore(), fallbackReason: 'No OS keychain answered: the keychain module could not load.' };
  }
  const store = new KeytarSecretStore(keytar, options.service);
  const account = `probe-${randomUUID()}`;
  // Long enough for a slow keyring opening for the first time, short enough that a hung one does not hold the start.
  const timeout = options.probeTimeoutMs ?? 10_000;
  try {
    await withTimeout(store.set(account, 'probe'), timeout);
    const back = await withTimeout(store.get(account), timeout);
    await withTimeout(store.delete(account), timeout);
    if (back !== 'probe') throw new ProbeMismatch('the keychain did not return what was stored');
    return { store, fallbackReason: null };
  } catch (error) {
    console.warn(`Keydesk: the OS keychain probe failed, secrets are kept for this session only: ${rawText(error)}`);
    return { store: new MemorySecretStore(), fallbackReason: fallbackWords(error) };
  }
}
