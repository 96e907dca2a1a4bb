// The bridge: exactly one function per contract operation, plus a typed `on` that returns an unsubscribe.
// Sandboxed preload: it may require nothing but electron, so it imports the names, not the schemas.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { EventMap, KeydeskBridge } from '../shared/contract.ts';
import { EVENT_NAMES, eventChannel, OPERATION_NAMES, operationChannel, type EventName } from '../shared/operations.ts';

export function buildBridge(ipc: Pick<typeof ipcRenderer, 'invoke' | 'on' | 'removeListener'>): KeydeskBridge {
  const bridge: Record<string, unknown> = {};
  for (const name of OPERATION_NAMES) {
    // Only the input crosses; the channel is fixed by the name, so the renderer cannot pick one.
    bridge[name] = (input: unknown) => ipc.invoke(operationChannel(name), input);
  }
  bridge.on = <E extends EventName>(event: E, listener: (payload: EventMap[E]) => void): (() => void) => {
    if (!(EVENT_NAMES as readonly string[]).includes(event)) throw new Error(`Unknown Keydesk event: ${event}`);
    const wrapped = (_event: IpcRendererEvent, payload: EventMap[E]): void => listener(payload);
    ipc.on(eventChannel(event), wrapped);
    return () => {
      ipc.removeListener(eventChannel(event), wrapped);
    };
  };
  return Object.freeze(bridge) as KeydeskBridge;
}

contextBridge.exposeInMainWorld('keydesk', buildBridge(ipcRenderer));
