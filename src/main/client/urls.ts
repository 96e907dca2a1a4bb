// The one module that builds service URLs. Every URL comes with a redacted twin for logs and messages,
// and every text that leaves the client passes through redact() for the secrets it was given.

export interface BuiltUrl {
  url: string;
  /** The same URL with the apiKey replaced: safe for logs, errors and the renderer. */
  redacted: string;
}

const REDACTED = '[redacted]';

/** Joins a base URL (which may carry a path prefix) with a route path and query parameters. */
export function buildUrl(
  base: string,
  path: string,
  query: Record<string, string | number | boolean | undefined> = {},
  secretParam = 'apiKey',
): BuiltUrl {
  const u = new URL(base);
  u.pathname = `${u.pathname.replace(/\/+$/, '')}${path}`;
  u.search = '';
  u.hash = '';
  const shown = new URL(u);
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    u.searchParams.append(k, String(v));
    shown.searchParams.append(k, k === secretParam ? REDACTED : String(v));
  }
  return { url: u.toString(), redacted: shown.toString().replace(`=${encodeURIComponent(REDACTED)}`, `=${REDACTED}`) };
}

/** Every form a secret could take in a message: raw, URL-encoded (both styles), base64 and base64url. */
function forms(secret: string): string[] {
  const b64 = Buffer.from(secret, 'utf8').toString('base64');
  return [...new Set([secret, encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2), b64, b64.replace(/=+$/, ''), Buffer.from(secret, 'utf8').toString('base64url')])]
    .filter((f) => f.length >= 4)
    .sort((a, b) => b.length - a.length);
}

export function redact(text: string, secrets: readonly (string | null | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret) continue;
    for (const f of forms(secret)) out = out.split(f).join(REDACTED);
  }
  return out;
}

/** The last four characters, for showing which key is stored: "…abcd". */
export function keyHint(apiKey: string): string {
  return `…${apiKey.slice(-4)}`;
}
