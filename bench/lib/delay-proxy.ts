// An HTTP proxy on 127.0.0.1 that holds each answer for a fixed delay before passing it on: a remote service's
// round trip, made of a local one. The Host header is the target's, as the sandbox accepts no other.
import { Agent, createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';

export interface DelayProxy {
  /** The proxy's origin, e.g. http://127.0.0.1:40123. */
  url: string;
  close(): Promise<void>;
}

/** Headers that describe one hop's connection, not the answer. */
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/** A proxy to `target` (an http://127.0.0.1:port origin) adding `delayMs` to each answer. */
export async function startDelayProxy(target: string, delayMs: number): Promise<DelayProxy> {
  const to = new URL(target);
  const agent = new Agent({ keepAlive: true });
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const headers: IncomingHttpHeaders = { ...req.headers, host: to.host };
    const out = request(to, { method: req.method, path: req.url, headers, agent }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        const body = Buffer.concat(chunks);
        const kept = Object.entries(answer.headers).filter(([name]) => !HOP.has(name));
        setTimeout(
          () => res.writeHead(answer.statusCode ?? 502, { ...Object.fromEntries(kept), 'content-length': body.length }).end(body),
          delayMs,
        );
      });
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('delay proxy: no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
