// The sandbox's HTTP front: node:http, running the checks in the order wire.md fixes, every answer JSON.
// Runs in plain Node and on a thread of Electron's main (src/main/sandbox-thread.ts).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer, type AddressInfo, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { LIMITS } from '../shared/rules.ts';
import type { WireErrorCode } from '../shared/result.ts';
import { DETAIL_HEADER, ROUTES, WIRE_STATUS, type RouteName, type RouteSpec, type WireFailure } from '../shared/wire.ts';
import { storeTrouble, WireError } from './errors.ts';
import { ExecutionCounter } from './executions.ts';
import { Params, readApiKey } from './params.ts';
import { HANDLERS } from './routes/index.ts';
import { Streamed, type Reply, type RouteHandler, type SandboxLimits } from './routes/types.ts';
import { dialectOf, inDialect } from './dialect.ts';
import { openApiDocument } from './openapi.ts';
import type { SandboxStore } from './store.ts';

export interface SandboxServerOptions {
  store: SandboxStore;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  limits?: Partial<SandboxLimits>;
  /** Ignore `Keydesk-Detail: full` and answer every request in the real dialect, like the hosted service. */
  realOnly?: boolean;
  /** More Host names answered with the bound port (`--allow-host`): `localhost` or `sandbox` in a container. */
  allowHosts?: readonly string[];
  /** Called for a request that failed with an unexpected error (a bug): for the operator's log. */
  onInternalError?: (error: unknown) => void;
  /** A short line for the operator about something not a bug (clients that left early), at most once a minute. */
  onNotice?: (line: string) => void;
}

export interface RunningSandbox {
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** Off loopback, the line the operator must see: who can reach the sandbox, which Host values it accepts. */
  readonly exposure: string | null;
  /** Stops accepting, lets requests in flight finish (forcing them after `graceMs`), then resolves. */
  close(graceMs?: number): Promise<void>;
}

const MAX_HEADER_BYTES = 32 * 1024;
const JSON_TYPE = 'application/json; charset=utf-8';

/** path → method → route, from the one route table. */
const routesByPath = new Map<string, Map<string, RouteName>>();
for (const [name, route] of Object.entries(ROUTES) as [RouteName, RouteSpec][]) {
  const methods = routesByPath.get(route.path) ?? new Map<string, RouteName>();
  for (const method of route.methods) methods.set(method, name);
  routesByPath.set(route.path, methods);
}

/** The sandbox's own endpoints for tools and CI (wire.md): GET only, no apiKey, no service's request. */
const TOOL_ROUTES: ReadonlyMap<string, () => object> = new Map([
  ['/health', () => ({ status: 'ok' })],
  ['/openapi.json', openApiDocument],
]);

function failureBody(error: WireError): WireFailure {
  const body: WireFailure = { success: false, message: error.message, code: error.code };
  if (error.code === 'COOLDOWN') body.error = error.message;
  return body;
}

/** Validation needs no apiKey, so a protected web page may call it from any origin; apiKey endpoints never answer CORS. */
const CORS_PATH = ROUTES.validate.path;
const CORS_PREFLIGHT = {
  'Access-Control-Allow-Methods': ROUTES.validate.methods.join(', '),
  'Access-Control-Allow-Headers': `Content-Type, ${DETAIL_HEADER}`,
  'Access-Control-Max-Age': '600',
};

const BASE_HEADERS = { 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };

function send(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...BASE_HEADERS, 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Writes a pre-serialised body chunk by chunk, each once the last has gone, so one reused buffer carries them all. */
async function sendChunks(
  res: ServerResponse,
  status: number,
  body: { length: number; chunks: (into?: (size: number) => Buffer) => Iterable<Buffer> },
): Promise<void> {
  res.writeHead(status, { ...BASE_HEADERS, 'Content-Length': body.length });
  let buffer: Buffer | null = null;
  const into = (size: number): Buffer => {
    if (buffer === null || buffer.length < size) buffer = Buffer.allocUnsafe(size);
    return buffer.subarray(0, size);
  };
  for (const chunk of body.chunks(into)) {
    if (res.destroyed) return;
    await writtenOrClosed(res, chunk);
  }
  res.end();
}

/** Resolves once `chunk` has been handed to the socket (its buffer may then be reused), or the client has gone. */
function writtenOrClosed(res: ServerResponse, chunk: Buffer): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('close', done);
      resolve();
    };
    res.on('close', done);
    res.write(chunk, done);
  });
}

function sendError(res: ServerResponse, error: WireError, extraHeaders: Record<string, string> = {}): void {
  const headers: Record<string, string> = { ...extraHeaders };
  if (error.retryAfterSeconds !== undefined) headers['Retry-After'] = String(error.retryAfterSeconds);
  if (error.allow !== undefined) headers.Allow = error.allow;
  send(res, WIRE_STATUS[error.code], failureBody(error), headers);
}

const REASONS: Partial<Record<number, string>> = { 403: 'Forbidden', 405: 'Method Not Allowed', 414: 'URI Too Long' };
/** Every method some route takes, for the Allow header of a method no route knows. */
const ALL_METHODS = [...new Set(Object.values(ROUTES as Record<RouteName, RouteSpec>).flatMap((r) => r.methods))].join(', ');

/** A response written straight to a socket, for requests node:http does not hand to the request handler. */
function rawError(socket: Socket, code: WireErrorCode, message: string, headers: Record<string, string> = {}): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const text = JSON.stringify({ success: false, message, code });
  const status = WIRE_STATUS[code];
  const extra = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Bad Request'}\r\nContent-Type: ${JSON_TYPE}\r\n${extra}` +
      `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}

/** The request's client went away before it could be answered: not a bug, nothing to answer. */
class ClientGone extends Error {}

/** Counts clients that left mid-request, reported as one line at most once per `windowMs`. */
class GoneNotice {
  private last = -Infinity;
  private unreported = 0;
  private readonly write: ((line: string) => void) | undefined;
  private readonly windowMs: number;
  constructor(write: ((line: string) => void) | undefined, windowMs = 60_000) {
    this.write = write;
    this.windowMs = windowMs;
  }
  note(now: number): void {
    this.unreported++;
    if (this.write === undefined || now - this.last < this.windowMs) return;
    const n = this.unreported;
    this.unreported = 0;
    this.last = now;
    this.write(`${n === 1 ? 'A client' : `${n} clients`} disconnected before the answer was sent (not an error).`);
  }
}

const GONE_CODES = new Set(['ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE', 'ERR_STREAM_DESTROYED']);
function isClientGone(error: unknown, req: IncomingMessage, res: ServerResponse): boolean {
  if (error instanceof ClientGone) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && GONE_CODES.has(code) && (req.destroyed || res.destroyed || req.socket.destroyed);
}

/** Reads the body up to the limit. Resolves null when the limit is crossed. */
function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > LIMITS.bodyMaxBytes) {
        done = true;
        req.pause();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!done) {
        done = true;
        resolve(Buffer.concat(chunks, size));
      }
    });
    req.on('error', reject);
    // A client that leaves mid-body may close without an error: the read must still end.
    req.on('close', () => {
      if (!done) reject(new ClientGone());
    });
  });
}

function isJsonMediaType(header: string | undefined): boolean {
  if (header === undefined) return false;
  return header.split(';', 1)[0]?.trim().toLowerCase() === 'application/json';
}

/** True for an address only this machine can reach. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h) || /^::ffff:127\./.test(h);
}

const hostPort = (address: string, port: number): string => `${address.includes(':') ? `[${address}]` : address}:${port}`.toLowerCase();

/**
 * The Host values answered, against DNS rebinding: loopback names on loopback; elsewhere only the bound (or own, for
 * a wildcard) addresses, since any network client could claim `127.0.0.1`; and the names `--allow-host` adds.
 */
function hostsAllowed(host: string, port: number, extra: readonly string[]): Set<string> {
  const named = extra.map((name) => hostPort(name.replace(/^\[|\]$/g, ''), port));
  if (isLoopback(host)) {
    return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, hostPort(host.replace(/^\[|\]$/g, ''), port), ...named]);
  }
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === '0.0.0.0' || bare === '::' || bare === '') {
    const own = Object.values(networkInterfaces())
      .flat()
      .filter((i) => i !== undefined && !i.internal && (bare !== '0.0.0.0' || i.family === 'IPv4'))
      .map((i) => hostPort(i?.address ?? '', port));
    return new Set([...own, ...named]);
  }
  return new Set([hostPort(bare, port), ...named]);
}

/** Requests per second per service, as a token bucket refilled continuously. */
class RateLimiter {
  private readonly buckets = new Map<number, { tokens: number; at: number }>();
  private readonly perSecond: number;

  constructor(perSecond: number) {
    this.perSecond = perSecond;
  }

  /** Seconds to wait, or 0 when the request may go ahead. */
  take(serviceId: number, now: number): number {
    const b = this.buckets.get(serviceId) ?? { tokens: this.perSecond, at: now };
    b.tokens = Math.min(this.perSecond, b.tokens + ((now - b.at) / 1000) * this.perSecond);
    b.at = now;
    this.buckets.set(serviceId, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.perSecond));
  }
}

export function startSandboxServer(options: SandboxServerOptions): Promise<RunningSandbox> {
  const { store } = options;
  const limits: SandboxLimits = {
    hwidResetCooldownMinutes: options.limits?.hwidResetCooldownMinutes ?? 0,
    hwidResetLimit: options.limits?.hwidResetLimit ?? 0,
    rateLimitPerSecond: options.limits?.rateLimitPerSecond ?? 0,
  };
  const limiter = limits.rateLimitPerSecond > 0 ? new RateLimiter(limits.rateLimitPerSecond) : null;
  const executions = new ExecutionCounter(store);
  const host = options.host ?? '127.0.0.1';
  const realOnly = options.realOnly ?? false;
  const gone = new GoneNotice(options.onNotice);
  let allowedHosts = new Set<string>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // 1. Host: against DNS rebinding, only the addresses we listen on.
    const hostHeader = req.headers.host?.toLowerCase();
    if (hostHeader === undefined || !allowedHosts.has(hostHeader)) {
      throw new WireError('HOST_NOT_ALLOWED', 'The Host header does not name an address this sandbox listens on.');
    }
    // 2. Route and 3. method.
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const tool = TOOL_ROUTES.get(path);
    if (tool !== undefined) {
      if (req.method !== 'GET') throw new WireError('METHOD_NOT_ALLOWED', `${path} accepts GET only.`, { allow: 'GET' });
      send(res, 200, tool());
      return;
    }
    const methods = routesByPath.get(path);
    if (!methods) throw new WireError('NOT_FOUND', `There is no endpoint at ${path.slice(0, 100)}.`);
    if (path === CORS_PATH) {
      res.setHeader('Access-Control-Allow-Origin', '*');
      if (req.method === 'OPTIONS') {
        send(res, 200, { success: true, message: 'Validation may be called from any origin.' }, CORS_PREFLIGHT);
        return;
      }
    }
    const routeName = methods.get(req.method ?? '');
    if (routeName === undefined) {
      const allow = [...methods.keys()].join(', ');
      throw new WireError('METHOD_NOT_ALLOWED', `${path} accepts ${allow} only.`, { allow });
    }
    // 4. Size.
    if (Buffer.byteLength(url) > LIMITS.urlMaxBytes) {
      throw new WireError('URI_TOO_LONG', `The URL is longer than ${LIMITS.urlMaxBytes / 1024} KiB.`);
    }
    // A body declared too large is not read at all.
    const raw = Number(req.headers['content-length'] ?? 0) > LIMITS.bodyMaxBytes ? null : await readBody(req);
    if (raw === null) {
      res.setHeader('Connection', 'close');
      throw new WireError('PAYLOAD_TOO_LARGE', `The body is larger than ${LIMITS.bodyMaxBytes / 1024} KiB.`);
    }
    // 5. Media type and 6. JSON syntax (POST bodies). A POST body must be JSON.
    let body: Record<string, unknown> | null = null;
    const jsonBody = isJsonMediaType(req.headers['content-type']);
    if (raw.length > 0 && req.method === 'POST') {
      if (!jsonBody) throw new WireError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON with Content-Type: application/json.');
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw.toString('utf8'));
      } catch {
        throw new WireError('INVALID_INPUT', 'The body is not valid JSON.');
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw new WireError('INVALID_INPUT', 'The JSON body must be an object.');
      }
      body = parsed as Record<string, unknown>;
    } else if (raw.length > 0 && jsonBody && HANDLERS[routeName].auth !== 'public') {
      // wire.md accepts the apiKey "in the other place", for a GET a JSON body: only it is read, and a GET body
      // is otherwise ignored (never 415 or a JSON error).
      body = getBodyApiKey(raw);
    }
    const params = new Params(new URLSearchParams(q === -1 ? '' : url.slice(q + 1)), body);
    // The handler's type ties its reply to this route's detail body (routes/index.ts).
    const handler: RouteHandler = HANDLERS[routeName];
    let reply: Reply;
    if (handler.auth === 'public') {
      reply = handler.handle({ params, store, limits });
    } else {
      // 7. apiKey.
      const apiKey = readApiKey(params);
      const service = store.serviceByApiKey(apiKey);
      if (!service) throw new WireError('API_KEY_INVALID', 'The apiKey is not valid for any service.');
      if (limiter) {
        const wait = limiter.take(service.id, Date.now());
        if (wait > 0) {
          throw new WireError('RATE_LIMITED', `Too many requests; at most ${limits.rateLimitPerSecond} per second are allowed.`, {
            retryAfterSeconds: wait,
          });
        }
      }
      // 8. Parameters and 9. state, inside the handler.
      reply = await handler.handle({ params, store, executions, service, limits });
    }
    const dialect = dialectOf(req.headers, realOnly);
    if (reply.body instanceof Streamed) await sendChunks(res, reply.status, reply.body.render(dialect));
    else send(res, reply.status, inDialect(routeName, reply.body, dialect));
  }

  // Tracked for a graceful shutdown: node's server.close() destroys connections whose answer may not be flushed.
  const sockets = new Set<Socket>();
  const busy = new Set<Socket>();
  let closing = false;

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const socket = req.socket;
    busy.add(socket);
    if (closing) res.setHeader('Connection', 'close');
    res.on('close', () => {
      busy.delete(socket);
      if (closing) socket.end();
    });
    handle(req, res).catch((error: unknown) => {
      if (isClientGone(error, req, res)) {
        gone.note(Date.now());
        res.destroy();
        return;
      }
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof WireError) {
        sendError(res, error);
      } else {
        options.onInternalError?.(error);
        sendError(
          res,
          storeTrouble(error) ?? new WireError('INTERNAL', 'The sandbox failed to handle this request; this is a bug in Keydesk.'),
        );
      }
    });
  };
  // The client must close an idle keep-alive socket first: a server closing first races its next request, and a
  // mutation lost that way has an unknown outcome. Clients read `Keep-Alive: timeout=65` and leave earlier.
  const server: Server = createServer({ maxHeaderSize: MAX_HEADER_BYTES, keepAliveTimeout: 65_000 }, onRequest);
  // `Expect:` values other than 100-continue: node would answer 417 with an empty body; answer as usual instead.
  server.on('checkExpectation', onRequest);
  // CONNECT is handed over as a tunnel request, never to the request handler: refuse it in JSON here.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    const hostHeader = req.headers.host?.toLowerCase();
    if (hostHeader === undefined || !allowedHosts.has(hostHeader)) {
      rawError(socket, 'HOST_NOT_ALLOWED', 'The Host header does not name an address this sandbox listens on.');
    } else {
      rawError(socket, 'METHOD_NOT_ALLOWED', `The sandbox is not a proxy: CONNECT is not accepted. Use ${ALL_METHODS}.`, {
        Allow: ALL_METHODS,
      });
    }
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'HPE_INVALID_METHOD') {
      rawError(socket, 'METHOD_NOT_ALLOWED', `The request method is not one the sandbox knows. Use ${ALL_METHODS}.`, {
        Allow: ALL_METHODS,
      });
    } else if (error.code === 'HPE_HEADER_OVERFLOW') {
      rawError(socket, 'URI_TOO_LONG', `The request line and headers are longer than ${MAX_HEADER_BYTES / 1024} KiB.`);
    } else if (error.code === 'ECONNRESET' || error.code === 'HPE_HEADER_TIMEOUT' || error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      socket.destroy();
    } else {
      rawError(socket, 'INVALID_INPUT', 'The request is not well-formed HTTP/1.1.');
    }
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const shown = host.includes(':') ? `[${host}]` : host;
      allowedHosts = hostsAllowed(host, port, options.allowHosts ?? []);
      const url = `http://${shown}:${port}`;
      resolve({
        url,
        host,
        port,
        exposure: isLoopback(host)
          ? null
          : `Keydesk sandbox: bound to ${shown}, not loopback: any machine that can reach this host on port ${port} can now call it ` +
            `(validation needs no apiKey). Only requests whose Host header is ${[...allowedHosts].join(' or ') || '(no address of this machine)'} are answered.`,
        close: (graceMs = 4_000) =>
          new Promise<void>((done) => {
            closing = true;
            const timer = setTimeout(() => {
              for (const socket of sockets) socket.destroy();
            }, graceMs);
            // net.Server#close only stops listening; it resolves once every connection has ended.
            NetServer.prototype.close.call(server, () => {
              clearTimeout(timer);
              done();
            });
            for (const socket of sockets) if (!busy.has(socket)) socket.end();
          }),
      });
    });
  });
}

/** The apiKey of a GET's JSON body, as the only parameter read from it; null when it has none or is not JSON. */
function getBodyApiKey(raw: Buffer): Record<string, unknown> | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !('apiKey' in parsed)) return null;
  return { apiKey: parsed.apiKey };
}
