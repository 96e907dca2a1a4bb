// A bulk delete, through the real core and job engine, whose service dies mid-job: a loopback pass-through in front
// of a real sandbox process counts every request that reaches it; at the KILL_AT-th delete the sandbox is killed
// (SIGKILL), so every request after that reaches the pass-through and gets no answer (its connection to the sandbox
// is refused and it closes the client's: the client cannot tell that from a request that went and was lost).
// Proven by counts and item states, never by how long anything took:
// - the job stops feeding the dead service: the requests that reach the pass-through after the kill are at most those
//   already on the wire plus UNREACHABLE_AFTER (the run of failures and the probe that confirms it);
// - it ends interrupted, in words that say the service stopped answering and the keys not sent were not sent;
// - the keys not sent stay pending (never sent), the ones that failed keep their states;
// - a resume against the sandbox started again finishes the pending ones, and sends none of the others again.
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/main/client/service-client.ts';
import { UNREACHABLE_AFTER } from '../../src/main/jobs/concurrency.ts';
import { batchValues } from '../../src/shared/key-batch.ts';
import { ROUTES } from '../../src/shared/wire.ts';
import { startTestCore, type TestCore } from '../support/core.ts';
import { createService, startSandbox, type SandboxProcess } from '../support/sandbox-process.ts';
import { tempDir } from '../support/temp-dir.ts';

const CEILING = 4;
const KEYS = 120;
/** The delete whose arrival kills the sandbox (it and every one after it reach a dead service). */
const KILL_AT = 15;

let t: TestCore;
let db = '';
let apiKey = '';
let sandbox: SandboxProcess;
let proxy: Server;
/** Deletes as they reached the pass-through, in order: the key each named. */
const deletes: string[] = [];
/** Set once the kill is asked for: every request after it waits for the sandbox to be gone, then goes to it. */
let killed: Promise<unknown> | null = null;

function keyOf(body: Buffer): string {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { keyValue?: unknown };
    return typeof parsed.keyValue === 'string' ? parsed.keyValue : '';
  } catch {
    return '';
  }
}

/** Passes a request to the sandbox and its answer back; with no sandbox to reach, closes the client's connection. */
function forward(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
  const target = new URL(req.url ?? '/', sandbox.url);
  const out = request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  out.on('error', () => res.destroy());
  out.end(body);
}

beforeAll(async () => {
  db = join(tempDir('keydesk-dead-'), 'sandbox.db');
  apiKey = createService(db, 'Dead Shop', 'dead-shop').apiKey;
  sandbox = await startSandbox({ db });
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (new URL(req.url ?? '/', sandbox.url).pathname === ROUTES.deleteKey.path) {
        deletes.push(keyOf(body));
        if (deletes.length === KILL_AT && killed === null) killed = sandbox.stop('SIGKILL');
      }
      if (killed === null) forward(req, res, body);
      else void killed.then(() => forward(req, res, body));
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  t = await startTestCore({ clientOptions: { retryDelaysMs: [] } });
  const profile = await t.must('profiles.add', { name: 'Dead Shop', baseUrl: base, apiKey, serviceIdentifier: 'dead-shop' });
  await t.must('profiles.select', { id: profile.id });
  await t.core.jobs.setCeiling(profile.id, CEILING);
});
afterAll(async () => {
  await t.close();
  proxy.closeAllConnections();
  await new Promise((r) => proxy.close(r));
  await sandbox.stop();
});

describe('a bulk delete whose service dies mid-job, through the real core', () => {
  it('stops after failed connections and a failed probe, leaving unsent keys pending', async () => {
    const keys = batchValues(
      (await t.must('keys.generate', { expire: '2099-01-31', count: KEYS, isPremium: false, note: 'dead batch' })).generated,
    );
    await t.core.writer.idle();

    const job = await t.must('jobs.start', { action: 'delete', target: { keyValues: keys } });
    await t.core.jobs.settled(job.id);
    expect(killed).not.toBeNull();

    // Sent after the kill: those already on the wire (at most the ceiling) and the run that shows the service gone.
    const afterKill = deletes.length - (KILL_AT - 1);
    expect(afterKill).toBeGreaterThan(0);
    expect(afterKill).toBeLessThanOrEqual(CEILING + UNREACHABLE_AFTER);

    const end = await t.must('jobs.get', { jobId: job.id });
    expect(end.state).toBe('interrupted');
    expect(end.reason).toContain('Dead Shop stopped answering');
    expect(end.reason).toContain(`The ${end.counts.pending.toLocaleString('en-US')} keys left were not sent (still pending)`);
    expect(end.reason).toContain('Resume');
    expect(end.counts.sent).toBe(0);
    // Every key that reached the pass-through was sent; every other one is pending, never sent.
    expect(end.counts.pending).toBe(KEYS - deletes.length);
    expect(end.counts.done).toBeLessThanOrEqual(KILL_AT - 1);
    const { items } = await t.must('jobs.items', { jobId: job.id, offset: 0, limit: 200 });
    const pending = items
      .filter((i) => i.state === 'pending')
      .map((i) => i.target)
      .sort();
    const failedOrUnknown = items
      .filter((i) => i.state === 'unknown' || i.state === 'failed')
      .map((i) => i.target)
      .sort();
    expect(pending).toEqual(keys.filter((k) => !deletes.includes(k)).sort());
    // Those sent into the dead service (and any on the sandbox's wire as it died) keep their states: it may or may
    // not have acted (the client cannot tell); every key sent is done or one of them.
    for (const value of deletes.slice(KILL_AT - 1)) expect(failedOrUnknown).toContain(value);
    expect(end.counts.done + failedOrUnknown.length).toBe(deletes.length);

    // The service is back (the same database, a new process): a resume sends the pending keys, and only them.
    sandbox = await startSandbox({ db });
    killed = null;
    const sentBefore = deletes.length;
    await t.must('jobs.resume', { jobId: job.id });
    await t.core.jobs.settled(job.id);
    const after = await t.must('jobs.get', { jobId: job.id });
    expect(after).toMatchObject({ state: 'finished', counts: { pending: 0, sent: 0 } });
    expect(after.counts.done).toBe(end.counts.done + pending.length);
    expect(after.counts.unknown + after.counts.failed).toBe(failedOrUnknown.length);
    expect(deletes.slice(sentBefore).sort()).toEqual(pending);
    // On the sandbox itself: the keys the resume sent are gone; those sent into the dead service never reached it
    // and were not sent again, so they are still there (the job calls them unknown: it could not tell).
    const direct = new ServiceClient(
      { baseUrl: sandbox.url, validationUrl: `${sandbox.url}/v2_validation`, apiKey },
      { retryDelaysMs: [] },
    );
    for (const value of pending.slice(0, 5)) expect((await direct.fetchGenerated(value)).ok, value).toBe(false);
    for (const value of deletes.slice(KILL_AT - 1, sentBefore)) {
      const r = await direct.fetchGenerated(value);
      expect(r.ok && r.data.keys.some((k) => k.value === value), value).toBe(true);
    }
  });
});
