// Builds service URLs, each with a redacted twin for logs and messages, and redacts secrets from any text.

export interface BuiltUrl {
  url: string;
  /** The same URL with the apiKey replaced: safe for logs, errors and the renderer. */
  redacted: string;
}

const REDACTED = '[redacted]';

/** Joins a base URL, a route path and query parameters; the redacted twin is built only when asked for. */
export function buildUrl(
  base: string,
  path: string,
  query: Record<string, string | number | boolean | undefined> = {},
  secretParam = 'apiKey',
): BuiltUrl {
  const root = normalizeBase(base);
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.append(k, String(v));
  const search = params.toString();
  const url = `${root}${path}${search ? `?${search}` : ''}`;
  let redacted: string | undefined;
  return {
    url,
    get redacted() {
      if (redacted === undefined) {
        const shown = new URLSearchParams();
        for (const [k, v] of params) shown.append(k, k === secretParam ? REDACTED : v);
        const s = shown.toString().replaceAll(`=${encodeURIComponent(REDACTED)}`, `=${REDACTED}`);
        redacted = `${root}${path}${s ? `?${s}` : ''}`;
      }
      return redacted;
    },
  };
}

/** The base URL as kept: origin and path, without query, fragment, trailing slash or trailing `/api`. Throws if invalid. */
export function normalizeServiceBase(raw: string): string {
  const u = new URL(raw.trim());
  const path = u.pathname
    .replace(/\/+$/, '')
    .replace(/\/api$/i, '')
    .replace(/\/+$/, '');
  return `${u.origin}${path}`;
}

/**
 * The host of a validation URL whose origin is not the base URL's and is not the one the user confirmed in Profiles
 * (`validationOriginConfirmed`); null when it may be used. Main sends no validation there.
 */
export function unconfirmedValidationHost(p: {
  baseUrl: string;
  validationUrl: string;
  validationOriginConfirmed?: string | undefined;
}): string | null {
  const url = new URL(p.validationUrl);
  return url.origin === new URL(p.baseUrl).origin || url.origin === p.validationOriginConfirmed ? null : url.host;
}

const bases = new Map<string, string>();
/** The base URL without query, fragment or trailing slash; parsed once per distinct base. Throws if invalid. */
function normalizeBase(base: string): string {
  let root = bases.get(base);
  if (root === undefined) {
    const u = new URL(base);
    u.search = '';
    u.hash = '';
    root = u.toString().replace(/\/+$/, '');
    if (bases.size > 100) bases.clear();
    bases.set(base, root);
  }
  return root;
}

/** Every form a secret could take in a message: raw, URL-encoded (both styles), base64 and base64url. */
function forms(secret: string): string[] {
  const b64 = Buffer.from(secret, 'utf8').toString('base64');
  return [
    ...new Set([
      secret,
      encodeURIComponent(secret),
      new URLSearchParams({ s: secret }).toString().slice(2),
      b64,
      b64.replace(/=+$/, ''),
      Buffer.from(secret, 'utf8').toString('base64url'),
    ]),
  ]
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
