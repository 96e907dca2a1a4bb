// A job engine on a fake delete service, for the main process's job tests: the service decides each request's
// fate (answer, reset, 429, hold), a fake clock moves only when a test lets a sleep end.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { ServiceClient } from '../../src/main/client/service-client.ts';
import { JobService, type JobClock } from '../../src/main/jobs/job-service.ts';
import type { JobWrites } from '../../src/main/jobs/job-writes.ts';
import { LocalDb } from '../../src/main/store/local-db.ts';
import type { JobSummary } from '../../src/shared/domain.ts';
import { tempDir } from './temp-dir.ts';

/** A service that deletes keys, with a hook deciding each request's fate; it logs every key it was sent. */
export interface FakeService {
  url: string;
  received: string[];
  close(): Promise<void>;
}
type Fate = (keyValue: string, n: number, req: IncomingMessage, res: ServerResponse) => 'ok' | 'handled';

export async function fakeService(fate: Fate): Promise<FakeService> {
  const received: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      const { keyValue } = JSON.parse(body || '{}') as { keyValue?: string };
      received.push(keyValue ?? '');
      if (fate(keyValue ?? '', received.length, req, res) === 'handled') return;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, deletedKey: keyValue }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

/** Time that only moves when a test lets a sleep end. */
export function fakeClock(): JobClock & { sleeps: number[]; release(): void; pending(): number } {
  let t = 0;
  const waiting: { ms: number; resolve: () => void }[] = [];
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => t,
    sleep: (ms, signal) =>
      new Promise((resolve) => {
        sleeps.push(ms);
        const entry = { ms, resolve };
        waiting.push(entry);
        // An ended sleep is no longer waiting: release() moves time for the sleeps still pending.
        signal.addEventListener(
          'abort',
          () => {
            const i = waiting.indexOf(entry);
            if (i >= 0) waiting.splice(i, 1);
            resolve();
          },
          { once: true },
        );
      }),
    release() {
      const w = waiting.shift();
      if (!w) return;
      t += w.ms;
      w.resolve();
    },
    pending: () => waiting.length,
  };
}

export const until = async (check: () => boolean): Promise<void> => {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
};

export function service(url: string, db: LocalDb, clock?: JobClock, events: JobSummary[] = [], writes?: JobWrites): JobService {
  const client = new ServiceClient({ baseUrl: url, validationUrl: `${url}/v2_validation`, apiKey: 'test-key' }, { retryDelaysMs: [] });
  return new JobService({
    db,
    profile: (id) => (id === 'p1' ? { id, name: 'Fake', kind: 'remote' } : null),
    clientFor: () => Promise.resolve(client),
    emit: (s) => events.push(s),
    ...(clock ? { clock } : {}),
    ...(writes ? { writes } : {}),
  });
}

/**
 * A fresh keydesk.db and a job engine on `fake` for this test: both close when it finishes (pass or fail), its
 * jobs settled first when `settle` is set.
 */
export function rig(
  fake: FakeService,
  { clock, events, settle = false }: { clock?: JobClock; events?: JobSummary[]; settle?: boolean } = {},
) {
  const db = new LocalDb(join(tempDir('keydesk-jobs-'), 'keydesk.db'));
  const jobs = service(fake.url, db, clock, events);
  onTestFinished(async () => {
    if (settle) for (const job of jobs.list('p1')) await jobs.settled(job.id);
    db.close();
    await fake.close();
  });
  return { db, jobs };
}

/** The fields of a key the ledger records that these tests leave plain; each test adds its value and status. */
export const LEDGER_KEY = {
  id: '',
  note: '',
  isPremium: false,
  expire: null,
  expiresByDaysKey: false,
  daysKey: null,
  expiresAt: null,
  hwid: null,
  createdAt: null,
  activatedAt: null,
  lastResetAt: null,
  serviceId: '',
};

export const values = (n: number, prefix = 'K'): string[] => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(4, '0')}`);
