// The secure window defaults, with electron mocked: options, open/navigation guards, permissions, CSP header.
import { beforeEach, describe, expect, it, vi } from 'vitest';

type Handler = (...args: unknown[]) => unknown;
interface WindowState {
  options: { webPreferences: Record<string, unknown> } | null;
  handlers: Map<string, (...args: unknown[]) => unknown>;
  openHandler: undefined | ((d: { url: string }) => unknown);
  openExternal: string[];
  loaded: string[];
  win: { handlers: Map<string, () => void>; once: Map<string, () => void>; maximized: boolean; shown: boolean } | null;
}
const state = vi.hoisted((): WindowState => ({
  options: null,
  handlers: new Map<string, (...args: unknown[]) => unknown>(),
  openHandler: undefined as undefined | ((d: { url: string }) => unknown),
  openExternal: [] as string[],
  loaded: [] as string[],
  win: null,
}));

vi.mock('electron', () => {
  class BrowserWindow {
    webContents = {
      setWindowOpenHandler: (h: (d: { url: string }) => unknown) => (state.openHandler = h),
      on: (event: string, h: (...args: unknown[]) => unknown) => state.handlers.set(event, h),
    };
    own = { handlers: new Map<string, () => void>(), once: new Map<string, () => void>(), maximized: false, shown: false };
    constructor(options: WindowState['options']) {
      state.options = options;
      state.win = this.own;
    }
    once(event: string, h: () => void) {
      this.own.once.set(event, h);
    }
    on(event: string, h: () => void) {
      this.own.handlers.set(event, h);
    }
    maximize() {
      this.own.maximized = true;
    }
    isMaximized() {
      return this.own.maximized;
    }
    show() {
      this.own.shown = true;
    }
    getNormalBounds() {
      return { x: 5, y: 6, width: 1000, height: 700 };
    }
    loadURL(url: string) {
      state.loaded.push(url);
      return Promise.resolve();
    }
  }
  return { BrowserWindow, shell: { openExternal: (u: string) => (state.openExternal.push(u), Promise.resolve()) } };
});

const { createMainWindow, hardenSession } = await import('../../src/main/window.ts');
const { APP_URL, CONTENT_SECURITY_POLICY, developmentContentSecurityPolicy } = await import('../../src/main/security.ts');

beforeEach(() => {
  state.handlers.clear();
  state.openExternal.length = 0;
  state.loaded.length = 0;
  createMainWindow({ preload: '/app/preload/index.cjs', url: APP_URL, devServerUrl: undefined });
});

const navigate = (event: string, url: string): boolean => {
  let prevented = false;
  (state.handlers.get(event) as Handler)({ preventDefault: () => (prevented = true) }, url);
  return prevented;
};

describe('main window', () => {
  it('is sandboxed and context-isolated, with no Node integration anywhere and no webviews', () => {
    const prefs = state.options?.webPreferences;
    expect(prefs).toMatchObject({
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      preload: '/app/preload/index.cjs',
    });
    expect(state.loaded).toEqual(['keydesk://app/index.html']);
  });

  it('denies every new window and sends only https links to the browser', () => {
    for (const url of [
      'https://example.com/docs',
      'http://example.com',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'https://user:pw@example.com',
    ]) {
      expect(state.openHandler?.({ url })).toEqual({ action: 'deny' });
    }
    expect(state.openExternal).toEqual(['https://example.com/docs']);
  });

  it('blocks navigation away from the app and refuses webviews', () => {
    expect(navigate('will-navigate', 'https://evil.example/')).toBe(true);
    expect(navigate('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(navigate('will-redirect', 'http://127.0.0.1:9999/')).toBe(true);
    expect(navigate('will-navigate', 'keydesk://app/index.html#keys')).toBe(false);
    expect(navigate('will-attach-webview', 'x')).toBe(true);
  });
});

describe('window placement', () => {
  it('opens placed and maximised as it was saved', () => {
    expect(state.options).toMatchObject({ width: 1280, height: 800, minWidth: 960, minHeight: 600 });
    const saved: unknown[] = [];
    createMainWindow({
      preload: '/p.cjs',
      url: APP_URL,
      devServerUrl: undefined,
      bounds: { x: -100, y: 40, width: 1400, height: 900 },
      maximized: true,
      onClose: (s) => saved.push(s),
    });
    expect(state.options).toMatchObject({ x: -100, y: 40, width: 1400, height: 900 });
    state.win?.once.get('ready-to-show')?.();
    expect(state.win).toMatchObject({ maximized: true, shown: true });
    state.win?.handlers.get('close')?.();
    expect(saved).toEqual([{ bounds: { x: 5, y: 6, width: 1000, height: 700 }, maximized: true }]);
  });
});

describe('session hardening', () => {
  it('denies permissions and adds the CSP header to app responses only', () => {
    let requestHandler: Handler | undefined;
    let checkHandler: Handler | undefined;
    let headersHandler: Handler | undefined;
    const session = {
      setPermissionRequestHandler: (h: Handler) => (requestHandler = h),
      setPermissionCheckHandler: (h: Handler) => (checkHandler = h),
      webRequest: { onHeadersReceived: (h: Handler) => (headersHandler = h) },
    };
    hardenSession(session as never, 'http://localhost:5173');
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      const callback = vi.fn();
      requestHandler?.({}, permission, callback);
      expect(callback).toHaveBeenCalledWith(false);
    }
    expect(checkHandler?.({}, 'media')).toBe(false);
    const seen: unknown[] = [];
    headersHandler?.({ url: 'http://localhost:5173/index.html', responseHeaders: {} }, (r: unknown) => seen.push(r));
    headersHandler?.({ url: 'https://elsewhere.example/', responseHeaders: { a: ['b'] } }, (r: unknown) => seen.push(r));
    // In development the dev server's own policy (its inline preamble and hot-reload socket; test/e2e/dev-server).
    expect(seen).toEqual([
      { responseHeaders: { 'Content-Security-Policy': [developmentContentSecurityPolicy('http://localhost:5173')] } },
      { responseHeaders: { a: ['b'] } },
    ]);
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-(inline|eval)/);
  });

  it('sends the shipped policy with nothing inline when no dev server', () => {
    let headersHandler: Handler | undefined;
    const session = {
      setPermissionRequestHandler: () => undefined,
      setPermissionCheckHandler: () => undefined,
      webRequest: { onHeadersReceived: (h: Handler) => (headersHandler = h) },
    };
    hardenSession(session as never, undefined);
    const seen: unknown[] = [];
    headersHandler?.({ url: APP_URL, responseHeaders: {} }, (r: unknown) => seen.push(r));
    headersHandler?.({ url: 'http://localhost:5173/index.html', responseHeaders: {} }, (r: unknown) => seen.push(r));
    expect(seen).toEqual([{ responseHeaders: { 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } }, { responseHeaders: {} }]);
  });
});
