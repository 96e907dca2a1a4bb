// A bulk extend, through the real core and job engine, cancelled while its requests drip: a loopback server in front
// of a real sandbox process passes each extend on (the service applies it), then sends its answer's headers and one
// byte every 200 ms, never the answer. The requests' deadline is set far off, so only the cancel can end them:
// the job ends, says how many requests it cut off, leaves exactly their items unknown, and the profile can go.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cutOffWords } from '../../src/shared/job-words.ts';
import { batchValues } from '../../src/shared/key-batch.ts';
import { ROUTES } from '../../src/shared/wire.ts';
import { startTestCore, type TestCore } from '../support/core.ts';
import { createService, startSandbox, type SandboxProcess } from '../support/sandbox-process.ts';
import { tempDir } from '../support/temp-dir.ts';

const KEYS = 12;

/** An extend as the server saw it: its key, bytes dripped, and whether the client closed it before its end. */
interface Arrival {
  key: string;
  bytes: number;
  cutByClient: boolean;
}

let t: TestCore;
let sandbox: SandboxProcess;
let proxy: Server;
let profileId = '';
const arrivals: Arrival[] = [];

beforeAll(async () => {
  const db = join(tempDir('keydesk-cancel-drip-'), 'sandbox.db');
  const service = createService(db, 'Drip Shop', 'drip-shop');
  sandbox = await startSandbox({ db });
  proxy = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', sandbox.url);
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length')) as Record<
        string,
        string
      >;
      const passed = fetch(url, { method: req.method ?? 'GET', headers, body: req.method === 'GET' ? null : body });
      if (url.pathname !== ROUTES.expandExpiration.path) {
        void passed.then(async (up) => res.writeHead(up.status, { 'content-type': 'application/json' }).end(await up.text()));
        return;
      }
      const arrival: Arrival = { key: url.searchParams.get('keyValue') ?? '', bytes: 0, cutByClient: false };
      arrivals.push(arrival);
      let drip: NodeJS.Timeout | undefined;
      res.on('close', () => {
        clearInterval(drip);
        arrival.cutByClient = !res.writableEnded;
      });
      // Applied on the service; the answer then drips, a space at a time, and never ends.
      void passed.then(() => {
        if (res.destroyed) return;
        res.writeHead(200, { 'content-type': 'application/json' });
        drip = setInterval(() => res.write(' ', () => arrival.bytes++), 200);
      });
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  t = await startTestCore({ clientOptions: { retryDelaysMs: [], deadlinesMs: { change: 600_000 } } });
  const profile = await t.must('profiles.add', {
    name: 'Drip Shop',
    baseUrl: base,
    apiKey: service.apiKey,
    serviceIdentifier: 'drip-shop',
  });
  profileId = profile.id;
  await t.must('profiles.select', { id: profile.id });
  await t.core.jobs.setCeiling(profile.id, 4);
});
afterAll(async () => {
  await t.close();
  proxy.closeAllConnections();
  await new Promise((r) => proxy.close(r));
  await sandbox.stop();
});

describe('cancelling a bulk job whose requests drip', () => {
  it('ends the job, counting the cut-off requests, whose items are unknown', async () => {
    const keys = batchValues(
      (await t.must('keys.generate', { expire: '2099-01-31', count: KEYS, isPremium: false, note: 'drip' })).generated,
    );
    await t.core.writer.idle();
    const job = await t.must('jobs.start', { action: 'extend', target: { keyValues: keys }, days: 5 });
    // Every request on the wire has reached the server and is dripping.
    const onWire = (): number => t.core.jobs.get(profileId, job.id)?.counts.sent ?? -1;
    await expect.poll(() => onWire() > 0 && onWire() === arrivals.filter((a) => a.bytes >= 1).length).toBe(true);
    expect(await t.call('profiles.remove', { id: profileId })).toMatchObject({ ok: false, code: 'CONFLICT' });

    await t.must('jobs.cancel', { jobId: job.id });
    // Far inside the requests' own deadline (10 minutes): only the cancel can have ended them.
    const ended = await Promise.race([t.core.jobs.settled(job.id).then(() => true), new Promise((r) => setTimeout(r, 30_000, false))]);
    expect(ended).toBe(true);

    const cut = arrivals.length;
    expect(cut).toBeGreaterThanOrEqual(1);
    const end = await t.must('jobs.get', { jobId: job.id });
    expect(end).toMatchObject({ state: 'cancelled', counts: { done: 0, sent: 0, failed: 0, unknown: cut, pending: KEYS - cut } });
    expect(end.reason).toBe(cutOffWords(cut));
    // Cut off on the wire, not left to drip on.
    await expect.poll(() => arrivals.every((a) => a.cutByClient)).toBe(true);
    const { items } = await t.must('jobs.items', { jobId: job.id, offset: 0, limit: 100 });
    const unknown = items.filter((i) => i.state === 'unknown').map((i) => i.target);
    expect(unknown.sort()).toEqual(arrivals.map((a) => a.key).sort());

    expect(await t.call('profiles.remove', { id: profileId })).toEqual({ ok: true, data: null });
  });
});
