// Code inside page.evaluate runs in the browser, where the bridge is window.keydesk.
import type { KeydeskBridge } from '../../src/shared/contract.ts';

declare global {
  var window: { readonly keydesk: KeydeskBridge };
}
