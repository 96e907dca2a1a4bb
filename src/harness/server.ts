// The harness: the real main-process core in plain Node, the built renderer on loopback, and window.keydesk over
// a loopback bridge that needs this run's random token. Only the IPC transport differs from the app.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname } from 'node:path';
import { CONTENT_SECURITY_POLICY } from '../main/security.ts';
import type { Startup } from '../main/startup.ts';
import { dispatch } from '../main/ipc/dispatch.ts';
import { contentType, resolveInside } from '../main/static-files.ts';
import { EVENT_NAMES, OPERATION_NAMES, type OperationName } from '../shared/operations.ts';
import { fail } from '../shared/result.ts';
import { encodeAnswer, FRAMED_ANSWER_TYPE } from './answer-frame.ts';
import { BRIDGE_PATH, buildBridgeScript, EVENTS_PATH, RPC_PREFIX, TOKEN_HEADER, TOKEN_META } from './bridge-script.ts';

// The largest input the contract allows: 100,000 ASCII key values of up to 256 characters, under 27 MB of JSON.
const MAX_RPC_BYTES = 32 * 1024 * 1024;
const NO_STORE = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

export interface RunningHarness {
  url: string;
  token: string;
  close(): Promise<void>;
}

/** Serves the page from the moment the start begins; every other operation answers once the core is up. */
export async function startHarness(options: { startup: Startup; rendererDir: string; port?: number }): Promise<RunningHarness> {
  const { startup, rendererDir } = options;
  const { handlers } = startup;
  const token = randomBytes(32).toString('base64url');
  const tokenBytes = Buffer.from(token);
  const script = await buildBridgeScript();
  let origin = '';
  let allowedHosts = new Set<string>();
  const streams = new Set<ServerResponse>();

  const tokenOk = (given: string | null | undefined): boolean => {
    const b = Buffer.from(given ?? '');
    return b.length === tokenBytes.length && timingSafeEqual(b, tokenBytes);
  };
  const send = (res: ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': type, ...NO_STORE, ...extra });
    res.end(body);
  };
  const json = (res: ServerResponse, status: number, body: unknown) =>
    send(res, status, 'application/json; charset=utf-8', JSON.stringify(body));
  /** An operation's Result: JSON, or framed when it holds byte columns (the bytes are written as they are). */
  const answer = (res: ServerResponse, result: unknown) => {
    const encoded = encodeAnswer(result);
    if (encoded.kind === 'json') {
      send(res, 200, 'application/json; charset=utf-8', encoded.text);
      return;
    }
    res.writeHead(200, { 'content-type': FRAMED_ANSWER_TYPE, 'content-length': String(encoded.length), ...NO_STORE });
    for (const chunk of encoded.chunks) res.write(chunk);
    res.end();
  };

  async function rpc(req: IncomingMessage, res: ServerResponse, name: string): Promise<void> {
    // The token proves the page came from this run; the Origin check stops other local pages riding on it.
    if (!tokenOk(req.headers[TOKEN_HEADER] as string | undefined) || (req.headers.origin !== undefined && req.headers.origin !== origin)) {
      json(res, 403, fail('FORBIDDEN', 'This request did not come from the Keydesk harness page.'));
      return;
    }
    if (!(OPERATION_NAMES as readonly string[]).includes(name)) {
      json(res, 404, fail('NOT_FOUND', 'No such operation.'));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_RPC_BYTES) {
        json(res, 413, fail('INVALID_INPUT', 'The request is too large.'));
        return;
      }
      chunks.push(chunk as Buffer);
    }
    let input: unknown;
    try {
      input = (JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { input?: unknown }).input;
    } catch {
      json(res, 400, fail('INVALID_INPUT', 'The request body is not JSON.'));
      return;
    }
    answer(res, await dispatch(handlers, name as OperationName, input));
  }

  function events(req: IncomingMessage, res: ServerResponse, url: URL): void {
    if (!tokenOk(url.searchParams.get('token'))) {
      json(res, 403, fail('FORBIDDEN', 'Missing or wrong harness token.'));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write(': connected\n\n');
    streams.add(res);
    const offs = EVENT_NAMES.map((e) => startup.on(e, (payload) => res.write(`event: ${e}\ndata: ${JSON.stringify(payload)}\n\n`)));
    req.on('close', () => {
      for (const off of offs) off();
      streams.delete(res);
    });
  }

  async function page(res: ServerResponse, pathname: string): Promise<void> {
    const file = resolveInside(rendererDir, pathname);
    if (!file) {
      send(res, 404, 'text/plain; charset=utf-8', 'Not found');
      return;
    }
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      send(res, 404, 'text/plain; charset=utf-8', 'Not found');
      return;
    }
    if (extname(file) === '.html') {
      const head = `<meta name="${TOKEN_META}" content="${token}" /><script src="${BRIDGE_PATH}"></script>`;
      body = Buffer.from(body.toString('utf8').replace('</head>', `${head}</head>`));
    }
    send(res, 200, contentType(file), body, { 'content-security-policy': CONTENT_SECURITY_POLICY });
  }

  const server = createServer((req, res) => {
    // Against DNS rebinding, as the sandbox does: only our own loopback names.
    if (!allowedHosts.has((req.headers.host ?? '').toLowerCase())) {
      json(res, 403, fail('FORBIDDEN', 'The Host header does not name this harness.'));
      return;
    }
    const url = new URL(req.url ?? '/', origin);
    const done = (p: Promise<void>) => {
      p.catch(() => {
        if (!res.headersSent) json(res, 500, fail('INTERNAL', 'The harness failed to answer.'));
      });
    };
    if (req.method === 'POST' && url.pathname.startsWith(RPC_PREFIX)) {
      done(rpc(req, res, url.pathname.slice(RPC_PREFIX.length)));
      return;
    }
    if (req.method !== 'GET') {
      json(res, 405, fail('METHOD_NOT_ALLOWED', 'Only GET, and POST to the bridge.'));
      return;
    }
    if (url.pathname === BRIDGE_PATH) {
      send(res, 200, 'text/javascript; charset=utf-8', script);
      return;
    }
    if (url.pathname === EVENTS_PATH) {
      events(req, res, url);
      return;
    }
    done(page(res, url.pathname));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  return {
    url: `${origin}/`,
    token,
    close: async () => {
      for (const s of streams) s.end();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
