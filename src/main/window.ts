// Creates the main window and hardens its session: permissions, CSP headers, navigation and links.
import { BrowserWindow, shell, type Session } from 'electron';
import {
  CONTENT_SECURITY_POLICY,
  developmentContentSecurityPolicy,
  externalLinkTarget,
  isAppUrl,
  secureWebPreferences,
} from './security.ts';
import type { Rect, SizeLimits, WindowState } from './window-state.ts';

export const WINDOW_SIZE: SizeLimits = { width: 1280, height: 800, minWidth: 960, minHeight: 600 };

export interface WindowOptions {
  preload: string;
  /** Where the renderer is: the app scheme in production, the dev server in development. */
  url: string;
  devServerUrl: string | undefined;
  /** Where to open, already placed on a visible display (see placeWindow); the default size when absent. */
  bounds?: Rect;
  maximized?: boolean;
  /** Told the window's normal bounds and maximised state as it closes, to be remembered. */
  onClose?: (state: WindowState) => void;
}

/** Denies every permission request and check: Keydesk needs none (no camera, notifications, geolocation...). */
export function hardenSession(session: Session, devServerUrl: string | undefined): void {
  session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  // The CSP as a header on the app's own responses; the dev server's looser policy in development.
  const policy = devServerUrl === undefined ? CONTENT_SECURITY_POLICY : developmentContentSecurityPolicy(devServerUrl);
  session.webRequest.onHeadersReceived((details, callback) => {
    const headers = { ...details.responseHeaders };
    if (isAppUrl(details.url, devServerUrl)) headers['Content-Security-Policy'] = [policy];
    callback({ responseHeaders: headers });
  });
}

/** The only way the app opens anything on the web: https links (no credentials) in the user's browser. */
export function openExternalLink(url: string): void {
  const target = externalLinkTarget(url);
  if (target) void shell.openExternal(target);
}

export function createMainWindow(options: WindowOptions): BrowserWindow {
  const win = new BrowserWindow({
    ...(options.bounds ?? { width: WINDOW_SIZE.width, height: WINDOW_SIZE.height }),
    minWidth: WINDOW_SIZE.minWidth,
    minHeight: WINDOW_SIZE.minHeight,
    show: false,
    title: 'Keydesk',
    webPreferences: secureWebPreferences(options.preload),
  });
  const contents = win.webContents;
  contents.setWindowOpenHandler(({ url }) => {
    openExternalLink(url);
    return { action: 'deny' };
  });
  const stayInApp = (event: { preventDefault: () => void }, url: string): void => {
    if (!isAppUrl(url, options.devServerUrl)) event.preventDefault();
  };
  contents.on('will-navigate', stayInApp);
  contents.on('will-redirect', stayInApp);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  win.once('ready-to-show', () => {
    if (options.maximized) win.maximize();
    win.show();
  });
  // The normal bounds, not the maximised ones: un-maximising next time goes back to where the user had it.
  win.on('close', () => options.onClose?.({ bounds: win.getNormalBounds(), maximized: win.isMaximized() }));
  void win.loadURL(options.url);
  return win;
}
