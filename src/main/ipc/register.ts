// The only ipcMain.handle in Keydesk: one channel per operation, each guarded by a sender check before parsing.
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

/** Each refused sender is logged once, so a misbehaving page cannot flood the log. */
const MAX_REMEMBERED_SENDERS = 256;

export function registerIpc(
  ipcMain: Pick<IpcMain, 'handle'>,
  handlers: Handlers,
  isTrusted: SenderCheck,
  log: (line: string) => void = (line) => {
    console.warn(line);
  },
): void {
  const refused = new Set<string>();
  const logRefused = (frame: WebFrameMain | null, channel: string): void => {
    const sender = frame === null ? '(no frame)' : `${frame.detached ? 'detached frame at ' : ''}${frame.url || '(no URL)'}`;
    if (refused.has(sender) || refused.size >= MAX_REMEMBERED_SENDERS) return;
    refused.add(sender);
    log(`keydesk: refused IPC on ${channel} from ${sender}: not Keydesk's own window (further requests from it are refused silently).`);
  };
  for (const name of OPERATION_NAMES) {
    ipcMain.handle(operationChannel(name), (event: IpcMainInvokeEvent, raw: unknown) => {
      if (!isTrusted(event.senderFrame)) {
        logRefused(event.senderFrame, operationChannel(name));
        return Promise.resolve(fail('FORBIDDEN', "This request did not come from Keydesk's own window."));
      }
      return dispatch(handlers, name, raw);
    });
  }
}
