// The HTTP client for one service (the embedded sandbox or a remote one), on undici. Every call returns a
// Result: never a throw, never an undici error object, never the apiKey in a message.
import { setTimeout as wait } from 'node:timers/promises';
import { EnvHttpProxyAgent, errors as undiciErrors, request, type Dispatcher } from 'undici';
import type { Key, KeylessEntry } from '../../shared/domain.ts';
import type { KeyBatch } from '../../shared/key-batch.ts';
import { fail, ok, WIRE_ERROR_CODES, type ErrorCode, type Failure, type Result } from '../../shared/result.ts';
import { DETAIL_FULL, DETAIL_HEADER, endpointOf, placeParams, ROUTES, type RouteName, type RouteSpec } from '../../shared/wire.ts';
import {
  isObject,
  rawAnswer,
  readKey,
  readKeyless,
  readKeys,
  readNumber,
  readString,
  readValidation,
  type ValidationReading,
} from './read.ts';
import { buildUrl, redact, unconfirmedValidationHost, type BuiltUrl } from './urls.ts';

export interface Timeouts {
  connectMs: number;
  headersMs: number;
  bodyMs: number;
}
export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 10_000, headersMs: 15_000, bodyMs: 30_000 };
/**
 * How long one request may take in all (headers, the whole body, retries): the idle timeouts above never trip on a
 * service that drips its answer. A generate of 100,000 keys is about 34 MB to make and send.
 */
export const DEADLINES_MS = { read: 60_000, change: 60_000, generate: 180_000 } as const;
export type Deadlines = Record<keyof typeof DEADLINES_MS, number>;
/** Large enough for a 100,000-key batch (about 34 MB), small enough to refuse a runaway body. */
export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

export interface ClientTarget {
  baseUrl: string;
  validationUrl: string;
  /** The validation URL's origin, when it is not the base URL's and the user confirmed it in Profiles. */
  validationOriginConfirmed?: string | undefined;
  apiKey: string | null;
}

export interface ClientOptions {
  dispatcher?: Dispatcher;
  /** Delays before the first and second retry of a read; a Retry-After header wins (capped at 10 s). */
  retryDelaysMs?: readonly number[];
  timeouts?: Timeouts;
  /** Overrides DEADLINES_MS (tests set them short). */
  deadlinesMs?: Partial<Deadlines>;
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

/** Waits `ms`, or less when `signal` aborts. */
const sleep = (ms: number, signal: AbortSignal): Promise<unknown> => wait(ms, undefined, { signal }).catch(() => undefined);

/** What a caller may add to an operation: a cancel, and word that the answer's headers came (before its body is read). */
export interface Call {
  /** Aborts the request on the wire (a job's cancel); its failure then says it was cut off. */
  signal?: AbortSignal | undefined;
  onHeaders?: (() => void) | undefined;
}
/** What an operation adds to its request: a mutation's "probably done" words, and where a 2xx body is read. */
export interface SendExtras extends Call {
  probablyDone?: string | undefined;
  parse?: BodyParser | undefined;
}

/** "60 s", or "500 ms" under a second. */
const duration = (ms: number): string => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`);

/** What a reader returns when the body lacks what the operation needs. */
export const UNREADABLE: unique symbol = Symbol('unreadable');
export type Reader<T> = (body: Record<string, unknown>) => T | typeof UNREADABLE;

/** A body read elsewhere: its JSON value, or (not JSON) its first characters. */
export type BodyReading = { json: true; value: unknown } | { json: false; head: string };
/** Reads a 2xx answer's body from its bytes elsewhere (main's ledger writer thread). */
export type BodyParser = (bytes: ArrayBuffer) => Promise<BodyReading>;

/** How generateInto reads a 2xx answer: `read` returns the body without its keys, `batch` the keys found (or null). */
export interface BatchIntake {
  read: BodyParser;
  readonly batch: KeyBatch | null;
}

interface Interpretation<T> {
  method: string;
  url: BuiltUrl;
  read: Reader<T>;
  /** A 2xx it cannot read may have taken effect: a mutation, or a validation that activates. */
  mayHaveActed: boolean;
  /** The route table's `answerInBody` (validation): `success: false` with an outcome is an answer, not a failed call. */
  answerInBody: boolean;
  probablyDone: string | undefined;
}

/** Retry-After in seconds, as a number of seconds or an HTTP date; undefined when absent or unreadable. */
function retryAfterSeconds(headers: Attempt['headers']): number | undefined {
  const raw = headers['retry-after'];
  const v = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!v) return undefined;
  if (/^\d+$/.test(v)) return Number(v);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** "Cooldown active. Try again in 42 minutes" → 2,520 s; also seconds and hours. */
function cooldownSeconds(text: string): number | undefined {
  const m = /(\d+(?:\.\d+)?)\s*(hours?|hrs?|minutes?|mins?|seconds?|secs?|[hms])\b/i.exec(text);
  if (!m?.[1] || !m[2]) return undefined;
  const n = Number(m[1]);
  const unit = m[2].toLowerCase();
  return Math.ceil(unit.startsWith('h') ? n * 3600 : unit.startsWith('m') ? n * 60 : n);
}
const isWireCode = (c: unknown): c is ErrorCode => typeof c === 'string' && (WIRE_ERROR_CODES as readonly string[]).includes(c);

/** Bytes read between turns of the event loop: chunks already here are otherwise all read in one go (tens of ms for 33 MB). */
const READ_TURN_BYTES = 1024 * 1024;

/** A body's bytes in one ArrayBuffer, each chunk copied in and dropped (undici's arrayBuffer() keeps them all until the end). */
async function bodyBytes(body: AsyncIterable<Uint8Array>, contentLength: string | string[] | undefined): Promise<ArrayBuffer> {
  const declared = typeof contentLength === 'string' && /^\d+$/.test(contentLength) ? Number(contentLength) : Number.NaN;
  let out = new Uint8Array(Number.isSafeInteger(declared) && declared <= MAX_RESPONSE_BYTES ? declared : 64 * 1024);
  let at = 0;
  let turn = READ_TURN_BYTES;
  for await (const chunk of body) {
    if (at >= turn) {
      turn = at + READ_TURN_BYTES;
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (at + chunk.length > out.length) {
      // No length, or more than it said (undici refuses that first): grow.
      const grown = new Uint8Array(Math.max(out.length * 2, at + chunk.length));
      grown.set(out.subarray(0, at));
      out = grown;
    }
    out.set(chunk, at);
    at += chunk.length;
  }
  return at === out.length ? out.buffer : out.slice(0, at).buffer;
}

interface Attempt {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body, or its first characters when it was read elsewhere and was not JSON. */
  text: string;
  /** The body's JSON value when it was read elsewhere (BodyParser); `unparsable` when that found no JSON. */
  parsed?: { value: unknown } | 'unparsable';
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

  /** One HTTP exchange; throws only network errors. With `parse`, a 2xx body is read there, any other here. */
  private async attempt(method: string, url: string, body: string | undefined, extras: SendExtras, signal: AbortSignal): Promise<Attempt> {
    const { parse, onHeaders } = extras;
    const res = await request(url, {
      method: method,
      signal,
      dispatcher: this.dispatcher,
      headers: {
        accept: 'application/json',
        [DETAIL_HEADER]: DETAIL_FULL,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body,
    });
    onHeaders?.();
    const status = res.statusCode;
    if (parse === undefined || status < 200 || status >= 300) return { status, headers: res.headers, text: await res.body.text() };
    const bytes = await bodyBytes(res.body, res.headers['content-length']);
    let reading: BodyReading;
    try {
      reading = await parse(bytes);
    } catch (error) {
      // Received but not read: an answer Keydesk cannot read, never a network failure.
      console.error('keydesk: an answer could not be read:', error);
      return { status, headers: res.headers, text: '', parsed: 'unparsable' };
    }
    if (reading.json) return { status, headers: res.headers, text: '', parsed: { value: reading.value } };
    // An empty body is a success with nothing to say; anything else was not JSON.
    return { status, headers: res.headers, text: reading.head, ...(reading.head.trim() === '' ? {} : { parsed: 'unparsable' as const }) };
  }

  /**
   * One request, within its deadline: reads retried twice on network errors, 5xx and 429; mutations sent once, an
   * unreadable 2xx "probably done".
   */
  async send<T>(route: RouteName, params: Query, read: Reader<T>, extras: SendExtras = {}): Promise<Result<T>> {
    const spec: RouteSpec = ROUTES[route];
    const method = spec.methods[0];
    const mutating = spec.mutates;
    const placed = placeParams(route, params, this.target.apiKey);
    const { base, path } = endpointOf(route, this.target);
    let built;
    try {
      built = buildUrl(base, path, placed.query);
      const host = spec.base === 'validation' ? unconfirmedValidationHost(this.target) : null;
      if (host !== null) {
        const words = `The validation URL is on another host (${host}) than the base URL, and it was not confirmed in Profiles: nothing was sent. Edit the profile to confirm it.`;
        return { ...this.failure('FORBIDDEN', words), detail: `${method} ${built.redacted}: not sent` };
      }
    } catch {
      return this.failure('INVALID_INPUT', `The service address ${base} is not a valid URL.`);
    }
    const body = placed.body && JSON.stringify(placed.body);
    const delays = this.options.retryDelaysMs ?? [300, 1_000];
    const tries = mutating ? 1 : delays.length + 1;
    const { probablyDone } = extras;
    const how: Interpretation<T> = {
      method,
      url: built,
      read,
      mayHaveActed: mutating || probablyDone !== undefined,
      answerInBody: spec.answerInBody === true,
      probablyDone,
    };
    const limitMs = this.deadlineMs(route);
    const late = AbortSignal.timeout(limitMs);
    const signal = extras.signal ? AbortSignal.any([late, extras.signal]) : late;
    const over = (): boolean => signal.aborted;
    const stopped = (): Failure => this.cutShort(`${method} ${built.redacted}`, mutating, late.aborted ? limitMs : null);
    let last: Failure | null = null;
    for (let i = 0; i < tries; i++) {
      if (over()) return stopped();
      this.options.onAttempt?.({ method: method, url: built.redacted });
      let res: Attempt;
      try {
        res = await this.attempt(method, built.url, body, extras, signal);
      } catch (error) {
        if (over()) return stopped();
        last = this.networkFailure(error, method, built.redacted, mutating);
        if (i + 1 < tries && last.code !== 'BAD_RESPONSE') {
          await sleep(delays[i] ?? 1_000, signal);
          continue;
        }
        return last;
      }
      const outcome = this.interpret(res, how);
      if (outcome.ok) return outcome;
      last = outcome;
      const retryable = (res.status >= 500 || res.status === 429) && outcome.code !== 'COOLDOWN';
      if (!retryable || i + 1 >= tries) return outcome;
      const retryAfter = retryAfterSeconds(res.headers);
      await sleep(retryAfter !== undefined ? Math.min(retryAfter, 10) * 1000 : (delays[i] ?? 1_000), signal);
    }
    return last ?? this.failure('NETWORK', `${method} ${built.redacted}: no attempt was made.`);
  }

  private deadlineMs(route: RouteName): number {
    const kind = route === 'generateKeyPost' || route === 'generateKeyGet' ? 'generate' : ROUTES[route].mutates ? 'change' : 'read';
    return this.options.deadlinesMs?.[kind] ?? DEADLINES_MS[kind];
  }

  /** A request stopped before its whole answer came: past its deadline (`limitMs`), or cut off by its caller (null). */
  private cutShort(where: string, mutating: boolean, limitMs: number | null): Failure {
    const what =
      limitMs === null
        ? 'cancelled before the whole answer came'
        : `the service took too long (no whole answer within ${duration(limitMs)})`;
    const code = mutating ? 'OUTCOME_UNKNOWN' : limitMs === null ? 'CANCELLED' : 'TIMEOUT';
    const unknown = mutating ? ' It may have been applied: outcome unknown, check before retrying.' : '';
    const failure = this.failure(code, `${where}: ${what}.${unknown}`);
    return limitMs === null ? { ...failure, cutOff: true } : { ...failure, timedOut: true };
  }

  /** One HTTP answer as a result: a 2xx is done unless the body says otherwise; a cooldown is COOLDOWN whatever the status. */
  private interpret<T>(res: Attempt, how: Interpretation<T>): Result<T> {
    const where = () => `${how.method} ${how.url.redacted}`;
    const status = res.status;
    const done = status >= 200 && status < 300;
    if (status >= 300 && status < 400) {
      return this.failure(
        'HTTP_ERROR',
        `${where()}: the service answered HTTP ${status} (a redirect), which Keydesk does not follow. Check the base URL.`,
      );
    }
    let json: unknown;
    try {
      if (res.parsed === 'unparsable') throw new SyntaxError('not JSON');
      json = res.parsed ? res.parsed.value : done && res.text.trim() === '' ? {} : JSON.parse(res.text);
    } catch {
      const html = /^\s*</.test(res.text);
      const title = html ? /<title[^>]*>([^<]{1,120})<\/title>/i.exec(res.text)?.[1]?.trim() : undefined;
      const what = `HTTP ${status} with ${html ? `an HTML page${title ? ` ("${title}")` : ''}` : 'a body that is not JSON'} instead of the service's JSON answer`;
      if (status === 429) {
        return this.failure(
          'RATE_LIMITED',
          `${where()}: too many requests (${what}). Wait before trying again.`,
          retryAfterSeconds(res.headers),
        );
      }
      if (done && how.mayHaveActed) return this.probablyDone(where(), status, how.probablyDone);
      return this.failure('BAD_RESPONSE', `${where()}: ${what}.`);
    }
    const body = isObject(json) ? json : null;
    const serviceError = body ? readString(body.error) : null;
    const serviceMessage = body ? (readString(body.message) ?? serviceError) : null;
    // A success whose message merely mentions a cooldown ("a 60-minute cooldown now applies") is a success.
    const cooldownWords = done && body?.success === true ? [serviceError] : [serviceError, serviceMessage];
    const cooldown = cooldownWords.find((t) => t !== null && /cool\s*-?down/i.test(t));
    const bodyCode = body && isWireCode(body.code) ? body.code : null;
    if (cooldown !== undefined || bodyCode === 'COOLDOWN') {
      const words = cooldown ?? serviceMessage ?? 'A cooldown is active.';
      return this.failure('COOLDOWN', `${words.slice(0, 300)} (HTTP ${status})`, retryAfterSeconds(res.headers) ?? cooldownSeconds(words));
    }
    if (!done) {
      const code = bodyCode ?? (status === 404 ? 'NOT_FOUND' : status === 429 ? 'RATE_LIMITED' : 'HTTP_ERROR');
      const reason = serviceMessage ? serviceMessage.slice(0, 300) : 'no reason given';
      return this.failure(code, `${reason} (HTTP ${status})`, retryAfterSeconds(res.headers));
    }
    if (!body) {
      if (how.mayHaveActed) return this.probablyDone(where(), status, how.probablyDone);
      return this.failure('BAD_RESPONSE', `${where()}: HTTP ${status} with JSON that is not an object.`);
    }
    const refused = body.success === false || (serviceError !== null && body.success !== true);
    if (refused && !(how.answerInBody && readValidation(body) !== null)) {
      return this.failure(
        bodyCode ?? 'HTTP_ERROR',
        `${(serviceMessage ?? 'The service reported a failure.').slice(0, 300)} (HTTP ${status})`,
      );
    }
    const value = how.read(body);
    if (value === UNREADABLE) {
      if (how.mayHaveActed) return this.probablyDone(where(), status, how.probablyDone);
      return this.failure('BAD_RESPONSE', `${where()}: HTTP ${status}, but the answer lacks the fields Keydesk needs.`);
    }
    return ok(value);
  }

  /** A mutating call the service accepted (2xx) with an answer Keydesk cannot read: not a plain failure. */
  private probablyDone(where: string, status: number, what = 'it probably took effect: check before retrying'): Failure {
    const failure = this.failure('OUTCOME_UNKNOWN', `The service accepted the request but its answer could not be read: ${what}.`);
    return { ...failure, detail: this.redact(`${where}: HTTP ${status} with an answer Keydesk could not read.`) };
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
      return this.failure(
        'BAD_RESPONSE',
        `${where}: the answer is larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB; Keydesk stopped reading it.`,
      );
    }
    if (code === 'UND_ERR_CONNECT_TIMEOUT') return this.failure('TIMEOUT', `${where}: could not connect to ${host} in time.`);
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
      // Marked so a job can see a hung service.
      const failure = mutating
        ? unknown('the service did not answer in time')
        : this.failure('TIMEOUT', `${where}: the service did not answer in time.`);
      return { ...failure, timedOut: true };
    }
    // From here the connection failed: marked so a job can see a service that is gone.
    const lost = (failure: Failure): Failure => ({ ...failure, connectionLost: true });
    if (code === 'ECONNREFUSED') return lost(this.failure('NETWORK', `${where}: ${host} refused the connection. Is the service running?`));
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      return lost(this.failure('NETWORK', `${where}: the host ${host} was not found (DNS).`));
    if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') {
      return lost(mutating ? unknown('the connection was reset') : this.failure('NETWORK', `${where}: the connection was reset.`));
    }
    return lost(
      mutating
        ? unknown(`the request failed (${code || 'network error'})`)
        : this.failure('NETWORK', `${where}: the request failed (${code || 'network error'}).`),
    );
  }

  // ---- the service's operations -------------------------------------------------------------------------

  executionCount(): Promise<Result<number>> {
    return this.send('executionCount', {}, (b) => readNumber(b.executionCount) ?? UNREADABLE);
  }

  /** The new total, or null when the service does not say (the real dialect): the caller re-reads it. */
  pushExecution(): Promise<Result<number | null>> {
    return this.send('pushExecutionCount', {}, (b) => readNumber(b.executionCount));
  }

  generate(params: GenerateParams, call: Call = {}): Promise<Result<Key[]>> {
    return this.send(
      'generateKeyPost',
      { ...params },
      (b) => (Array.isArray(b.generatedKeys) ? readKeys(b.generatedKeys, 'generated') : UNREADABLE),
      { ...call, probablyDone: GENERATE_PROBABLY_DONE },
    );
  }

  /** generate, with a 2xx body read by `intake` (the ledger writer thread), judged exactly as generate's. */
  generateInto(params: GenerateParams, intake: BatchIntake, call: Call = {}): Promise<Result<KeyBatch>> {
    return this.send('generateKeyPost', { ...params }, () => intake.batch ?? UNREADABLE, {
      ...call,
      probablyDone: GENERATE_PROBABLY_DONE,
      parse: (bytes) => intake.read(bytes),
    });
  }

  /** Done on any 2xx: the real service answers `{message}` alone. */
  deleteKey(keyValue: string, generatedOnly: boolean, call: Call = {}): Promise<Result<string>> {
    return this.send(generatedOnly ? 'deleteGeneratedKey' : 'deleteKey', { keyValue }, (b) => readString(b.deletedKey) ?? keyValue, call);
  }

  /** The extended key, or null when the service did not describe it (the caller re-fetches). */
  extend(keyValue: string, days: number, call: Call = {}): Promise<Result<Key | null>> {
    return this.send('expandExpiration', { keyValue, days }, (b) => readKey(b.key), call);
  }

  /** The reset key (always active), or null when the service answered `{message}` alone. */
  resetHwid(keyValue: string, call: Call = {}): Promise<Result<Key | null>> {
    return this.send('resetHwid', { keyValue }, (b) => readKey(b.key, 'active'), call);
  }

  /** Active keys matching a term; the real dialect sends only the best match, so `total` is then null. */
  fetchActive(term: string, limit?: number, offset?: number, call: Call = {}): Promise<Result<Page<Key>>> {
    return this.send('fetchKey', { fetch: term, limit, offset }, (b) => page(b, 'keys', 'key', (v) => readKey(v, 'active')), call);
  }

  fetchGenerated(term: string, limit?: number, offset?: number, call: Call = {}): Promise<Result<Page<Key>>> {
    return this.send(
      'fetchGeneratedKey',
      { fetch: term, limit, offset },
      (b) => page(b, 'generatedKeys', 'generatedKey', (v) => readKey(v, 'generated')),
      call,
    );
  }

  /** The real dialect answers `{message, service}`, service null when the identifier is free (wire.md). */
  identifierCheck(identifier: string): Promise<Result<{ exists: boolean; service: string | null }>> {
    return this.send('identifierCheck', { identifier }, (b) => {
      const raw = b.service;
      const service = readString(raw) || (isObject(raw) ? readString(raw.name) || null : null);
      if (typeof b.exists === 'boolean') return { exists: b.exists, service };
      if (!('service' in b)) return UNREADABLE;
      // Free only on null or false: the vendor must never pick an identifier that is taken.
      return { exists: raw !== null && raw !== false, service };
    });
  }

  addKeyless(hwid: string, isPremium?: boolean, days?: number): Promise<Result<KeylessEntry>> {
    return this.send('addKeyless', { hwid, isPremium, days }, (b) => readKeyless(b.keyless) ?? UNREADABLE, {
      probablyDone: 'the entry was probably added: look it up',
    });
  }

  fetchKeyless(term: string, limit?: number, offset?: number): Promise<Result<{ entries: KeylessEntry[]; total: number | null }>> {
    return this.send('fetchKeyless', { fetch: term, limit, offset }, (b) => {
      const p = page(b, 'keylessEntries', 'keyless', readKeyless);
      return p === UNREADABLE ? p : { entries: p.keys, total: p.total };
    });
  }

  deleteKeyless(hwid: string): Promise<Result<null>> {
    return this.send('deleteKeyless', { hwid }, () => null);
  }

  validate(params: {
    key: string;
    service: string;
    hwid: string;
    dryRun?: boolean;
  }): Promise<Result<{ reading: ValidationReading; raw: string }>> {
    return this.send(
      'validate',
      { ...params, dryRun: params.dryRun ? true : undefined },
      (b) => {
        const reading = readValidation(b);
        return reading ? { reading, raw: rawAnswer(b) } : UNREADABLE;
      },
      params.dryRun ? {} : { probablyDone: VALIDATE_PROBABLY_DONE },
    );
  }
}

export interface GenerateParams {
  expire: string;
  count: number;
  isPremium: boolean;
  note?: string;
  expiresByDaysKey?: boolean;
  daysKey?: number;
  noHwidValidation?: boolean;
}
const GENERATE_PROBABLY_DONE = 'the keys were probably created: look them up before generating again';
const VALIDATE_PROBABLY_DONE = 'the key may be activated and bound to this HWID: look it up before validating again';

/** One page of a lookup; `total` is null when the service sent a best match without a list or count. */
export interface Page<T> {
  keys: T[];
  total: number | null;
}

/** One page of a lookup's answer, or UNREADABLE: an unreadable answer is never "nothing found" (the key would seem gone). */
function page<T>(
  body: Record<string, unknown>,
  listField: string,
  bestField: string,
  read: (v: unknown) => T | null,
): Page<T> | typeof UNREADABLE {
  const list = body[listField];
  const best = body[bestField];
  if (Array.isArray(list)) {
    const keys = list.map(read);
    if (keys.some((k) => k === null)) return UNREADABLE;
    const found = keys as T[];
    return { keys: found, total: readNumber(body.total) ?? (found.length === 0 ? 0 : null) };
  }
  if (list !== undefined && list !== null) return UNREADABLE;
  if (best === null || (best === undefined && (readString(body.message) ?? '') !== '')) return { keys: [], total: 0 };
  const one = read(best);
  return one === null ? UNREADABLE : { keys: [one], total: readNumber(body.total) };
}
