// A worker thread's console output reaches main.log: main takes the thread's stderr and writes each write into the
// log, named by the thread, besides passing it on to its own stderr.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeLog, LOG_FILE, openLog } from '../../src/main/log.ts';
import { logWorkerOutput, THREAD_STDERR } from '../../src/main/worker-output.ts';
import { tempDir } from '../support/temp-dir.ts';

afterEach(() => {
  closeLog();
  vi.restoreAllMocks();
});

describe('worker output', () => {
  it("writes a thread's console.error into main.log, naming the thread", async () => {
    const dir = tempDir('keydesk-worker-log-');
    openLog(dir, 'start: test');
    const passedOn: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (passedOn.push(String(chunk)), true));
    const worker = new Worker("console.error('keydesk: the thread could not index: SQLITE_FULL'); throw new Error('thread broke');", {
      ...THREAD_STDERR,
      eval: true,
    });
    logWorkerOutput(worker, 'ledger writer');
    const failed = new Promise<Error>((resolve) => worker.once('error', resolve));
    await new Promise((resolve) => worker.once('exit', resolve));
    expect((await failed).message).toBe('thread broke');
    // Stderr arrives over a stream: wait for it to end before reading the log.
    if (!worker.stderr.readableEnded) await new Promise((resolve) => worker.stderr.once('end', resolve));
    const lines = readFileSync(join(dir, 'logs', LOG_FILE), 'utf8')
      .trim()
      .split('\n');
    expect(lines.at(-1)).toMatch(/ error ledger writer thread: keydesk: the thread could not index: SQLITE_FULL$/);
    expect(passedOn.join('')).toContain('keydesk: the thread could not index: SQLITE_FULL\n');
  });
});
