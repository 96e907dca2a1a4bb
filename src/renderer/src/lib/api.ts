// The renderer's only door to the main process. Views and components go through the store, which calls this.
import type { KeydeskBridge } from '../../../shared/contract.ts';

export function bridge(): KeydeskBridge {
  return window.keydesk;
}
