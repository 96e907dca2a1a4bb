// Another profile's job, in Chromium through the harness: a bulk delete runs on a remote profile (a real sandbox
// process behind a proxy that holds its delete requests until the test lets them through), the window works on
// the local sandbox and is reloaded straight onto Jobs, never visiting All keys or Keys. Jobs says the other job is
// running, and once it ends the line goes, heard from main's progress events (review6 #5).
import { rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/shared/wire.ts';
import { openApp, type AppPage } from '../support/app-page.ts';
import { createService, startSandbox, type SandboxProcess } from '../support/sandbox-process.ts';
import { tempDir } from '../support/temp-dir.ts';

let app: AppPage;
let page: Page;
let remote: SandboxProcess;
let proxy: Server;
let proxyUrl = '';
let apiKey = '';
let dir = '';
/** Delete requests received and not yet let through to the sandbox. */
const held: (() => void)[] = [];
let holding = true;

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

beforeAll(async () => {
  dir = tempDir();
  const db = join(dir, 'held-shop.db');
  apiKey = createService(db, 'Held Shop', 'held-shop').apiKey;
  remote = await startSandbox({ db });
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (holding && req.url?.startsWith(ROUTES.deleteKey.path)) held.push(() => { forward(req, res, body); });
      else forward(req, res, body);
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${String((proxy.address() as AddressInfo).port)}`;
  app = await openApp();
  page = app.page;
});
afterAll(async () => {
  holding = false;
  for (const go of held.splice(0)) go();
  await app.close();
  proxy.closeAllConnections();
  proxy.close();
  await remote.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("another profile's job after a reload straight onto Jobs", () => {
  it('is said while it runs, and the line goes when it ends, without visiting All keys', async () => {
    // A delete on Held Shop, started there; then the window goes back to the local sandbox.
    await page.evaluate(
      async ({ url, key }) => {
        const added = await window.keydesk['profiles.add']({ name: 'Held Shop', baseUrl: url, apiKey: key, serviceIdentifier: 'held-shop' });
        if (!added.ok) throw new Error(added.message);
        const selected = await window.keydesk['profiles.select']({ id: added.data.id });
        if (!selected.ok) throw new Error(selected.message);
        const started = await window.keydesk['jobs.start']({ action: 'delete', target: { keyValues: ['NOT-A-KEY-HELD-1', 'NOT-A-KEY-HELD-2'] } });
        if (!started.ok) throw new Error(started.message);
        const back = await window.keydesk['profiles.select']({ id: 'sandbox' });
        if (!back.ok) throw new Error(back.message);
      },
      { url: proxyUrl, key: apiKey },
    );
    // Its first request is on the wire (held): the job surely runs.
    await expect.poll(() => held.length, { timeout: 60_000 }).toBeGreaterThan(0);

    await app.nav('Jobs');
    await page.reload();
    await page.locator('[data-app-state="ready"]').waitFor();
    await page.getByRole('heading', { level: 1, name: 'Jobs' }).waitFor();
    const elsewhere = page.getByText(/^A job is running for profile Held Shop: Delete, running: /);
    await elsewhere.waitFor();
    expect(await elsewhere.textContent()).toMatch(/Switch to that profile to follow or cancel it\.$/);

    holding = false;
    for (const go of held.splice(0)) go();
    await elsewhere.waitFor({ state: 'detached', timeout: 60_000 });
    // Still on Jobs, and this profile's list says nothing of that job.
    expect(await page.getByRole('heading', { level: 1, name: 'Jobs' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: /^Delete, started / }).count()).toBe(0);
  });
});
