// The renderer's only door to the main process. Views and components go through the store, which calls this.
import type { EventMap, EventName, OperationInput, OperationName, OperationResult } from '../../../shared/contract.ts';

/** Whether Keydesk's core answered a call ('answered', whatever it said) or could not be reached at all ('gone'). */
export type KeydeskReach = 'answered' | 'gone';
const reachListeners = new Set<(reach: KeydeskReach) => void>();

/** Hears, after every call, whether Keydesk's core answered it (Failure.keydeskGone: it did not); returns the unsubscribe. */
export function watchKeydesk(listener: (reach: KeydeskReach) => void): () => void {
  reachListeners.add(listener);
  return () => reachListeners.delete(listener);
}

export async function call<N extends OperationName>(name: N, input: OperationInput<N>): Promise<OperationResult<N>> {
  const fn = window.keydesk[name] as (input: OperationInput<N>) => Promise<OperationResult<N>>;
  const r = await fn(input);
  const reach: KeydeskReach = !r.ok && r.keydeskGone === true ? 'gone' : 'answered';
  for (const listener of reachListeners) listener(reach);
  return r;
}

export function subscribe<E extends EventName>(event: E, listener: (payload: EventMap[E]) => void): () => void {
  return window.keydesk.on(event, listener);
}
