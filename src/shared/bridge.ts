// The one builder of window.keydesk, over a transport the preload (IPC) or the harness (loopback) hands it.
// Imports names and types alone: the sandboxed preload bundle must not pull in zod.
import type { EventMap, KeydeskBridge } from './contract.ts';
import { EVENT_NAMES, OPERATION_NAMES, type EventName, type OperationName } from './operations.ts';

export interface BridgeTransport {
  /** Sends one operation's input; the answer is the handler's Result. The name is fixed by the bridge. */
  invoke(name: OperationName, input: unknown): Promise<unknown>;
  /** Delivers each payload of `event` to `deliver` until the returned function is called. */
  subscribe(event: EventName, deliver: (payload: unknown) => void): () => void;
}

const isEventName = (event: string): event is EventName => (EVENT_NAMES as readonly string[]).includes(event);

export function buildBridge(transport: BridgeTransport): KeydeskBridge {
  const bridge: Record<string, unknown> = {};
  for (const name of OPERATION_NAMES) {
    // Only the input crosses; the renderer cannot pick a channel or an operation name of its own.
    bridge[name] = (input: unknown) => transport.invoke(name, input);
  }
  bridge.on = <E extends EventName>(event: E, listener: (payload: EventMap[E]) => void): (() => void) => {
    if (!isEventName(event)) throw new Error(`Unknown Keydesk event: ${String(event)}`);
    if (typeof listener !== 'function') throw new Error('A Keydesk event listener must be a function.');
    // Each call is its own subscription; an unsubscribe called twice removes only its own.
    let off: (() => void) | null = transport.subscribe(event, (payload) => listener(payload as EventMap[E]));
    return () => {
      off?.();
      off = null;
    };
  };
  return Object.freeze(bridge) as KeydeskBridge;
}
