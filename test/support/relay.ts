// A loopback server in front of a real sandbox that passes each request on as it came, and lets the test decide per
// request when: now, later (it keeps `pass`), or now with the answer dropped (the sandbox applies it, the client hears
// nothing): acts whose answers a network lost, as the client and the job engine meet them.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RelayedRequest {
  /** The request's URL at the sandbox. */
  url: URL;
  body: string;
}

export interface Relay {
  /** The relay's URL: a profile's baseUrl. */
  url: string;
  /** Resolves when every request passed on so far has been answered by the sandbox. */
  settled(): Promise<void>;
  /** Closes the relay; requests passed on are waited for, held ones are dropped. */
  close(): Promise<void>;
}

/**
 * Starts a relay to `target`. `route` is told of each request with its `pass`: `pass()` sends it on and its answer
 * back, `pass(false)` sends it on and drops the answer; keeping `pass` holds the request until it is called.
 */
export async function startRelay(target: string, route: (req: RelayedRequest, pass: (answer?: boolean) => void) => void): Promise<Relay> {
  const forwards: Promise<void>[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', target);
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length')) as Record<
        string,
        string
      >;
      const pass = (answer = true): void => {
        forwards.push(
          fetch(url, { method: req.method ?? 'GET', headers, body: req.method === 'GET' ? null : body }).then(async (up) => {
            const text = await up.text();
            // A request the client gave up on is still applied; its answer goes nowhere.
            if (answer && !res.destroyed) res.writeHead(up.status, { 'content-type': 'application/json' }).end(text);
          }),
        );
      };
      route({ url, body }, pass);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`,
    settled: async () => {
      await Promise.all(forwards);
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await Promise.allSettled(forwards);
    },
  };
}
