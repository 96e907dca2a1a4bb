// Claim-ahead with a send log (send-log.ts) across runs, an end the disk refuses, and a log that cannot be replaced:
// what the items say, on screen and after a crash, matches what went to the service.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect, it, vi } from 'vitest';
import { ServiceClient } from '../../src/main/client/service-client.ts';
import { JobService } from '../../src/main/jobs/job-service.ts';
import { InlineJobWrites, type ClaimedItem, type JobRunEnd, type JobWrites } from '../../src/main/jobs/job-writes.ts';
import type { JobCounts } from '../../src/main/store/writer-protocol.ts';
import { LocalDb, type SettleBatch } from '../../src/main/store/local-db.ts';
import { tempDir } from '../support/temp-dir.ts';

/** A delete service: logs each key it receives; answers at once unless `hold` is set (then never, until closed). */
async function service(): Promise<{
  url: string;
  received: string[];
  hold: boolean;
  held: ServerResponse[];
  onRequest: () => void;
  close(): Promise<void>;
}> {
  const s = {
    url: '',
    received: [] as string[],
    hold: false,
    held: [] as ServerResponse[],
    onRequest: (): void => undefined,
    close: (): Promise<void> => Promise.resolve(),
  };
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      const { keyValue } = JSON.parse(body || '{}') as { keyValue?: string };
      s.received.push(keyValue ?? '');
      s.onRequest();
      if (s.hold) {
        s.held.push(res);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, deletedKey: keyValue }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  s.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  s.close = () => {
    server.closeAllConnections();
    return new Promise((r) => server.close(() => r()));
  };
  return s;
}

/** Inline writes that can be made to refuse, as a full disk would. */
class Switchable extends InlineJobWrites {
  mode: 'ok' | 'broken' = 'ok';
  private gate(): void {
    if (this.mode === 'broken') throw new Error('database or disk is full');
  }
  override async claim(jobId: string, max: number, retry?: boolean): Promise<ClaimedItem[]> {
    this.gate();
    return super.claim(jobId, max, retry);
  }
  override async settle(batch: SettleBatch, at?: string): Promise<void> {
    this.gate();
    return super.settle(batch, at);
  }
  override async end(end: JobRunEnd): Promise<JobCounts> {
    this.gate();
    return super.end(end);
  }
}

const keys = (n: number): string[] => Array.from({ length: n }, (_, i) => `K${String(i).padStart(4, '0')}`);

function jobService(db: LocalDb, url: string, writes: JobWrites): JobService {
  const client = new ServiceClient({ baseUrl: url, validationUrl: `${url}/v2_validation`, apiKey: 'test-key' }, { retryDelaysMs: [] });
  return new JobService({
    db,
    profile: (id) => ({ id, name: 'Fake', kind: 'remote' }),
    clientFor: () => Promise.resolve(client),
    emit: () => undefined,
    writes,
  });
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2_000 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

it('keeps sent keys sent through a crash after an unrecorded end', { timeout: 30_000 }, async () => {
  const fake = await service();
  const file = join(tempDir('keydesk-send-log-'), 'keydesk.db');
  const db = new LocalDb(file);
  const writes = new Switchable(db);
  const jobs = jobService(db, fake.url, writes);
  const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  // The disk fills as the first requests go: none of the job's claims, answers or ends after that is recorded.
  fake.onRequest = () => {
    if (writes.mode === 'ok') writes.mode = 'broken';
  };
  let next: { db: LocalDb; jobs: JobService } | null = null;
  try {
    const started = await jobs.start('p1', { action: 'delete', target: { keyValues: keys(200) } });
    if (!started.ok) throw new Error(started.message);
    const id = started.data.id;
    await until(() => jobs.get('p1', id)?.state === 'interrupted', 'the first run to stop');
    await jobs.settled(id);
    const firstRun = [...fake.received];
    expect(firstRun.length).toBeGreaterThan(0);
    // Space is freed; the user resumes. The service now hangs, so the second run has requests on the wire.
    fake.onRequest = () => undefined;
    writes.mode = 'ok';
    fake.hold = true;
    const resumed = await jobs.resume('p1', id, false);
    expect(resumed.ok ? 'ok' : resumed.message).toBe('ok');
    await until(() => fake.held.length === 4, "the second run's requests");
    // Keydesk is killed here; the next start reads the send logs.
    const db2 = new LocalDb(file);
    next = { db: db2, jobs: jobService(db2, fake.url, new InlineJobWrites(db2)) };
    const pendingAgain = next.db.jobItems(id, 'pending', 0, 1_000).items.map((i) => i.target);
    // A key the first run sent may have been deleted: it must never be pending (sent again by a plain resume).
    expect(pendingAgain.filter((k) => firstRun.includes(k))).toEqual([]);
  } finally {
    fake.onRequest = () => undefined;
    writes.mode = 'ok';
    logged.mockRestore();
    await fake.close();
    await jobs.close();
    if (next) {
      await next.jobs.close();
      next.db.close();
    }
    db.close();
  }
});

it('ignores an older send log when a run cannot start its own', { timeout: 30_000 }, async () => {
  const fake = await service();
  const dir = tempDir('keydesk-send-log-');
  const file = join(dir, 'keydesk.db');
  const db = new LocalDb(file);
  const jobs = jobService(db, fake.url, new InlineJobWrites(db));
  const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const stale = join(dir, 'job-sends');
  let locked: string | null = null;
  let next: { db: LocalDb; jobs: JobService } | null = null;
  try {
    // Run 1: four keys go, then a cancel cuts them off (unknown); it ends cancelled with 196 pending.
    fake.hold = true;
    const started = await jobs.start('p1', { action: 'delete', target: { keyValues: keys(200) } });
    if (!started.ok) throw new Error(started.message);
    const id = started.data.id;
    await until(() => fake.held.length === 4, 'the first requests');
    jobs.cancel('p1', id);
    fake.held.splice(0);
    await jobs.settled(id);
    expect(db.jobCounts(id)).toMatchObject({ unknown: 4, pending: 196, sent: 0 });
    // Its log could not be removed, and cannot be opened for writing either (on Windows: a scanner holding it; here:
    // an immutable file). The resume runs without a log, as designed.
    mkdirSync(stale, { recursive: true });
    locked = join(stale, `${id}.sent`);
    writeFileSync(locked, '1\n2\n3\n4\n');
    execFileSync('chattr', ['+i', locked]);
    const resumed = await jobs.resume('p1', id, false);
    expect(resumed.ok).toBe(true);
    await until(() => fake.held.length === 4, "the resumed run's requests");
    const sentByRun2 = fake.received.slice(4);
    // Keydesk is killed here; the next start reads the send logs.
    const db2 = new LocalDb(file);
    next = { db: db2, jobs: jobService(db2, fake.url, new InlineJobWrites(db2)) };
    const pendingAgain = next.db.jobItems(id, 'pending', 0, 1_000).items.map((i) => i.target);
    expect(pendingAgain.filter((k) => sentByRun2.includes(k))).toEqual([]);
  } finally {
    if (locked) execFileSync('chattr', ['-i', locked]);
    logged.mockRestore();
    await fake.close();
    await jobs.close();
    if (next) {
      await next.jobs.close();
      next.db.close();
    }
    db.close();
  }
});
