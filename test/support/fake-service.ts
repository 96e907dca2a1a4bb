// A fake of the remote service for client-tolerance tests: a real node:http server on 127.0.0.1 that answers
// each route with exactly the status, headers and body a test scripts, the shapes the real service and
// third-party clients have met (wire.md "Client tolerance"). It records every request it receives, so a test
// can check what was sent and how often. An unscripted route answers 599, which no tolerance rule accepts.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer. `body` as an object is sent as JSON; as a string, byte for byte (HTML, junk). */
export type Reply =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  /** Close the socket without answering (a reset). */
  | { reset: true }
  /** Never answer (a timeout on the client side). */
  | { hang: true };

export interface Received {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  /** The parsed JSON body, or the raw text when it is not JSON; undefined when empty. */
  body: unknown;
}

type Script = Reply | ((req: Received) => Reply);

export class FakeService {
  readonly requests: Received[] = [];
  private readonly routes = new Map<string, Script[]>();
  private server: Server | null = null;
  url = '';

  /** Scripts `METHOD path`. Several replies are used in turn, the last one repeats. */
  on(method: 'GET' | 'POST', path: string, ...replies: Script[]): this {
    this.routes.set(`${method} ${path}`, replies);
    return this;
  }

  /** Forgets every script and recorded request. */
  reset(): void {
    this.routes.clear();
    this.requests.length = 0;
  }

  hits(method: string, path: string): number {
    return this.requests.filter((r) => r.method === method && r.path === path).length;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.answer(req, Buffer.concat(chunks).toString('utf8'), res);
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  private answer(req: IncomingMessage, text: string, res: ServerResponse): void {
    const u = new URL(req.url ?? '/', 'http://fake');
    let body: unknown;
    if (text !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    const received: Received = {
      method: req.method ?? '',
      path: u.pathname,
      query: Object.fromEntries(u.searchParams),
      headers: req.headers,
      body,
    };
    this.requests.push(received);
    const replies = this.routes.get(`${received.method} ${received.path}`);
    const nth = this.requests.filter((r) => r.method === received.method && r.path === received.path).length - 1;
    const script = replies?.[Math.min(nth, replies.length - 1)];
    const reply: Reply =
      script === undefined
        ? { status: 599, body: { message: `The fake service has no script for ${received.method} ${received.path}.` } }
        : typeof script === 'function'
          ? script(received)
          : script;
    if ('reset' in reply) {
      req.socket.destroy();
      return;
    }
    if ('hang' in reply) return;
    const raw = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    const type = typeof reply.body === 'string' ? {} : { 'content-type': 'application/json; charset=utf-8' };
    res.writeHead(reply.status, { ...type, ...reply.headers });
    res.end(raw);
  }
}

/** The real dialect's bodies (wire.md "Real dialect"), for scripting a faithful remote service. */
export const real = {
  key: (
    over: Partial<
      Record<'id' | 'value' | 'note' | 'hwid' | 'expiresAt' | 'lastResetAt' | 'serviceId', string | null> & { isPremium: boolean }
    > = {},
  ) => ({
    id: 'k_1',
    value: 'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE',
    note: 'real note',
    hwid: 'HW-1',
    expiresAt: '2027-01-31T23:59:59.999Z',
    isPremium: false,
    lastResetAt: null,
    serviceId: 'svc_1',
    ...over,
  }),
  generatedKey: (value: string, note = '') => ({
    id: `k_${value.slice(0, 5)}`,
    value,
    note,
    expiresAt: '2027-01-31T23:59:59.999Z',
    isPremium: false,
  }),
  keyless: (hwid: string) => ({ id: 'kl_1', hwid, expiresAt: null, isPremium: true }),
};
