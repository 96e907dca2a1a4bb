// A real sandbox process with one service, behind a loopback proxy that can hold the requests it receives until the
// test lets them through: a profile set to the proxy's URL has a job that surely runs (its first request is on the
// wire, held) for as long as the test needs, in whatever process or browser the job runs.
import { rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createService, startSandbox, type SandboxProcess } from './sandbox-process.ts';
import { tempDir } from './temp-dir.ts';

export interface HeldSandbox {
  /** The proxy's URL: a profile's baseUrl. */
  url: string;
  /** The apiKey of its one service. */
  apiKey: string;
  sandbox: SandboxProcess;
  /** Requests received while holding and not yet let through to the sandbox. */
  heldCount(): number;
  /** Holds every request received from now on that `holds` takes. */
  hold(): void;
  /** Stops holding, and lets every held request through. */
  release(): void;
  /** Lets every held request through, then closes the proxy and stops the sandbox; its database goes too. */
  close(): Promise<void>;
}

/**
 * Starts the sandbox on a new database in a temp dir (`file` in it) with one service, and the proxy in front of it.
 * `holding`: whether it holds from the start (else from `hold()`); `holds`: which requests it holds (all by default).
 */
export async function startHeldSandbox(options: {
  file: string;
  name: string;
  identifier: string;
  holding?: boolean;
  holds?: (req: IncomingMessage) => boolean;
}): Promise<HeldSandbox> {
  const dir = tempDir();
  const db = join(dir, options.file);
  const apiKey = createService(db, options.name, options.identifier).apiKey;
  const remote = await startSandbox({ db });
  const held: (() => void)[] = [];
  let holding = options.holding ?? false;
  const holds = options.holds ?? (() => true);

  /** Sends a request on to the sandbox and its answer back, as received. */
  function forward(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    const target = new URL(req.url ?? '/', remote.url);
    const out = request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    out.end(body);
  }
  const release = (): void => {
    holding = false;
    for (const go of held.splice(0)) go();
  };

  const proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (holding && holds(req))
        held.push(() => {
          forward(req, res, body);
        });
      else forward(req, res, body);
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${String((proxy.address() as AddressInfo).port)}`,
    apiKey,
    sandbox: remote,
    heldCount: () => held.length,
    hold: () => {
      holding = true;
    },
    release,
    close: async () => {
      release();
      proxy.closeAllConnections();
      proxy.close();
      await remote.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
