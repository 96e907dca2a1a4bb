// The only ipcMain.handle in Keydesk: one channel per contract operation, each guarded by a sender check
// before the input is even parsed.
import type { IpcMain, IpcMainInvokeEvent, WebFrameMain } from 'electron';
import { fail } from '../../shared/result.ts';
import { OPERATION_NAMES, operationChannel } from '../../shared/operations.ts';
import type { Handlers } from '../handlers/types.ts';
import { dispatch } from './dispatch.ts';

/** The sender must be our window's live main frame, showing our own page. */
export type SenderCheck = (frame: WebFrameMain | null) => boolean;

export function trustedSender(getMainFrame: () => WebFrameMain | null, isAppUrl: (url: string) => boolean): SenderCheck {
  return (frame) => {
    if (frame === null || frame.detached) return false;
    const main = getMainFrame();
    return main !== null && frame === main && isAppUrl(frame.url);
  };
}

export function registerIpc(ipcMain: Pick<IpcMain, 'handle'>, handlers: Handlers, isTrusted: SenderCheck): void {
  for (const name of OPERATION_NAMES) {
    ipcMain.handle(operationChannel(name), (event: IpcMainInvokeEvent, raw: unknown) => {
      if (!isTrusted(event.senderFrame)) {
        return Promise.resolve(fail('FORBIDDEN', "This request did not come from Keydesk's own window."));
      }
      return dispatch(handlers, name, raw);
    });
  }
}
