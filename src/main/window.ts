import { BrowserWindow, shell, type Session } from 'electron';
import { CONTENT_SECURITY_POLICY, externalLinkTarget, isAppUrl, secureWebPreferences } from './security.ts';

export interface WindowOptions {
  preload: string;
  /** Where the renderer is: the app scheme in production, the dev server in development. */
  url: string;
  devServerUrl: string | undefined;
}

/** Denies every permission request and check: Keydesk needs none (no camera, notifications, geolocation...). */
export function hardenSession(session: Session, devServerUrl: string | undefined): void {
  session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  // The CSP as a header too, for every response of the app's own origin (the dev server included).
  session.webRequest.onHeadersReceived((details, callback) => {
    const headers = { ...details.responseHeaders };
    if (isAppUrl(details.url, devServerUrl)) headers['Content-Security-Policy'] = [CONTENT_SECURITY_POLICY];
    callback({ responseHeaders: headers });
  });
}

export function createMainWindow(options: WindowOptions): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 800,
    minWidth: 960,
    minHeight: 600,
    show: false,
    title: 'Keydesk',
    webPreferences: secureWebPreferences(options.preload),
  });
  const contents = win.webContents;
  contents.setWindowOpenHandler(({ url }) => {
    const target = externalLinkTarget(url);
    if (target) void shell.openExternal(target);
    return { action: 'deny' };
  });
  const stayInApp = (event: { preventDefault: () => void }, url: string): void => {
    if (!isAppUrl(url, options.devServerUrl)) event.preventDefault();
  };
  contents.on('will-navigate', stayInApp);
  contents.on('will-redirect', stayInApp);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  win.once('ready-to-show', () => win.show());
  void win.loadURL(options.url);
  return win;
}
