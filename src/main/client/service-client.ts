// The HTTP client for one service (the embedded sandbox or a remote one), on undici. Every call returns a
// Result: never a throw, never an undici error object, never the apiKey in a message.
import { EnvHttpProxyAgent, errors as undiciErrors, request, type Dispatcher } from 'undici';
import type { Key, KeylessEntry } from '../../shared/domain.ts';
import { fail, ok, WIRE_ERROR_CODES, type ErrorCode, type Failure, type Result } from '../../shared/result.ts';
import { DETAIL_FULL, DETAIL_HEADER, endpointOf, placeParams, ROUTES, type RouteName, type RouteSpec } from '../../shared/wire.ts';
import { isObject, readKey, readKeyless, readKeylessList, readKeys, readNumber, readString, readValidation, type ValidationReading } from './read.ts';
import { buildUrl, redact, type BuiltUrl } from './urls.ts';

export interface Timeouts {
  connectMs: number;
  headersMs: number;
  bodyMs: number;
}
export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 10_000, headersMs: 15_000, bodyMs: 30_000 };
/** Large enough for a 100,000-key batch (about 34 MB), small enough to refuse a runaway body. */
export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

export interface ClientTarget {
  baseUrl: string;
  validationUrl: string;
  apiKey: string | null;
}

export interface ClientOptions {
  dispatcher?: Dispatcher;
  /** Delays before the first and second retry of a read; a Retry-After header wins (capped at 10 s). */
  retryDelaysMs?: readonly number[];
  timeouts?: Timeouts;
  /** Called once per HTTP attempt with the redacted URL: for the operator's log and for tests. */
  onAttempt?: (attempt: { method: string; url: string }) => void;
}

type Query = Record<string, string | number | boolean | undefined>;

/** Shared dispatchers: one connection pool per origin, proxies from HTTP(S)_PROXY / NO_PROXY. */
const dispatchers = new Map<string, Dispatcher>();
export function defaultDispatcher(timeouts: Timeouts = DEFAULT_TIMEOUTS): Dispatcher {
  const key = `${timeouts.connectMs}/${timeouts.headersMs}/${timeouts.bodyMs}`;
  let d = dispatchers.get(key);
  if (!d) {
    d = new EnvHttpProxyAgent({
      connectTimeout: timeouts.connectMs,
      headersTimeout: timeouts.headersMs,
      bodyTimeout: timeouts.bodyMs,
      maxResponseSize: MAX_RESPONSE_BYTES,
    });
    dispatchers.set(key, d);
  }
  return d;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const isWireCode = (c: unknown): c is ErrorCode => typeof c === 'string' && (WIRE_ERROR_CODES as readonly string[]).includes(c);

interface Attempt {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export class ServiceClient {
  readonly target: ClientTarget;
  private readonly options: ClientOptions;
  private readonly dispatcher: Dispatcher;

  constructor(target: ClientTarget, options: ClientOptions = {}) {
    this.target = target;
    this.options = options;
    this.dispatcher = options.dispatcher ?? defaultDispatcher(options.timeouts);
  }

  private redact(text: string): string {
    return redact(text, [this.target.apiKey]);
  }

  private failure(code: ErrorCode, message: string, retryAfterSeconds?: number): Failure {
    return fail(code, this.redact(message), retryAfterSeconds);
  }

  /** One HTTP exchange. Throws only undici/network errors, which send() turns into results. */
  private async attempt(method: string, url: string, body: string | undefined): Promise<Attempt> {
    const res = await request(url, {
      method: method,
      dispatcher: this.dispatcher,
      headers: { accept: 'application/json', [DETAIL_HEADER]: DETAIL_FULL, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body,
    });
    return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
  }

  /**
   * Sends one request of the wire contract. Reads are retried at most twice on network errors, 5xx and 429;
   * mutating calls are sent exactly once, and a timeout or reset on one is reported as an unknown outcome.
   */
  async send<T>(route: RouteName, params: Query, read: (body: Record<string, unknown>) => T | null): Promise<Result<T>> {
    // The route table says everything: method, base, path, where each parameter goes, whether it mutates.
    const spec: RouteSpec = ROUTES[route];
    const method = spec.methods[0];
    const mutating = spec.mutates;
    const placed = placeParams(route, params, this.target.apiKey);
    const { base, path } = endpointOf(route, this.target);
    let built;
    try {
      built = buildUrl(base, path, placed.query);
    } catch {
      return this.failure('INVALID_INPUT', `The service address ${base} is not a valid URL.`);
    }
    const body = placed.body && JSON.stringify(placed.body);
    const delays = this.options.retryDelaysMs ?? [300, 1_000];
    const tries = mutating ? 1 : delays.length + 1;

    // The redacted URL is only built for a message or the attempt log: a success never pays for it.
    let last: Failure | null = null;
    for (let i = 0; i < tries; i++) {
      this.options.onAttempt?.({ method: method, url: built.redacted });
      let res: Attempt;
      try {
        res = await this.attempt(method, built.url, body);
      } catch (error) {
        last = this.networkFailure(error, method, built.redacted, mutating);
        if (i + 1 < tries && last.code !== 'BAD_RESPONSE') {
          await sleep(delays[i] ?? 1_000);
          continue;
        }
        return last;
      }
      const outcome = this.interpret(res, method, built, read);
      if (outcome.ok) return outcome;
      last = outcome;
      const retryable = res.status >= 500 || res.status === 429;
      if (!retryable || i + 1 >= tries) return outcome;
      const retryAfter = Number(res.headers['retry-after']);
      await sleep(Number.isFinite(retryAfter) && retryAfter >= 0 ? Math.min(retryAfter, 10) * 1000 : (delays[i] ?? 1_000));
    }
    return last ?? this.failure('NETWORK', `${method} ${built.redacted}: no attempt was made.`);
  }

  private interpret<T>(res: Attempt, method: string, url: BuiltUrl, read: (body: Record<string, unknown>) => T | null): Result<T> {
    const where = () => `${method} ${url.redacted}`;
    if (res.status >= 300 && res.status < 400) {
      return this.failure('HTTP_ERROR', `${where()}: the service answered HTTP ${res.status} (a redirect), which Keydesk does not follow. Check the base URL.`);
    }
    let json: unknown;
    try {
      json = JSON.parse(res.text);
    } catch {
      const html = /^\s*</.test(res.text);
      return this.failure(
        'BAD_RESPONSE',
        `${where()}: HTTP ${res.status} with ${html ? 'an HTML page' : 'a body that is not JSON'} instead of the service's JSON answer.`,
      );
    }
    const body = isObject(json) ? json : null;
    const serviceMessage = body ? (readString(body.message) ?? readString(body.error)) : null;
    if (res.status < 200 || res.status >= 300) {
      const retryAfter = Number(res.headers['retry-after']);
      const code = body && isWireCode(body.code) ? body.code : 'HTTP_ERROR';
      const reason = serviceMessage ? serviceMessage.slice(0, 300) : 'no reason given';
      return this.failure(code, `${reason} (HTTP ${res.status})`, Number.isFinite(retryAfter) ? retryAfter : undefined);
    }
    if (!body) return this.failure('BAD_RESPONSE', `${where()}: HTTP ${res.status} with JSON that is not an object.`);
    if (body.success === false) return this.failure(isWireCode(body.code) ? body.code : 'HTTP_ERROR', serviceMessage ?? 'The service reported a failure.');
    const value = read(body);
    if (value === null) return this.failure('BAD_RESPONSE', `${where()}: HTTP ${res.status}, but the answer lacks the fields Keydesk needs.`);
    return ok(value);
  }

  private networkFailure(error: unknown, method: string, shownUrl: string, mutating: boolean): Failure {
    const where = `${method} ${shownUrl}`;
    const e = error as { code?: string; cause?: { code?: string } };
    const code = e.code ?? e.cause?.code ?? '';
    const host = (() => {
      try {
        return new URL(shownUrl).host;
      } catch {
        return 'the service';
      }
    })();
    const unknown = (what: string) =>
      this.failure('OUTCOME_UNKNOWN', `${where}: ${what}. It may or may not have taken effect (outcome unknown: check before retrying).`);
    if (error instanceof undiciErrors.ResponseExceededMaxSizeError || code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') {
      return this.failure('BAD_RESPONSE', `${where}: the answer is larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB; Keydesk stopped reading it.`);
    }
    if (code === 'UND_ERR_CONNECT_TIMEOUT') return this.failure('TIMEOUT', `${where}: could not connect to ${host} in time.`);
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
      return mutating ? unknown('the service did not answer in time') : this.failure('TIMEOUT', `${where}: the service did not answer in time.`);
    }
    if (code === 'ECONNREFUSED') return this.failure('NETWORK', `${where}: ${host} refused the connection. Is the service running?`);
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return this.failure('NETWORK', `${where}: the host ${host} was not found (DNS).`);
    if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') {
      return mutating ? unknown('the connection was reset') : this.failure('NETWORK', `${where}: the connection was reset.`);
    }
    return mutating ? unknown(`the request failed (${code || 'network error'})`) : this.failure('NETWORK', `${where}: the request failed (${code || 'network error'}).`);
  }

  // ---- the service's operations -------------------------------------------------------------------------

  executionCount(): Promise<Result<number>> {
    return this.send('executionCount', {}, (b) => readNumber(b.executionCount));
  }

  pushExecution(): Promise<Result<number | null>> {
    // The real service's answer has no total; the sandbox's has the new one.
    return this.send('pushExecutionCount', {}, (b) => readNumber(b.executionCount));
  }

  generate(params: { expire: string; count: number; isPremium: boolean; note?: string; expiresByDaysKey?: boolean; daysKey?: number }): Promise<Result<Key[]>> {
    return this.send('generateKeyPost', { ...params }, (b) => (Array.isArray(b.generatedKeys) ? readKeys(b.generatedKeys) : null));
  }

  deleteKey(keyValue: string, generatedOnly: boolean): Promise<Result<string>> {
    return this.send(generatedOnly ? 'deleteGeneratedKey' : 'deleteKey', { keyValue }, (b) => readString(b.deletedKey) ?? keyValue);
  }

  extend(keyValue: string, days: number): Promise<Result<Key | null>> {
    return this.send('expandExpiration', { keyValue, days }, (b) => readKey(b.key));
  }

  resetHwid(keyValue: string): Promise<Result<Key | null>> {
    return this.send('resetHwid', { keyValue }, (b) => readKey(b.key));
  }

  fetchActive(term: string, limit?: number, offset?: number): Promise<Result<{ keys: Key[]; total: number }>> {
    return this.send('fetchKey', { fetch: term, limit, offset }, (b) => {
      const keys = Array.isArray(b.keys) ? readKeys(b.keys) : [readKey(b.key)].filter((k): k is Key => k !== null);
      return { keys, total: readNumber(b.total) ?? keys.length };
    });
  }

  fetchGenerated(term: string, limit?: number, offset?: number): Promise<Result<{ keys: Key[]; total: number }>> {
    return this.send('fetchGeneratedKey', { fetch: term, limit, offset }, (b) => {
      const keys = Array.isArray(b.generatedKeys) ? readKeys(b.generatedKeys) : [readKey(b.generatedKey)].filter((k): k is Key => k !== null);
      return { keys, total: readNumber(b.total) ?? keys.length };
    });
  }

  identifierCheck(identifier: string): Promise<Result<{ exists: boolean; service: string | null }>> {
    return this.send('identifierCheck', { identifier }, (b) => {
      const service = readString(b.service);
      return { exists: typeof b.exists === 'boolean' ? b.exists : service !== null, service };
    });
  }

  addKeyless(hwid: string, isPremium?: boolean, days?: number): Promise<Result<KeylessEntry>> {
    return this.send('addKeyless', { hwid, isPremium, days }, (b) => readKeyless(b.keyless));
  }

  fetchKeyless(term: string, limit?: number, offset?: number): Promise<Result<{ entries: KeylessEntry[]; total: number }>> {
    return this.send('fetchKeyless', { fetch: term, limit, offset }, (b) => {
      const entries = Array.isArray(b.keylessEntries) ? readKeylessList(b.keylessEntries) : [readKeyless(b.keyless)].filter((k): k is KeylessEntry => k !== null);
      return { entries, total: readNumber(b.total) ?? entries.length };
    });
  }

  deleteKeyless(hwid: string): Promise<Result<null>> {
    return this.send('deleteKeyless', { hwid }, () => true).then((r) => (r.ok ? ok(null) : r));
  }

  validate(params: { key: string; service: string; hwid: string; dryRun?: boolean }): Promise<Result<{ reading: ValidationReading; raw: unknown }>> {
    return this.send('validate', { ...params, dryRun: params.dryRun ? true : undefined }, (b) => {
      const reading = readValidation(b);
      return reading && { reading, raw: b };
    });
  }
}
