// The harness's transport for the shared bridge: operations over fetch with this run's token, events over one
// EventSource. Typed against the few browser APIs it uses, so it is unit-tested in Node with fakes.
import { buildBridge, type BridgeTransport } from '../shared/bridge.ts';
import { readAnswer, type AnswerResponse } from './answer-frame.ts';
import { EVENT_NAMES, type EventName } from '../shared/operations.ts';
import { fail } from '../shared/result.ts';

export const BRIDGE_PATH = '/__keydesk/bridge.js';
export const RPC_PREFIX = '/__keydesk/rpc/';
export const EVENTS_PATH = '/__keydesk/events';
export const TOKEN_HEADER = 'x-keydesk-token';
export const TOKEN_META = 'keydesk-harness-token';

export interface EventSourceLike {
  addEventListener(type: string, listener: (message: { data: string }) => void): void;
}
export type FetchLike = (url: string, init: { method: 'POST'; headers: Record<string, string>; body: string }) => Promise<AnswerResponse>;

export function loopbackTransport(token: string, env: { fetch: FetchLike; openEvents: (url: string) => EventSourceLike }): BridgeTransport {
  const deliveries = new Map<EventName, Set<(payload: unknown) => void>>(EVENT_NAMES.map((e) => [e, new Set()]));
  let source: EventSourceLike | null = null;
  const connect = (): void => {
    if (source) return;
    source = env.openEvents(`${EVENTS_PATH}?token=${encodeURIComponent(token)}`);
    for (const event of EVENT_NAMES) {
      source.addEventListener(event, (message) => {
        const payload: unknown = JSON.parse(message.data);
        for (const deliver of deliveries.get(event) ?? []) deliver(payload);
      });
    }
  };
  return {
    invoke: async (name, input) => {
      try {
        const res = await env.fetch(RPC_PREFIX + name, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token },
          body: JSON.stringify({ input }),
        });
        // JSON, or framed when it carries byte columns (answer-frame.ts).
        return await readAnswer(res);
      } catch (error) {
        // No answer at all from the harness: Keydesk's own core is gone, not the service (the renderer says so).
        return {
          ...fail('NETWORK', `The Keydesk harness is not answering (${error instanceof Error ? error.message : String(error)}).`),
          keydeskGone: true,
        };
      }
    },
    subscribe: (event, deliver) => {
      connect();
      // The builder hands a fresh function per subscription, so a Set never merges two of them.
      const set = deliveries.get(event);
      set?.add(deliver);
      return () => set?.delete(deliver);
    },
  };
}

/** The few browser globals the harness page gives the bridge. */
export interface BrowserGlobals {
  document: { querySelector(selector: string): { getAttribute(name: string): string | null } | null };
  fetch: FetchLike;
  EventSource: new (url: string) => EventSourceLike;
}

/** Defines window.keydesk, read-only, as the preload's contextBridge does. */
export function installLoopbackBridge(globals: BrowserGlobals): void {
  const token = globals.document.querySelector(`meta[name="${TOKEN_META}"]`)?.getAttribute('content') ?? '';
  const bridge = buildBridge(
    loopbackTransport(token, { fetch: (url, init) => globals.fetch(url, init), openEvents: (url) => new globals.EventSource(url) }),
  );
  Object.defineProperty(globals, 'keydesk', { value: bridge, enumerable: true });
}
