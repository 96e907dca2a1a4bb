import type { KeydeskBridge } from '../../shared/contract.ts';

declare global {
  interface Window {
    /** Set by the preload; only lib/api.ts may touch it. */
    readonly keydesk: KeydeskBridge;
  }
}
