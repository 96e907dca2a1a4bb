// Learns which optional endpoints (wire.md, "Seen in vendors' code") a service has, changing nothing: each is asked
// about a key that cannot exist, and its answer is judged beside the answer of a path that surely does not exist.
import { randomUUID } from 'node:crypto';
import { request, type Dispatcher } from 'undici';
import type { Capability, OptionalEndpoint, ServiceCapabilities } from '../../shared/domain.ts';
import type { Failure } from '../../shared/result.ts';
import { defaultDispatcher, type ClientTarget } from './service-client.ts';
import { buildUrl, redact } from './urls.ts';

/** One answer as it came: its status, its JSON object (null: not JSON, or not an object) and its first characters. */
interface Answer {
  status: number;
  json: Record<string, unknown> | null;
  head: string;
}

/** How each optional endpoint is asked: by the method and path vendors' tools call. */
const PROBES: Readonly<Record<OptionalEndpoint, { method: 'GET' | 'POST'; path: string }>> = {
  keyEdit: { method: 'POST', path: '/api/key/edit' },
  generatedKeyEdit: { method: 'POST', path: '/api/generated-key/edit' },
  publicReset: { method: 'GET', path: '/api/reset-hwid' },
};

/** A service's words for "no such route" (Express's "Cannot POST /x", the sandbox's "There is no endpoint at"). */
const ROUTE_WORDS = /no (such )?(endpoint|route)|cannot (get|post)\b|unknown (endpoint|route|path)|route not found|endpoint not found/i;

const PROBE_MS = 15_000;

export interface CheckOptions {
  dispatcher?: Dispatcher;
  /** The service identifier the public reset is asked under (any will do: an unknown one is a 404 too). */
  serviceIdentifier?: string | null;
}

/** One exchange; a string says why no answer came. */
async function exchange(
  target: ClientTarget,
  method: 'GET' | 'POST',
  path: string,
  query: Record<string, string>,
  body: Record<string, unknown> | undefined,
  dispatcher: Dispatcher,
): Promise<Answer | string> {
  const url = buildUrl(target.baseUrl, path, query).url;
  try {
    const res = await request(url, {
      method,
      dispatcher,
      signal: AbortSignal.timeout(PROBE_MS),
      headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = (await res.body.text()).slice(0, 64 * 1024);
    let json: Record<string, unknown> | null = null;
    try {
      const v: unknown = JSON.parse(text);
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) json = v as Record<string, unknown>;
    } catch {
      // Not JSON: judged by its status and its first characters.
    }
    return { status: res.statusCode, json, head: text.slice(0, 200) };
  } catch (error) {
    const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code;
    return `no answer (${code ?? 'network error'})`;
  }
}

const wordsOf = (a: Answer): string => {
  const m = a.json?.message ?? a.json?.error;
  return typeof m === 'string' ? m : '';
};
/** The answer's words without paths, so two route errors of different paths read the same. */
const shapeOf = (a: Answer): string =>
  `${a.status} ${a.json === null ? 'not-json' : `${typeof a.json.code === 'string' ? a.json.code : ''} ${wordsOf(a).replace(/\/[\w./-]+/g, '<path>')}`}`;
const isHtml = (a: Answer): boolean => /^\s*</.test(a.head);

/** What one probe's answer says of its endpoint, beside the control's (a path that does not exist). */
export function judge(probe: Answer | string, control: Answer | string | null, at: string): Capability {
  const found = (state: Capability['state'], evidence: string): Capability => ({ state, checkedAt: at, evidence });
  if (typeof probe === 'string') return found('unknown', `The service gave ${probe}.`);
  const status = `HTTP ${probe.status}`;
  if (probe.status === 429 || probe.status >= 500) return found('unknown', `The service answered ${status}; check again later.`);
  if (probe.status === 405) return found('absent', `${status}: that path takes other methods only.`);
  if (probe.json === null) {
    if (probe.status === 404) return found('absent', `${status} with ${isHtml(probe) ? 'an HTML page' : 'a body that is not JSON'}.`);
    return found('unknown', `${status} with ${isHtml(probe) ? 'an HTML page' : 'a body that is not JSON'}.`);
  }
  const words = wordsOf(probe).slice(0, 120);
  if (ROUTE_WORDS.test(words)) return found('absent', `${status}: “${words}”.`);
  if (control !== null && typeof control !== 'string' && shapeOf(control) === shapeOf(probe)) {
    return [404, 400, 501].includes(probe.status)
      ? found('absent', `${status}, as for a path that does not exist.`)
      : found('unknown', `${status}, as for a path that does not exist: nothing tells whether the endpoint is there.`);
  }
  if (probe.status === 404) return found('present', `${status} with a JSON “not found” for a key that cannot exist.`);
  if ((probe.status >= 400 && probe.status < 500) || (probe.status >= 200 && probe.status < 300)) {
    return found('present', `${status} with a JSON answer${words ? `: “${words}”` : ''}.`);
  }
  return found('unknown', `The service answered ${status}.`);
}

/** Asks the service about every optional endpoint, changing nothing; what each answer says, with when. */
export async function checkCapabilities(target: ClientTarget, options: CheckOptions = {}): Promise<ServiceCapabilities> {
  const dispatcher = options.dispatcher ?? defaultDispatcher();
  const impossible = `KEYDESK-CAPABILITY-CHECK-${randomUUID().toUpperCase()}`;
  const nowhere = `/api/keydesk-capability-check-${randomUUID()}`;
  const apiKey = target.apiKey ?? '';
  const service = options.serviceIdentifier ?? `keydesk-check-${randomUUID().slice(0, 8)}`;
  const editBody = { apiKey, keyValue: impossible, note: 'Keydesk capability check' };
  const resetQuery = { service, key: impossible };
  const [postControl, getControl] = await Promise.all([
    exchange(target, 'POST', nowhere, {}, editBody, dispatcher),
    exchange(target, 'GET', nowhere, resetQuery, undefined, dispatcher),
  ]);
  const out: ServiceCapabilities = {};
  for (const [endpoint, probe] of Object.entries(PROBES) as [OptionalEndpoint, (typeof PROBES)[OptionalEndpoint]][]) {
    const post = probe.method === 'POST';
    const answer = await exchange(target, probe.method, probe.path, post ? {} : resetQuery, post ? editBody : undefined, dispatcher);
    const c = judge(answer, post ? postControl : getControl, new Date().toISOString());
    out[endpoint] = { ...c, evidence: redact(c.evidence, [target.apiKey]) };
  }
  return out;
}

/** Whether a refusal of an optional endpoint shows it is absent: a route error, an HTML 404, or a method not allowed. */
export function showsAbsent(failure: Failure): boolean {
  // The technical words may have moved to `detail` for the screen (PresentedClient).
  const words = `${failure.message} ${failure.detail ?? ''}`;
  if (failure.code === 'METHOD_NOT_ALLOWED' || /HTTP 405\b/.test(words)) return true;
  if (failure.code === 'BAD_RESPONSE' && /HTTP 404\b/.test(words)) return true;
  return (failure.code === 'NOT_FOUND' || failure.code === 'HTTP_ERROR') && ROUTE_WORDS.test(words);
}
