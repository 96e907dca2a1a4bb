// The preload: window.keydesk from the shared bridge builder over IPC. Sandboxed, so it must bundle to one
// CommonJS file that requires nothing but electron.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { buildBridge, type BridgeTransport } from '../shared/bridge.ts';
import { eventChannel, operationChannel } from '../shared/operations.ts';

export function ipcTransport(ipc: Pick<typeof ipcRenderer, 'invoke' | 'on' | 'removeListener'>): BridgeTransport {
  return {
    invoke: (name, input) => ipc.invoke(operationChannel(name), input),
    subscribe: (event, deliver) => {
      // The IPC event (with its sender) never reaches the page: only the payload.
      const wrapped = (_event: IpcRendererEvent, payload: unknown): void => deliver(payload);
      ipc.on(eventChannel(event), wrapped);
      return () => ipc.removeListener(eventChannel(event), wrapped);
    },
  };
}

contextBridge.exposeInMainWorld('keydesk', buildBridge(ipcTransport(ipcRenderer)));
