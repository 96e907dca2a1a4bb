// Decides how to get Electron's binary before `npm start` and says in words why a download failed: Electron
// downloads it only on the first require('electron'), which electron-vite never makes.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Why a download failed, as far as can be told. */
export type DownloadFailureKind = 'offline' | 'blocked' | 'proxy' | 'corrupt' | 'unknown';

export interface DownloadFailure {
  kind: DownloadFailureKind;
  /** One clause of evidence: "github.com could not be resolved (ENOTFOUND)". */
  evidence: string;
}

export interface EnsureDeps {
  /** True when the binary for this Electron version is installed. */
  isInstalled(): boolean;
  /** Runs Electron's own installer; null on success, or what it printed when it failed. */
  download(): Promise<string | null>;
  /** After a failed download: looks at the way to the download host, to tell offline from blocked or a proxy. */
  diagnose(installerOutput: string): Promise<DownloadFailure>;
  /** Progress for the person waiting ("Downloading Electron…"). */
  say(line: string): void;
}

export type EnsureOutcome = { ok: true; downloaded: boolean } | { ok: false; failure: DownloadFailure };

/** Present: nothing to do. Missing: download it once, check it is there, or diagnose why not. */
export async function ensureElectron(deps: EnsureDeps): Promise<EnsureOutcome> {
  if (deps.isInstalled()) return { ok: true, downloaded: false };
  deps.say("Electron's binary is not installed yet: downloading it once (about 100 MB)…");
  const output = await deps.download();
  if (output === null && deps.isInstalled()) return { ok: true, downloaded: true };
  return { ok: false, failure: await deps.diagnose(output ?? 'the installer finished but no binary is in place') };
}

/** What the installer for `electronDir` would check: dist/version is this version and path.txt's binary exists. */
export function electronInstalled(electronDir: string, env: NodeJS.ProcessEnv = process.env): boolean {
  try {
    const { version } = JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8')) as { version: string };
    if (
      readFileSync(join(electronDir, 'dist', 'version'), 'utf8')
        .trim()
        .replace(/^v/, '') !== version
    )
      return false;
    const executable = readFileSync(join(electronDir, 'path.txt'), 'utf8');
    return existsSync(join(env.ELECTRON_OVERRIDE_DIST_PATH ?? join(electronDir, 'dist'), executable));
  } catch {
    return false;
  }
}

const PROXY_VARS = [
  'HTTPS_PROXY',
  'https_proxy',
  'HTTP_PROXY',
  'http_proxy',
  'npm_config_https_proxy',
  'npm_config_proxy',
  'GLOBAL_AGENT_HTTPS_PROXY',
];
export const proxyConfigured = (env: NodeJS.ProcessEnv): string | null => PROXY_VARS.find((v) => (env[v] ?? '') !== '') ?? null;

/**
 * Classifies a failed download from the installer's output and a probe of the download host (an error code such
 * as ENOTFOUND, or an HTTP status). Pure: the probe is made by the caller.
 */
export function classifyDownloadFailure(
  installerOutput: string,
  probe: { host: string; code: string | null; status: number | null },
  env: NodeJS.ProcessEnv,
): DownloadFailure {
  const { host, code, status } = probe;
  const proxy = proxyConfigured(env);
  if (/checksum|sha256|integrity/i.test(installerOutput))
    return { kind: 'corrupt', evidence: 'the downloaded file did not match its checksum' };
  if (status === 407 || /\b407\b|proxy|tunnel/i.test(installerOutput))
    return { kind: 'proxy', evidence: `the proxy${proxy ? ` in ${proxy}` : ''} refused the request` };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENETUNREACH' || code === 'EHOSTUNREACH' || code === 'ENETDOWN') {
    if (proxy)
      return { kind: 'proxy', evidence: `${host} could not be reached (${code}) while ${proxy} is set, so the proxy may be wrong` };
    return { kind: 'offline', evidence: `${host} could not be reached (${code}), so this machine looks offline` };
  }
  if (code !== null) {
    return proxy
      ? { kind: 'proxy', evidence: `the connection to ${host} failed (${code}) while ${proxy} is set, so the proxy may be wrong` }
      : { kind: 'blocked', evidence: `the connection to ${host} failed (${code}), so a firewall or filter may block it` };
  }
  if (status !== null && status >= 400)
    return { kind: 'blocked', evidence: `${host} answered HTTP ${status}, so the download is blocked or the mirror is wrong` };
  return { kind: 'unknown', evidence: `${host} answers, but the installer failed (${firstLine(installerOutput)})` };
}

const firstLine = (text: string): string => text.trim().split('\n')[0]?.slice(0, 160) ?? 'no output';

/** The one short message `npm start` prints when it cannot get the binary. No stack. */
export function failureMessage(failure: DownloadFailure, version: string): string {
  const retry: Record<DownloadFailureKind, string> = {
    offline: 'Connect to the network, then run `npm start` again.',
    blocked: 'Let this machine reach the download host (github.com, or the mirror in ELECTRON_MIRROR), then run `npm start` again.',
    proxy:
      "Set HTTPS_PROXY to your proxy and ELECTRON_GET_USE_PROXY=1 (Electron's downloader ignores proxies without it), then run `npm start` again.",
    corrupt:
      "Run `npm start` again; if it repeats, delete Electron's download cache (~/.cache/electron, %LOCALAPPDATA%\\electron\\Cache or ~/Library/Caches/electron).",
    unknown: "Run `node node_modules/electron/install.js` to see the installer's own output, then `npm start` again.",
  };
  return [
    `Keydesk cannot start: Electron ${version}'s binary is not installed, and downloading it failed: ${failure.evidence}.`,
    retry[failure.kind],
    'Meanwhile, Keydesk runs in a browser on the same core: `npm run build && npm run harness`.',
  ].join('\n');
}
