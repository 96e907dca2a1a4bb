// Secure defaults in one place: window options, CSP, navigation and permission guards, external links.

/** The app's own origin: the renderer is served from a privileged custom scheme, never file://. */
export const APP_SCHEME = 'keydesk';
export const APP_ORIGIN = `${APP_SCHEME}://app`;
export const APP_URL = `${APP_ORIGIN}/index.html`;

// The one Content-Security-Policy: a header on every app response, and a meta tag in the built index.html
// (less frame-ancestors, which a meta tag cannot carry).
const CSP_DIRECTIVES = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
] as const;
export const CONTENT_SECURITY_POLICY = CSP_DIRECTIVES.join('; ');
export const META_CONTENT_SECURITY_POLICY = CSP_DIRECTIVES.filter((d) => !d.startsWith('frame-ancestors ')).join('; ');

/** The `npm run dev` policy: Vite needs inline scripts, styles and a hot-reload WebSocket; the rest stays strict. */
export function developmentContentSecurityPolicy(devServerUrl: string, meta = false): string {
  const ws = new URL(devServerUrl);
  ws.protocol = ws.protocol === 'https:' ? 'wss:' : 'ws:';
  const loosen: Record<string, string> = {
    'script-src': "script-src 'self' 'unsafe-inline'",
    'style-src': "style-src 'self' 'unsafe-inline'",
    'connect-src': `connect-src 'self' ${ws.origin}`,
  };
  return CSP_DIRECTIVES.filter((d) => !(meta && d.startsWith('frame-ancestors ')))
    .map((d) => loosen[d.slice(0, d.indexOf(' '))] ?? d)
    .join('; ');
}

export function secureWebPreferences(preload: string) {
  return {
    preload,
    sandbox: true,
    contextIsolation: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
  } as const;
}

/** True when a URL belongs to the app itself (its custom scheme, or the dev server in development). */
export function isAppUrl(url: string, devServerUrl: string | undefined): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.origin === APP_ORIGIN || url.startsWith(`${APP_ORIGIN}/`)) return true;
  return devServerUrl !== undefined && parsed.origin === new URL(devServerUrl).origin;
}

/** The only way out to the web: https links, opened in the user's browser. Anything else is refused. */
export function externalLinkTarget(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' && parsed.username === '' && parsed.password === '' ? parsed.toString() : null;
  } catch {
    return null;
  }
}
