// The end user's own HWID reset (wire.md, "Seen in vendors' code"): the link and what a vendor puts behind a
// "Reset my HWID" button. Pure, so its output is tested in Node.
import type { ROUTES } from '../../../../shared/wire.ts';
import type { Snippet } from './snippets.ts';

/** The public reset's parameter names, typed against wire.ts's route so a rename fails the typecheck here. */
const P = { service: 'service', key: 'key' } as const satisfies Record<string, keyof typeof ROUTES.resetHwidPublic.params>;
const RESET_PATH: (typeof ROUTES)['resetHwidPublic']['path'] = '/api/reset-hwid';

export interface ResetValues {
  baseUrl: string;
  service: string;
  key: string;
}

const literal = (value: string): string => JSON.stringify(value);
const shellQuote = (value: string): string => `'${value.replaceAll("'", `'\\''`)}'`;
/** The base URL as the service's own: a trailing slash or `/api` (the official client's base) dropped. */
const apiRoot = (baseUrl: string): string => baseUrl.replace(/\/+$/, '').replace(/\/api$/, '');

/** The whole link for one key: opening it resets that key's HWID, no API key needed. */
export function resetLink(v: ResetValues): string {
  const url = new URL(`${apiRoot(v.baseUrl)}${RESET_PATH}`);
  url.searchParams.set(P.service, v.service);
  url.searchParams.set(P.key, v.key);
  return url.toString();
}

export function resetSnippets(v: ResetValues): Snippet[] {
  const endpoint = `${apiRoot(v.baseUrl)}${RESET_PATH}`;
  const curl = [
    `curl -sS -i --get ${shellQuote(endpoint)} \\`,
    `  --data-urlencode ${shellQuote(`${P.service}=${v.service}`)} \\`,
    `  --data-urlencode ${shellQuote(`${P.key}=${v.key}`)}`,
  ].join('\n');
  const javascript = [
    `// Behind a "Reset my HWID" button: the key's holder frees it for another machine. No API key.`,
    `async function resetMyHwid(key) {`,
    `  const params = new URLSearchParams({ ${P.service}: ${literal(v.service)}, ${P.key}: key });`,
    `  const res = await fetch(${literal(endpoint)} + '?' + params);`,
    `  const body = await res.json().catch(() => ({}));`,
    `  if (res.ok) return 'Done: the next machine that starts the app with this key keeps it.';`,
    `  if (res.status === 429) {`,
    `    // A cooldown: Retry-After is the wait in seconds; body.error says it in words.`,
    `    const minutes = Math.ceil(Number(res.headers.get('Retry-After') ?? 60) / 60);`,
    `    return 'You reset this key recently. Try again in ' + minutes + (minutes === 1 ? ' minute.' : ' minutes.');`,
    `  }`,
    `  if (res.status === 404) return 'That key is not known.';`,
    `  if (res.status === 409) return 'That key has not been used yet, so there is nothing to reset.';`,
    `  return body.message ?? body.error ?? 'The reset failed (' + res.status + ').';`,
    `}`,
    ``,
    `console.log(await resetMyHwid(${literal(v.key)}));`,
  ].join('\n');
  return [
    { id: 'curl', label: 'curl', code: curl },
    { id: 'javascript', label: 'JavaScript', code: javascript },
  ];
}
