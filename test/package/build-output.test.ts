// What `npm run build` produced, checked as shipped: the sandboxed preload is one small CommonJS file that
// requires nothing but electron, and index.html carries the one CSP (the header's, less frame-ancestors).
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MessageChannel, Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, META_CONTENT_SECURITY_POLICY } from '../../src/main/security.ts';
import type {
  CommandAnswer,
  JobCommand,
  LedgerStopped,
  LedgerWorkerData,
  LedgerWrite,
  LedgerWriteAck,
} from '../../src/main/store/writer-protocol.ts';
import type { CheckAnswer } from '../../src/main/store/integrity.ts';
import type { ReaderAnswer, ReaderAsk, ReaderWorkerData } from '../../src/main/store/reader.ts';
import type { SandboxFromMain, SandboxToMain, SandboxWorkerData } from '../../src/main/sandbox-thread.ts';
import { LocalDb } from '../../src/main/store/local-db.ts';
import { ROOT } from '../support/sandbox-process.ts';
import { tempDir } from '../support/temp-dir.ts';

const built = (path: string): string => readFileSync(join(ROOT, 'out', path), 'utf8');

describe('the build output', () => {
  it('has a preload that requires only electron and stays small', () => {
    const preload = built('preload/index.cjs');
    const required = [...preload.matchAll(/\brequire\(\s*(["'`])([^"'`]*)\1\s*\)/g)].map((m) => m[2]);
    expect(required).toEqual(['electron']);
    expect(preload).not.toMatch(/\bimport\s*\(|^\s*import\s/m);
    // The names and the builder only: zod (tens of kB) would mean the schemas leaked in.
    expect(preload.length).toBeLessThan(16 * 1024);
    expect(preload).not.toContain('ZodError');
  });

  it('writes the CSP into index.html once, less frame-ancestors', () => {
    const html = built('renderer/index.html');
    const metas = [...html.matchAll(/<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/gi)].map((m) => m[1]);
    expect(metas).toEqual([META_CONTENT_SECURITY_POLICY]);
    const directives = (policy: string) => policy.split(';').map((d) => d.trim());
    expect(directives(CONTENT_SECURITY_POLICY).filter((d) => !d.startsWith('frame-ancestors'))).toEqual(
      directives(META_CONTENT_SECURITY_POLICY),
    );
    expect(directives(CONTENT_SECURITY_POLICY)).toContain("frame-ancestors 'none'");
    expect(html.indexOf('<meta charset')).toBeLessThan(html.indexOf('Content-Security-Policy'));
  });

  it('builds the writer as a worker entry that writes the ledger', async () => {
    // index.js looks for it by name beside itself (src/main/store/writer.ts); node:sqlite stays external.
    expect(built('main/index.js')).toContain('writer.worker.');
    const file = join(tempDir('keydesk-built-writer-'), 'keydesk.db');
    const db = new LocalDb(file);
    const { port1, port2 } = new MessageChannel();
    const workerData: LedgerWorkerData = { file, cacheKiB: 1024, urgent: port2 };
    const worker = new Worker(join(ROOT, 'out/main/writer.worker.js'), { workerData, transferList: [port2] });
    try {
      const key = {
        id: '',
        value: 'KD-BUILT',
        note: 'from the build',
        status: 'generated',
        isPremium: false,
        expire: '2099-01-01',
        expiresByDaysKey: false,
        daysKey: null,
        expiresAt: null,
        hwid: null,
        createdAt: '2026-11-23T00:00:00.000Z',
        activatedAt: null,
        lastResetAt: null,
        serviceId: 's',
      };
      const write: LedgerWrite = { seq: 1, kind: 'keys', profileId: 'p', seenAt: '2026-11-23T00:00:00.000Z', keys: JSON.stringify([key]) };
      worker.postMessage(write);
      const [ack] = (await once(worker, 'message')) as [LedgerWriteAck];
      // Then how many rows wait for their text entries: the thread indexes them once idle.
      expect(await once(worker, 'message')).toEqual([{ kind: 'indexing', left: 1 }]);
      // The thread reports its heap with each answer (main lets a thread with a large heap go when idle).
      expect(ack).toEqual({ seq: 1, ok: true, heapBytes: expect.any(Number) as number });
      expect(ack.heapBytes).toBeGreaterThan(0);
      expect(db.queryLedger('p', {}, { field: 'value', dir: 'asc' }, 0, 5).rows).toEqual([
        expect.objectContaining({ value: 'KD-BUILT', note: 'from the build', status: 'generated' }),
      ]);
      // Told to stop, the bundled thread collects its heap (node:v8, node:vm in the bundle), says so and ends.
      const exited = once(worker, 'exit');
      worker.postMessage({ kind: 'stop' } satisfies LedgerWrite);
      const [stopped] = (await once(worker, 'message')) as [LedgerStopped];
      expect(stopped).toEqual({ kind: 'stopped', collected: true });
      expect(await exited).toEqual([0]);
    } finally {
      port1.close();
      await worker.terminate();
      db.close();
    }
  });

  it('builds the writer as a worker entry that claims and writes answers', async () => {
    const file = join(tempDir('keydesk-built-job-writer-'), 'keydesk.db');
    const db = new LocalDb(file);
    db.createJob(
      { id: 'j', profileId: 'p', action: 'delete', params: '{}', createdAt: '2026-11-23T00:00:00.000Z' },
      { keyValues: ['KD-A', 'KD-B'] },
    );
    const { port1: claims, port2 } = new MessageChannel();
    const workerData: LedgerWorkerData = { file, cacheKiB: 1024, urgent: port2 };
    const worker = new Worker(join(ROOT, 'out/main/writer.worker.js'), { workerData, transferList: [port2] });
    try {
      claims.postMessage({ command: 1, kind: 'claim', jobId: 'j', max: 5, retry: false } satisfies JobCommand);
      const [claimed] = (await once(claims, 'message')) as [CommandAnswer];
      expect(claimed).toEqual({
        command: 1,
        ok: true,
        result: [
          { seq: 1, target: 'KD-A', size: 1 },
          { seq: 2, target: 'KD-B', size: 1 },
        ],
      });
      expect(db.jobCounts('j')).toMatchObject({ pending: 0, sent: 2 });
      const batch = {
        jobId: 'j',
        profileId: 'p',
        items: [1, 2].map((seq) => ({ seq, state: 'done', code: null, message: null })),
        seenKeys: [],
        deletedValues: ['KD-A', 'KD-B'],
      };
      worker.postMessage({
        command: 2,
        kind: 'settle',
        batch: JSON.stringify(batch),
        at: '2026-11-23T00:00:01.000Z',
      } satisfies JobCommand);
      const [settled] = (await once(worker, 'message')) as [CommandAnswer];
      expect(settled).toEqual({ command: 2, ok: true, result: null });
      expect(db.jobCounts('j')).toMatchObject({ sent: 0, done: 2 });
    } finally {
      claims.close();
      await worker.terminate();
      db.close();
    }
  });

  it("builds the start's integrity check as a worker entry", async () => {
    expect(built('main/index.js')).toContain('check.worker.');
    const dir = tempDir('keydesk-built-check-');
    new LocalDb(join(dir, 'keydesk.db')).close();
    writeFileSync(join(dir, 'sandbox.db'), '');
    const worker = new Worker(join(ROOT, 'out/main/check.worker.js'), { workerData: [join(dir, 'keydesk.db'), join(dir, 'sandbox.db')] });
    const [answers] = (await once(worker, 'message')) as [CheckAnswer[]];
    expect(answers).toEqual([{ damage: null }, { damage: 'it is empty (0 bytes)' }]);
  });

  it('builds the sandbox thread as a worker entry that serves and stops', async () => {
    expect(built('main/index.js')).toContain('sandbox.worker.');
    const data: SandboxWorkerData = {
      file: join(tempDir('keydesk-built-sandbox-'), 'sandbox.db'),
      cacheKiB: 1024,
      service: { name: 'Demo', identifier: 'demo' },
      apiKey: null,
      ports: [0],
    };
    const worker = new Worker(join(ROOT, 'out/main/sandbox.worker.js'), { workerData: data });
    try {
      const [started] = (await once(worker, 'message')) as [SandboxToMain];
      expect(started).toMatchObject({ kind: 'started', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) as unknown });
      worker.postMessage({ kind: 'stop', graceMs: 500 } satisfies SandboxFromMain);
      const [stopped] = (await once(worker, 'message')) as [SandboxToMain];
      expect(stopped).toEqual({ kind: 'stopped' });
    } finally {
      await worker.terminate();
    }
  });

  it('builds the ledger reader as a worker entry that counts', async () => {
    expect(built('main/index.js')).toContain('reader.worker.');
    const file = join(tempDir('keydesk-built-reader-'), 'keydesk.db');
    new LocalDb(file).close();
    const worker = new Worker(join(ROOT, 'out/main/reader.worker.js'), {
      workerData: { file, cacheKiB: 1024, background: false } satisfies ReaderWorkerData,
    });
    try {
      const sort = { field: 'value', dir: 'asc' } as const;
      worker.postMessage({ ask: 1, kind: 'queryLedger', args: ['p', {}, sort, 0, 1, { exact: true }] } satisfies ReaderAsk);
      const [answer] = (await once(worker, 'message')) as [ReaderAnswer];
      expect(answer).toEqual({ ask: 1, ok: true, value: { rows: [], total: 0, totalCapped: false, targets: 0, targetsCapped: false } });
    } finally {
      await worker.terminate();
    }
  });
});
