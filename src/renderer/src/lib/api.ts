// The renderer's only door to the main process. Views and components go through the store, which calls this.
import type { EventMap, EventName, OperationInput, OperationName, OperationResult } from '../../../shared/contract.ts';

export function call<N extends OperationName>(name: N, input: OperationInput<N>): Promise<OperationResult<N>> {
  const fn = window.keydesk[name] as (input: OperationInput<N>) => Promise<OperationResult<N>>;
  return fn(input);
}

/** Subscribes to an event from main; returns the unsubscribe. */
export function subscribe<E extends EventName>(event: E, listener: (payload: EventMap[E]) => void): () => void {
  return window.keydesk.on(event, listener);
}
