// The ledger writer and a keydesk.db another connection holds locked: its writes wait and go in, in order, once
// the lock goes; a write SQLite truly refuses leaves nothing of itself. Real files, a real worker thread, and a
// second node:sqlite connection holding the lock; the lock goes when the writer says it waits, not after a sleep.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { LocalDb } from '../../src/main/store/local-db.ts';
import { LEDGER_CHUNK, Writer, type RecordingState } from '../../src/main/store/writer.ts';
import type { Key } from '../../src/shared/domain.ts';
import { generatedKey } from '../support/ledger-model.ts';
import { tempDir } from '../support/temp-dir.ts';

const byValue = { field: 'value' as const, dir: 'asc' as const };
const AT = '2026-11-23T00:00:00.000Z';

const key = generatedKey;

/** The value of key `i` of those keys() makes. */
const named = (prefix: string, i: number) => `${prefix}-${String(i).padStart(5, '0')}`;
/** `n` keys named `prefix`-00000 on, each with `note`. */
const keys = (prefix: string, n: number, note: string): Key[] => Array.from({ length: n }, (_, i) => key(named(prefix, i), note));

/** The ledger's rows of profile `p`: value, note and status, by value. */
function ledger(db: LocalDb): [string, string, string][] {
  const { rows } = db.queryLedger('p', {}, byValue, 0, 100_000, { exact: true });
  return rows.map((r) => [r.value, r.note, r.status]);
}

const count = (db: DatabaseSync, table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

describe('a keydesk.db another connection holds locked', () => {
  it('writes every row and command in call order once the lock goes', async () => {
    const file = join(tempDir('keydesk-busy-'), 'keydesk.db');
    const db = new LocalDb(file);
    const lock = new DatabaseSync(file);
    lock.exec('BEGIN IMMEDIATE');
    const changes: RecordingState[] = [];
    let waits: () => void = () => undefined;
    const waiting = new Promise<void>((resolve) => (waits = resolve));
    const writer = new Writer({
      file,
      onChange: (s) => {
        changes.push(s);
        if (s.busy) waits();
      },
    });
    const first = keys('KD-A', LEDGER_CHUNK * 2 + 17, 'first');
    const again = first.slice(0, LEDGER_CHUNK + 5).map((k) => ({ ...k, note: 'again' }));
    const later = keys('KD-B', 100, 'later');
    const gone = named('KD-A', 3);
    const done: string[] = [];
    const writes = [
      writer.recordKeys('p', first),
      writer.run('audit', {
        entry: { profileId: 'p', profileName: 'P', action: 'key.generate', target: 'KD-A', outcome: 'ok', message: '' },
      }),
      writer.recordKeys('p', again),
      writer.markDeleted('p', gone),
      writer.run('sample', { profileId: 'p', count: 7, at: AT }),
      writer.recordKeys('p', later),
    ].map((w, i) => w.then((outcome) => (done.push(String(i)), outcome)));

    await waiting;
    expect(writer.busy).toBe(true);
    expect(writer.recording('p')).toBe(first.length + again.length + 1 + later.length);
    expect(done).toEqual([]);
    expect(count(lock, 'ledger')).toBe(0);
    lock.exec('ROLLBACK');
    lock.close();

    const [a, audit, b, deleted, sample, c] = await Promise.all(writes);
    expect([a, b, deleted, c]).toEqual([
      { written: first.length, failed: 0, failure: null },
      { written: again.length, failed: 0, failure: null },
      { written: 1, failed: 0, failure: null },
      { written: later.length, failed: 0, failure: null },
    ]);
    expect(audit).toBeTypeOf('number');
    expect(sample).toBeNull();
    expect(writer.busy).toBe(false);
    expect(changes.at(-1)).toEqual({ profileId: 'p', recording: 0, failure: null, busy: false });

    // Each later write landed after the ones before it: the second description and the deletion stand.
    const expected = [...first, ...later].map((k, i): [string, string, string] => [
      k.value,
      i < again.length ? 'again' : k.note,
      k.value === gone ? 'deleted' : 'generated',
    ]);
    expect(ledger(db)).toEqual(expected);
    const read = new DatabaseSync(file, { readOnly: true });
    expect([count(read, 'audit'), count(read, 'samples')]).toEqual([1, 1]);
    read.close();
    await writer.close();
    db.close();
  });
});

describe('quitting while the writes wait for the lock', () => {
  it('ends them as not recorded because Keydesk quit, writing none', async () => {
    const file = join(tempDir('keydesk-busy-'), 'keydesk.db');
    const db = new LocalDb(file);
    const lock = new DatabaseSync(file);
    lock.exec('BEGIN IMMEDIATE');
    let waits: () => void = () => undefined;
    const waiting = new Promise<void>((resolve) => (waits = resolve));
    const writer = new Writer({
      file,
      onChange: (s) => {
        if (s.busy) waits();
      },
    });
    const written = writer.recordKeys('p', keys('KD-Q', 10, 'quit'));
    const audit = writer
      .run('audit', {
        entry: { profileId: 'p', profileName: 'P', action: 'key.generate', target: 'KD-Q', outcome: 'ok', message: '' },
      })
      .then(
        () => 'written',
        (error: unknown) => (error as Error).message,
      );
    await waiting;
    // No time for the writes at all: the quit's budget is spent before the lock goes.
    await writer.close(0);
    expect(await written).toEqual({
      written: 0,
      failed: 10,
      failure:
        '10 keys could not be recorded in the ledger: Keydesk quit before they were written. The service has them: look them up in Keys to bring them into the ledger.',
    });
    expect(await audit).toBe('Keydesk is quitting: job writes are no longer made.');
    expect(writer.threadRunning).toBe(false);
    lock.exec('ROLLBACK');
    expect([count(lock, 'ledger'), count(lock, 'audit')]).toEqual([0, 0]);
    lock.close();
    db.close();
  });
});

describe('a write SQLite truly refuses', () => {
  it('leaves none of its chunk, and the chunks around it are written', async () => {
    const file = join(tempDir('keydesk-busy-'), 'keydesk.db');
    const db = new LocalDb(file);
    const all = keys('KD-C', LEDGER_CHUNK * 3, 'chunks');
    const bad = named('KD-C', LEDGER_CHUNK + LEDGER_CHUNK / 2);
    const other = new DatabaseSync(file);
    other.exec(`CREATE TRIGGER refuse BEFORE INSERT ON ledger WHEN new.value = '${bad}' BEGIN SELECT RAISE(ABORT, 'refused'); END;`);
    const writer = new Writer({ file });
    const outcome = await writer.recordKeys('p', all);
    expect(outcome).toEqual({
      written: LEDGER_CHUNK * 2,
      failed: LEDGER_CHUNK,
      failure: `${LEDGER_CHUNK.toLocaleString('en-US')} of ${all.length.toLocaleString('en-US')} keys could not be recorded in the ledger: the ledger database refused the write. The service has them: look them up in Keys to bring them into the ledger.`,
    });
    const kept = [...all.slice(0, LEDGER_CHUNK), ...all.slice(LEDGER_CHUNK * 2)];
    expect(ledger(db).map(([value]) => value)).toEqual(kept.map((k) => k.value));
    other.close();
    await writer.close();
    db.close();
  });

  it("leaves none of a run's start when its last step is refused", async () => {
    const file = join(tempDir('keydesk-busy-'), 'keydesk.db');
    const db = new LocalDb(file);
    const writer = new Writer({ file });
    await writer.run('createJob', {
      job: { id: 'j', profileId: 'p', action: 'delete', params: '{}', createdAt: AT },
      items: { keyValues: ['KD-1', 'KD-2'] },
    });
    expect((await writer.run('claim', { jobId: 'j', max: 2, retry: false })).map((i) => i.target)).toEqual(['KD-1', 'KD-2']);
    const other = new DatabaseSync(file);
    // The run's start settles what the last run left claimed, then marks the job running: that last step fails.
    other.exec("CREATE TRIGGER refuse BEFORE UPDATE OF run_at ON jobs BEGIN SELECT RAISE(ABORT, 'refused'); END;");
    await expect(writer.run('beginRun', { jobId: 'j', at: AT, retryUnknown: false, log: null })).rejects.toThrow('refused');
    const items = other.prepare("SELECT target, state FROM job_items WHERE job_id = 'j' ORDER BY seq").all();
    expect(items.map((i) => [i.target, i.state])).toEqual([
      ['KD-1', 'sent'],
      ['KD-2', 'sent'],
    ]);
    // The act's one entry as its job's creation wrote it: the refused start left nothing in it.
    expect(
      other
        .prepare('SELECT outcome, counts FROM audit')
        .all()
        .map((r) => [r.outcome, r.counts]),
    ).toEqual([['unknown', null]]);
    other.close();
    await writer.close();
    db.close();
  });
});
