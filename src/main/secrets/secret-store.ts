// Where apiKeys live. The OS keychain when one answers; otherwise memory for this session only, and the
// user is told. Never a plaintext file.
import type { SecretStorageKind } from '../../shared/domain.ts';

export interface SecretStore {
  readonly kind: SecretStorageKind;
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  /** True when something was deleted. */
  delete(account: string): Promise<boolean>;
}

export class MemorySecretStore implements SecretStore {
  readonly kind = 'session-only' as const;
  private readonly secrets = new Map<string, string>();

  get(account: string): Promise<string | null> {
    return Promise.resolve(this.secrets.get(account) ?? null);
  }
  set(account: string, secret: string): Promise<void> {
    this.secrets.set(account, secret);
    return Promise.resolve();
  }
  delete(account: string): Promise<boolean> {
    return Promise.resolve(this.secrets.delete(account));
  }
}
