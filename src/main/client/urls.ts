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

/** A run of this many characters of a secret's form is redacted wherever it appears: a key echoed in part. */
const PART = 8;

/** Every form a secret could take in a message: raw, URL-encoded, hex, base64 and base64url. */
function forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const encoded = encodeURIComponent(secret);
  const out = [secret, encoded, encoded.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())];
  out.push(new URLSearchParams({ s: secret }).toString().slice(2), bytes.toString('hex'), bytes.toString('hex').toUpperCase());
  for (let shift = 0; shift < 3; shift++) {
    // Inside longer base64, a secret's characters depend on where it starts: keep those its bytes alone decide.
    const b64 = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const own = b64.slice(Math.ceil((shift * 8) / 6), Math.floor(((shift + bytes.length) * 8) / 6));
    out.push(own, own.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return [...new Set(out)].filter((f) => f.length >= 4);
}

/** Each secret's short forms and runs of PART characters, worked out once: a job redacts every failure it reads. */
const plans = new Map<string, { whole: string[]; parts: Set<string> }>();

function planOf(secret: string): { whole: string[]; parts: Set<string> } {
  let plan = plans.get(secret);
  if (plan === undefined) {
    plan = { whole: [], parts: new Set() };
    for (const f of forms(secret)) {
      if (f.length < PART) plan.whole.push(f);
      for (let i = 0; i + PART <= f.length; i++) plan.parts.add(f.slice(i, i + PART));
    }
    if (plans.size >= 100) plans.clear();
    plans.set(secret, plan);
  }
  return plan;
}

/** The text with every form of each secret, and every run of PART characters of one, replaced by [redacted]. */
export function redact(text: string, secrets: readonly (string | null | undefined)[]): string {
  const own = secrets.filter((s): s is string => !!s).map(planOf);
  const parts = own.length === 1 ? (own[0]?.parts ?? new Set<string>()) : new Set(own.flatMap((p) => [...p.parts]));
  const whole = own.flatMap((p) => p.whole);
  let out = text;
  for (const f of whole.sort((a, b) => b.length - a.length)) out = out.split(f).join(REDACTED);
  if (parts.size === 0) return out;
  const hidden = new Uint8Array(out.length);
  for (let i = 0; i + PART <= out.length; i++) if (parts.has(out.slice(i, i + PART))) hidden.fill(1, i, i + PART);
  let shown = '';
  for (let i = 0; i < out.length; i++) {
    if (!hidden[i]) shown += out.charAt(i);
    else if (i === 0 || !hidden[i - 1]) shown += REDACTED;
  }
  return shown;
}

/** The last four characters, for showing which key is stored: "…abcd". */
export function keyHint(apiKey: string): string {
  return `…${apiKey.slice(-4)}`;
}
