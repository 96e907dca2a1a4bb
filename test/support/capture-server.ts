// A real HTTP server on 127.0.0.1 that records every request it receives (method, URL, headers, body) and answers
// with one fixed JSON failure: for proving what a client did or did not send somewhere.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CapturedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface CaptureServer {
  url: string;
  requests: CapturedRequest[];
  /** Everything received, as one string: for asserting a secret appears nowhere in it. */
  everything(): string;
  close(): Promise<void>;
}

export async function startCaptureServer(
  answer = { status: 401, body: { success: false, message: 'Invalid API key.', code: 'API_KEY_INVALID' } },
): Promise<CaptureServer> {
  const requests: CapturedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    everything: () => JSON.stringify(requests),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
