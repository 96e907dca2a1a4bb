// The ledger writer (src/main/store/writer.ts): ledger writes on a worker thread with its own connection to
// keydesk.db, in order, behind keys.generate's answer. A real core with its embedded sandbox, real files, a real
// worker; no timing is asserted, only what the ledger holds and what the answers say about it.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { runInNewContext } from 'node:vm';
import { MessageChannel, Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core.ts';
import { LEDGER_CHUNK, Writer, type RecordingState } from '../../src/main/store/writer.ts';
import { LocalDb } from '../../src/main/store/local-db.ts';
import type { LedgerWorkerData, LedgerWorkerMessage, LedgerWrite } from '../../src/main/store/writer-protocol.ts';
import type { EventMap } from '../../src/shared/contract.ts';
import type { Key } from '../../src/shared/domain.ts';
import { startTestCore, type TestCore } from '../support/core.ts';
import { generatedKey } from '../support/ledger-model.ts';
import { tempDir } from '../support/temp-dir.ts';
import { keysOf } from '../../src/shared/key-batch.ts';

const byValue = { field: 'value' as const, dir: 'asc' as const };
/** More than one chunk, so a batch is several transactions. */
const MANY = LEDGER_CHUNK * 2 + 1_234;

/** The next 'ledger.changed' for `profileId` that satisfies `test`. */
function nextChange(core: Core, profileId: string, test: (e: EventMap['ledger.changed']) => boolean): Promise<EventMap['ledger.changed']> {
  return new Promise((resolve) => {
    const off = core.on('ledger.changed', (e) => {
      if (e.profileId === profileId && test(e)) {
        off();
        resolve(e);
      }
    });
  });
}

const key = generatedKey;

describe('keys.generate hands its keys to the ledger writer', () => {
  let t: TestCore;
  let profileId: string;

  beforeAll(async () => {
    t = await startTestCore();
    profileId = t.core.profiles.activeProfileId ?? '';
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers before they are recorded, saying how many are still being recorded', async () => {
    const drained = nextChange(t.core, profileId, (e) => e.recording === 0);
    const generatedKeys = keysOf(
      (await t.must('keys.generate', { expire: '2099-01-01', count: MANY, isPremium: false, note: 'writer batch one' })).generated,
    );
    expect(generatedKeys).toHaveLength(MANY);
    const query = { filter: { text: 'writer batch one' }, sort: byValue, offset: 0, limit: 5 };
    const first = await t.must('ledger.query', query);
    // Never a partial ledger shown as whole: what is missing is counted as still being recorded.
    expect(first.recording).toBeGreaterThan(0);
    expect((first.total ?? 0) + (first.recording ?? 0)).toBeGreaterThanOrEqual(MANY);
    expect(first.recordingFailed).toBeUndefined();
    expect(await drained).toEqual({ profileId, recording: 0, failure: null, busy: false });
    const after = await t.must('ledger.query', { ...query, exactCount: true });
    expect(after.total).toBe(MANY);
    expect(after.recording).toBeUndefined();
    expect(after.rows.map((r) => r.value)).toEqual(
      generatedKeys
        .map((k) => k.value)
        .sort()
        .slice(0, 5),
    );
  });

  it('keeps write order: a key deleted after its batch ends deleted', async () => {
    const generatedKeys = keysOf(
      (await t.must('keys.generate', { expire: '2099-01-01', count: MANY, isPremium: false, note: 'writer order' })).generated,
    );
    const victim = generatedKeys[MANY - 1]?.value ?? '';
    // Queued behind the batch that adds its row: the delete waits for it, then marks the row.
    await t.must('keys.delete', { keyValue: victim, state: 'generated' });
    const rows = await t.must('ledger.query', { filter: { text: victim }, sort: byValue, offset: 0, limit: 5 });
    expect(rows.rows).toEqual([expect.objectContaining({ value: victim, status: 'deleted' })]);
    await t.core.writer.idle();
    const deleted = await t.must('ledger.query', {
      filter: { text: 'writer order', status: 'deleted' },
      sort: byValue,
      offset: 0,
      limit: 5,
      exactCount: true,
    });
    expect(deleted.total).toBe(1);
  });

  it('includes every new key in an "all matching" job started right after', async () => {
    const generatedKeys = keysOf(
      (await t.must('keys.generate', { expire: '2099-01-01', count: MANY, isPremium: false, note: 'writer job target' })).generated,
    );
    const job = await t.must('jobs.start', { action: 'extend', days: 1, target: { filter: { text: 'writer job target' } } });
    expect(job.total).toBe(generatedKeys.length);
    await t.must('jobs.cancel', { jobId: job.id });
    await t.core.jobs.settled(job.id);
  });

  it('exports a batch generated a moment ago whole', async () => {
    const generatedKeys = keysOf(
      (await t.must('keys.generate', { expire: '2099-01-01', count: MANY, isPremium: false, note: 'writer export' })).generated,
    );
    const saved = await t.must('keys.export', { keyValues: generatedKeys.map((k) => k.value), format: 'json' });
    const { readFileSync } = await import('node:fs');
    const rows = JSON.parse(readFileSync(saved.path ?? '', 'utf8')) as { value: string }[];
    expect(rows.map((r) => r.value)).toEqual(generatedKeys.map((k) => k.value));
  });
});

describe('a batch the ledger database refuses, through the core', () => {
  it('answers the generate and says which keys are missing from the ledger', async () => {
    const t = await startTestCore();
    try {
      const profileId = t.core.profiles.activeProfileId ?? '';
      // The database itself refuses these rows (as a full disk or a damaged file would refuse any).
      const other = new DatabaseSync(join(t.userData, 'keydesk.db'));
      other.exec(
        "CREATE TRIGGER refuse_batch BEFORE INSERT ON ledger WHEN new.note = 'refused batch' BEGIN SELECT RAISE(ABORT, 'refused'); END;",
      );
      other.close();
      const failed = nextChange(t.core, profileId, (e) => e.recording === 0 && e.failure !== null);
      const generatedKeys = keysOf(
        (await t.must('keys.generate', { expire: '2099-01-01', count: 10, isPremium: false, note: 'refused batch' })).generated,
      );
      expect(generatedKeys).toHaveLength(10);
      const words =
        '10 keys could not be recorded in the ledger: the ledger database refused the write. The service has them: look them up in Keys to bring them into the ledger.';
      expect(await failed).toEqual({ profileId, recording: 0, failure: words, busy: false });
      expect(await t.must('ledger.query', { filter: {}, sort: byValue, offset: 0, limit: 5 })).toMatchObject({
        total: 0,
        recordingFailed: words,
      });
      // The audit entry is a write of its own, asked for as the failure was told: its commit is awaited, not raced.
      await t.core.writer.jobsIdle();
      const { entries } = await t.must('audit.list', { filter: { outcome: 'failed' }, offset: 0, limit: 5 });
      expect(entries).toEqual([expect.objectContaining({ action: 'ledger.record', outcome: 'failed', message: words })]);
      // The service has them: once the database takes rows again, a lookup brings them into the ledger.
      const again = new DatabaseSync(join(t.userData, 'keydesk.db'));
      again.exec('DROP TRIGGER refuse_batch');
      again.close();
      expect((await t.must('keys.fetchGenerated', { term: 'refused batch', limit: 100, offset: 0 })).keys).toHaveLength(10);
      await t.core.writer.idle();
      const after = await t.must('ledger.query', { filter: { text: 'refused batch' }, sort: byValue, offset: 0, limit: 20 });
      expect(after.rows.map((r) => r.value)).toEqual(generatedKeys.map((k) => k.value).sort());
      expect(after.recordingFailed).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});

describe('quitting with keys still being recorded', () => {
  it('flushes the queue before the core closes', async () => {
    const t = await startTestCore();
    const profileId = t.core.profiles.activeProfileId ?? '';
    await t.must('keys.generate', { expire: '2099-01-01', count: MANY, isPremium: false, note: 'writer quit' });
    expect(t.core.writer.recording(profileId)).toBe(MANY);
    // A budget long enough for any machine: the drain, not its speed, is what is proved.
    await t.core.close(60_000);
    const db = new LocalDb(join(t.userData, 'keydesk.db'));
    try {
      expect(db.queryLedger(profileId, { text: 'writer quit' }, byValue, 0, 1, { exact: true }).total).toBe(MANY);
    } finally {
      db.close();
    }
  });
});

describe('a write the ledger refuses', () => {
  it('is reported in words with what the service still has', async () => {
    const file = join(tempDir('keydesk-writer-'), 'keydesk.db');
    const db = new LocalDb(file);
    const changes: RecordingState[] = [];
    const failures: string[] = [];
    const writer = new Writer({ file, onChange: (s) => changes.push(s), onFailure: (_p, words) => failures.push(words) });
    // The database itself refuses these rows (as a full disk would).
    const other = new DatabaseSync(file);
    other.exec("CREATE TRIGGER refuse BEFORE INSERT ON ledger WHEN new.note = 'held' BEGIN SELECT RAISE(ABORT, 'refused'); END;");
    const refused = await writer.recordKeys('p', [key('KD-REFUSED-1', 'held'), key('KD-REFUSED-2', 'held')]);
    other.exec('DROP TRIGGER refuse');
    other.close();
    expect(refused).toEqual({
      written: 0,
      failed: 2,
      failure:
        '2 keys could not be recorded in the ledger: the ledger database refused the write. The service has them: look them up in Keys to bring them into the ledger.',
    });
    expect(failures).toEqual([refused.failure]);
    expect(writer.failure('p')).toBe(refused.failure);
    expect(changes.at(-1)).toEqual({ profileId: 'p', recording: 0, failure: refused.failure, busy: false });

    const next = await writer.recordKeys('p', [key('KD-NEXT', 'after')]);
    expect(next).toEqual({ written: 1, failed: 0, failure: null });
    expect(writer.failure('p')).toBeNull();
    expect(db.queryLedger('p', {}, byValue, 0, 10).rows.map((r) => r.value)).toEqual(['KD-NEXT']);
    await writer.close();
    db.close();
  });

  it('when the worker cannot run, reports every queued write', async () => {
    const dir = join(tempDir('keydesk-writer-'), 'not-yet');
    const file = join(dir, 'keydesk.db');
    // The folder is missing: the worker dies opening the file, again on each restart.
    const writer = new Writer({ file });
    const lost = await writer.recordKeys('p', [key('KD-LOST', 'lost')]);
    expect(lost).toMatchObject({ written: 0, failed: 1 });
    expect(lost.failure).toBe(
      '1 key could not be recorded in the ledger: the ledger writer stopped unexpectedly. The service has them: look them up in Keys to bring them into the ledger.',
    );
    mkdirSync(dir);
    const db = new LocalDb(file);
    expect(await writer.markDeleted('p', 'KD-NONE')).toEqual({ written: 1, failed: 0, failure: null });
    expect(await writer.recordKeys('p', [key('KD-FOUND', 'found')])).toEqual({ written: 1, failed: 0, failure: null });
    expect(db.queryLedger('p', {}, byValue, 0, 10).rows.map((r) => r.value)).toEqual(['KD-FOUND']);
    await writer.close();
    db.close();
  });

  it('starts its thread on the first write and ends it when idle', async () => {
    const file = join(tempDir('keydesk-writer-'), 'keydesk.db');
    const db = new LocalDb(file);
    const writer = new Writer({ file, idleMs: 50 });
    expect(writer.threadRunning).toBe(false);
    const first = writer.recordKeys('p', [key('KD-IDLE-1', 'idle')]);
    await new Promise((r) => setImmediate(r));
    expect(writer.threadRunning).toBe(true);
    expect(await first).toEqual({ written: 1, failed: 0, failure: null });
    await expect.poll(() => writer.threadRunning).toBe(false);
    expect(await writer.recordKeys('p', [key('KD-IDLE-2', 'idle')])).toEqual({ written: 1, failed: 0, failure: null });
    expect(await writer.markDeleted('p', 'KD-IDLE-1')).toEqual({ written: 1, failed: 0, failure: null });
    expect(db.queryLedger('p', {}, byValue, 0, 10).rows.map((r) => [r.value, r.status])).toEqual([
      ['KD-IDLE-1', 'deleted'],
      ['KD-IDLE-2', 'generated'],
    ]);
    await writer.close();
    expect(writer.threadRunning).toBe(false);
    db.close();
  });
});

describe("a job's marks and the ledger rows queued before them", () => {
  it('writes the marks after a lookup queued before them', async () => {
    const file = join(tempDir('keydesk-writer-'), 'keydesk.db');
    const at = new Date().toISOString();
    const looked = (value: string): Key => ({ ...key(value, 'looked up'), status: 'active', hwid: `HW-${value}` });
    const db = new LocalDb(file);
    db.recordKeys('p', [looked('KD-RESET'), looked('KD-DELETE')]);
    // A delete job with its one item sent: its end marks that row's status as not read back.
    db.createJob({ id: 'del', profileId: 'p', action: 'delete', params: '{}', createdAt: at }, { keyValues: ['KD-DELETE'] });
    db.beginJobRun('del', at);
    expect(db.jobStep(null, { jobId: 'del', max: 1 })).toHaveLength(1);
    const writer = new Writer({ file });
    try {
      const batch = writer.recordKeys(
        'p',
        Array.from({ length: MANY }, (_, i) => key(`KD-FILL-${i}`, 'filler')),
      );
      // Answered before the acts went unknown, the lookup still waits behind the batch.
      const lookup = writer.recordKeys('p', [looked('KD-RESET'), looked('KD-DELETE')]);
      const settle = { jobId: 'none', profileId: 'p', items: [], seenKeys: [], hwidStale: ['KD-RESET'], deletedValues: [] };
      await writer.run('settle', { batch: JSON.stringify(settle), at: new Date().toISOString() });
      await writer.run('end', {
        end: JSON.stringify({ jobId: 'del', state: 'cancelled', reason: null, finishedAt: new Date().toISOString() }),
      });
      expect(await lookup).toEqual({ written: 2, failed: 0, failure: null });
      expect(await batch).toMatchObject({ written: MANY, failed: 0 });
    } finally {
      await writer.close();
    }
    const rows = [...db.iterateLedgerKeys('p', ['KD-RESET', 'KD-DELETE'])].map((r) => [
      r.value,
      r.hwidStale === true,
      r.statusStale === true,
    ]);
    expect(rows.sort()).toEqual([
      ['KD-DELETE', false, true],
      ['KD-RESET', true, false],
    ]);
    db.close();
  });
});

describe('the writer thread as it ends', () => {
  it('collects its heap before it goes, leaving no `gc` behind', async () => {
    const dir = tempDir('keydesk-writer-');
    const file = join(dir, 'keydesk.db');
    new LocalDb(file).close();
    // The thread itself, as Writer starts it, told to stop as Writer tells it once idle.
    const { port1, port2 } = new MessageChannel();
    port1.unref();
    const worker = new Worker(new URL('../../src/main/store/writer.worker.ts', import.meta.url), {
      workerData: { file, cacheKiB: 1024, urgent: port2 } satisfies LedgerWorkerData,
      transferList: [port2],
    });
    const messages: LedgerWorkerMessage[] = [];
    worker.on('message', (m: LedgerWorkerMessage) => messages.push(m));
    const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
    const errors: unknown[] = [];
    worker.on('error', (e) => errors.push(e));
    worker.postMessage({ kind: 'stop' } satisfies LedgerWrite);
    expect(await exited).toBe(0);
    expect(errors).toEqual([]);
    // Its last word: the collection ran (what that collection does is test/main/collect-garbage.test.ts's).
    expect(messages).toEqual([{ kind: 'stopped', collected: true }]);
    // The thread turned V8's --expose-gc on for a moment to take its collector; it is off again for everyone.
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });
});
