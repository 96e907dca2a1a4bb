// Removing a profile while main runs a job for it: the job sends with that profile's apiKey, so removing the
// profile would leave it sending where nobody can follow or cancel it. Main refuses, in words, until the job ends.
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_PROFILE_ID } from '../../src/main/core.ts';
import { startTestCore, type TestCore } from '../support/core.ts';
import { startRemoteSandbox, type RemoteSandbox } from '../support/remote-sandbox.ts';

/** A proxy in front of the remote sandbox that, once told to, holds every request until released. */
function holdingProxy(target: string) {
  let holding = false;
  const held: (() => void)[] = [];
  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const out = request(
      new URL(req.url ?? '/', target),
      { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  };
  const server = createServer((req, res) => {
    if (holding)
      held.push(() => {
        forward(req, res);
      });
    else forward(req, res);
  });
  return {
    listen: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => {
          resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
        }),
      ),
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      for (const go of held.splice(0)) go();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

let t: TestCore;
let remote: RemoteSandbox;
let proxy: ReturnType<typeof holdingProxy>;
beforeAll(async () => {
  t = await startTestCore();
  remote = await startRemoteSandbox({ name: 'Two', identifier: 'two' });
  proxy = holdingProxy(remote.url);
});
afterAll(async () => {
  proxy.release();
  await t.close();
  await proxy.close();
  await remote.close();
});

describe('removing a profile while a job runs for it', () => {
  it('is refused with the job in words until the job has ended', async () => {
    const url = await proxy.listen();
    const two = await t.must('profiles.add', { name: 'Two', baseUrl: url, apiKey: remote.apiKey });
    await t.must('profiles.select', { id: two.id });
    await t.must('keys.generate', { expire: '2099-01-01', count: 3, isPremium: false });
    proxy.hold();
    const job = await t.must('jobs.start', {
      action: 'extend',
      days: 2,
      target: { keyValues: ['AAAAA-BBBBB-CCCCC-DDDDD-EEEEE', 'AAAAA-BBBBB-CCCCC-DDDDD-FFFFF'] },
    });
    expect(job.state).toBe('running');

    const refused = await t.call('profiles.remove', { id: two.id });
    expect(refused).toEqual({
      ok: false,
      code: 'CONFLICT',
      message:
        'A job is running for this profile: Extend by 2 days, 0 of 2 done. Cancel it first, or wait for it to end. The profile was kept.',
    });
    // Another profile selected: the job still runs for Two, and main still refuses.
    await t.must('profiles.select', { id: SANDBOX_PROFILE_ID });
    expect(await t.call('profiles.remove', { id: two.id })).toMatchObject({ ok: false, code: 'CONFLICT' });
    expect(t.core.profiles.get(two.id)?.name).toBe('Two');
    expect(await t.core.readKey(two)).toEqual({ ok: true, data: remote.apiKey });

    proxy.release();
    await t.core.jobs.settled(job.id);
    // What its Remove dialog says stops being shown: its ledger's keys and its jobs, as Keydesk keeps them.
    await expect
      .poll(async () => (await t.must('profiles.list')).profiles.find((p) => p.id === two.id)?.local, { timeout: 60_000 })
      .toEqual({ ledgerKeys: 3, jobs: 1 });
    expect(await t.call('profiles.remove', { id: two.id })).toEqual({ ok: true, data: null });
    expect(t.core.profiles.get(two.id)).toBeNull();
  });
});
