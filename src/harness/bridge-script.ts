// The browser side of the harness's loopback bridge: window.keydesk with the preload's exact shape (one
// function per operation, plus on()), carried over fetch and EventSource to the harness instead of IPC.
import { EVENT_NAMES, OPERATION_NAMES } from '../shared/operations.ts';

export const BRIDGE_PATH = '/__keydesk/bridge.js';
export const RPC_PREFIX = '/__keydesk/rpc/';
export const EVENTS_PATH = '/__keydesk/events';
export const TOKEN_HEADER = 'x-keydesk-token';

export function bridgeScript(): string {
  return `(() => {
  'use strict';
  const meta = document.querySelector('meta[name="keydesk-harness-token"]');
  const token = meta ? meta.getAttribute('content') : '';
  const operations = ${JSON.stringify(OPERATION_NAMES)};
  const events = ${JSON.stringify(EVENT_NAMES)};
  const bridge = {};
  for (const name of operations) {
    bridge[name] = async (input) => {
      try {
        const res = await fetch(${JSON.stringify(RPC_PREFIX)} + name, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ${JSON.stringify(TOKEN_HEADER)}: token },
          body: JSON.stringify({ input }),
        });
        return await res.json();
      } catch (error) {
        return { ok: false, code: 'NETWORK', message: 'The Keydesk harness is not answering (' + (error && error.message) + ').' };
      }
    };
  }
  const listeners = new Map(events.map((e) => [e, new Set()]));
  let source = null;
  bridge.on = (event, listener) => {
    if (!listeners.has(event)) throw new Error('Unknown Keydesk event: ' + event);
    if (source === null) {
      source = new EventSource(${JSON.stringify(EVENTS_PATH)} + '?token=' + encodeURIComponent(token));
      for (const e of events) {
        source.addEventListener(e, (m) => { for (const l of listeners.get(e)) l(JSON.parse(m.data)); });
      }
    }
    listeners.get(event).add(listener);
    return () => { listeners.get(event).delete(listener); };
  };
  Object.defineProperty(window, 'keydesk', { value: Object.freeze(bridge), enumerable: true });
})();
`;
}
