// A raw HTTP client for tests: full control of method, path, Host and body, no retries, no redirects.
import { request as httpRequest } from 'node:http';

export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string | number>;
  body?: string | Buffer;
  /** Override the Host header (tests of the DNS-rebinding guard). */
  host?: string;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The parsed body; every sandbox answer must be JSON, so this throws for anything else. */
  json: Record<string, unknown>;
}

export function send(baseUrl: string, req: RawRequest): Promise<RawResponse> {
  const base = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.host !== undefined) headers.Host = req.host;
    const chunked = headers['Transfer-Encoding'] === 'chunked';
    if (req.body !== undefined && !chunked && headers['Content-Length'] === undefined)
      headers['Content-Length'] = Buffer.byteLength(req.body);
    const r = httpRequest(
      { host: base.hostname, port: base.port, method: req.method ?? 'GET', path: req.path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: Record<string, unknown> | undefined;
          try {
            parsed = JSON.parse(text) as Record<string, unknown>;
          } catch {
            parsed = undefined;
          }
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            get json(): Record<string, unknown> {
              if (parsed === undefined) throw new Error(`Not JSON (status ${res.statusCode}): ${text.slice(0, 200)}`);
              return parsed;
            },
          });
        });
        res.on('error', reject);
      },
    );
    r.on('error', reject);
    if (req.body !== undefined) r.write(req.body);
    r.end();
  });
}

/** A query string from a record; undefined values are left out. */
export function qs(params: Record<string, string | number | boolean | undefined>): string {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.append(k, String(v));
  return u.toString();
}
