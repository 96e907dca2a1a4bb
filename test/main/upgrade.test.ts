// An older Keydesk's keydesk.db (schema 3, with real rows) upgraded at first start of this version: each step is
// reported in order with the rows it has read, every row comes through whole, a process killed mid-upgrade leaves
// the file at schema 3 untouched, and while it runs the window hears how far it is and no operation answers from
// a half-built ledger.
import { spawn } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { SANDBOX_PROFILE_ID } from '../../src/main/core.ts';
import { dispatch } from '../../src/main/ipc/dispatch.ts';
import { MemorySecretStore } from '../../src/main/secrets/secret-store.ts';
import { LOCAL_DB_VERSION, LocalDb } from '../../src/main/store/local-db.ts';
import { upgradeLocalDbFile } from '../../src/main/store/upgrade.ts';
import { Startup } from '../../src/main/startup.ts';
import { Core } from '../../src/main/core.ts';
import type { StartupStatus, UpgradeProgress } from '../../src/shared/domain.ts';
import { writeVersion3 } from '../support/local-db-v3.ts';
import { ROOT } from '../support/sandbox-process.ts';
import { tempDir } from '../support/temp-dir.ts';

const KEYS = 30_000;
const ROWS =
  'SELECT profile_id, value, note, status, is_premium, expires_at, hwid, created_at, last_seen_at, search, days_key FROM ledger ORDER BY profile_id, value';

function read<T>(file: string, fn: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(file);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}
const version = (file: string): number =>
  read(file, (db) => (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
const rows = (file: string): unknown[] => read(file, (db) => db.prepare(ROWS).all());
const schemaOf = (file: string): unknown[] =>
  read(file, (db) =>
    db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all(),
  );

/** A file's schema as SQLite reads it: each table's columns, each index's keys, each trigger's and view's text. */
const structureOf = (file: string): unknown[] =>
  read(file, (db) =>
    (
      db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all() as {
        type: string;
        name: string;
        tbl_name: string;
        sql: string | null;
      }[]
    ).map(({ type, name, tbl_name: table, sql }) => ({
      type,
      name,
      table,
      shape:
        type === 'table'
          ? db.prepare(`PRAGMA table_xinfo("${name}")`).all()
          : type === 'index'
            ? db.prepare(`PRAGMA index_xinfo("${name}")`).all()
            : sql?.replace(/\s+/g, ' '),
    })),
  );

/** A schema-3 file with KEYS rows, and a copy of it for comparison. */
function version3(keys = KEYS, profileIds?: readonly string[]): { file: string; copy: string; before: unknown[] } {
  const dir = tempDir('keydesk-upgrade-');
  const file = join(dir, 'keydesk.db');
  writeVersion3(file, keys, profileIds ? { profileIds } : {});
  const copy = join(tempDir('keydesk-upgrade-copy-'), 'keydesk.db');
  read(file, (db) => db.exec('PRAGMA wal_checkpoint(TRUNCATE)'));
  copyFileSync(file, copy);
  return { file, copy, before: rows(file) };
}

/** The steps in the order reported, each with the rows reported done in it. */
function stepsOf(events: readonly UpgradeProgress[]): { step: number; work: string; done: (number | null)[] }[] {
  const steps: { step: number; work: string; done: (number | null)[] }[] = [];
  for (const e of events) {
    const last = steps.at(-1);
    if (last?.step === e.step) last.done.push(e.done);
    else steps.push({ step: e.step, work: e.work, done: [e.done] });
  }
  return steps;
}

describe('upgrading a schema-3 keydesk.db with rows', () => {
  it('reports every step in order with the rows each has read, keeps every row whole, and ends as a new file would', async () => {
    const { file, copy, before } = version3();
    const events: UpgradeProgress[] = [];
    await upgradeLocalDbFile(file, (p) => events.push(p));

    expect(version(file)).toBe(LOCAL_DB_VERSION);
    expect(
      events.every((e) => e.fromVersion === 3 && e.toVersion === LOCAL_DB_VERSION && e.total === KEYS && e.steps === events[0]?.steps),
    ).toBe(true);
    const steps = stepsOf(events);
    // Steps numbered 1, 2, … with none skipped or repeated, saving last.
    expect(steps.map((s) => s.step)).toEqual(steps.map((_, i) => i + 1));
    expect(steps.length).toBe(events[0]?.steps);
    expect(steps.map((s) => s.work)).toEqual([
      'copy',
      'clear',
      'index',
      'index',
      'index',
      'index',
      'index',
      'text',
      'count',
      'index',
      'text',
      'text',
      'save',
    ]);
    // A work done in several steps says which part each is (the text index's three fills each count from 0).
    const firstOfStep = steps.map((s) => events.find((e) => e.step === s.step));
    expect(firstOfStep.map((e) => `${e?.work ?? ''} ${e?.pass ?? 0}/${e?.passes ?? 0}`)).toEqual([
      'copy 1/1',
      'clear 1/1',
      'index 1/6',
      'index 2/6',
      'index 3/6',
      'index 4/6',
      'index 5/6',
      'text 1/3',
      'count 1/1',
      'index 6/6',
      'text 2/3',
      'text 3/3',
      'save 1/1',
    ]);
    expect(events.every((e) => e.pass === firstOfStep[e.step - 1]?.pass)).toBe(true);
    for (const s of steps) {
      if (s.work === 'copy' || s.work === 'text' || s.work === 'count') {
        // Counted: from 0, up in steps, to every row of the ledger.
        expect(s.done[0], s.work).toBe(0);
        expect(s.done.at(-1), s.work).toBe(KEYS);
        expect(s.done, s.work).toEqual([...s.done].sort((a, b) => (a ?? 0) - (b ?? 0)));
        expect(s.done.length, s.work).toBeGreaterThan(2);
      } else {
        expect(s.done, s.work).toEqual([null]);
      }
    }

    expect(rows(file)).toEqual(before);
    read(file, (db) => {
      expect(db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
      // The text index agrees with the rows it was built from, and the per-status counts with the ledger.
      expect(() => {
        db.exec("INSERT INTO ledger_text (ledger_text) VALUES ('integrity-check')");
      }).not.toThrow();
      expect(db.prepare('SELECT profile_id, status, n FROM ledger_counts ORDER BY profile_id, status').all()).toEqual(
        db.prepare('SELECT profile_id, status, count(*) AS n FROM ledger GROUP BY profile_id, status ORDER BY profile_id, status').all(),
      );
      // Nothing of the counting is left behind.
      expect(db.prepare('SELECT count(*) AS n FROM sqlite_temp_schema').get()).toEqual({ n: 0 });
    });
    // The same file upgraded unreported, statement by statement undivided (as a new file is), ends the same.
    new LocalDb(copy).close();
    expect(schemaOf(file)).toEqual(schemaOf(copy));
    expect(rows(copy)).toEqual(before);

    // The upgraded file opens as current: nothing more to do, nothing reported.
    const again: UpgradeProgress[] = [];
    await upgradeLocalDbFile(file, (p) => again.push(p));
    expect(again).toEqual([]);
    const db = new LocalDb(file);
    expect(db.queryLedger('p0', {}, { field: 'value', dir: 'asc' }, 0, 1, { exact: true }).total).toBe(KEYS / 2);
    db.close();
  });

  it('ends with the tables, columns, indexes and triggers a new file has (the migrations are the same for both)', async () => {
    const { file } = version3(1_000);
    await upgradeLocalDbFile(file, () => undefined);
    const fresh = join(tempDir('keydesk-upgrade-fresh-'), 'keydesk.db');
    new LocalDb(fresh).close();
    // Tables the schema-3 writer created are written differently (test/support/local-db-v3.ts): compared by what
    // SQLite reads of them, not by their text.
    expect(structureOf(file)).toEqual(structureOf(fresh));
  });

  it('holds after its first report only for a hold file given to it, never for KEYDESK_TEST_UPGRADE_HOLD in the environment', async () => {
    const hold = join(tempDir('keydesk-upgrade-hold-'), 'release');
    // An installed app must not wait on what its user's shell exports: the worker does not read the environment.
    process.env.KEYDESK_TEST_UPGRADE_HOLD = hold;
    try {
      const { file } = version3(1_000);
      await upgradeLocalDbFile(file, () => undefined);
      expect(version(file)).toBe(LOCAL_DB_VERSION);
    } finally {
      delete process.env.KEYDESK_TEST_UPGRADE_HOLD;
    }
    // Given to it (the harness passes its environment's): held inside its transaction until the file exists.
    const { file } = version3(1_000);
    const events: UpgradeProgress[] = [];
    let firstReport = (): void => undefined;
    const reported = new Promise<void>((resolve) => (firstReport = resolve));
    const upgraded = upgradeLocalDbFile(
      file,
      (p) => {
        events.push(p);
        firstReport();
      },
      hold,
    );
    await reported;
    expect(version(file)).toBe(3);
    expect(events).toHaveLength(1);
    writeFileSync(hold, '');
    await upgraded;
    expect(version(file)).toBe(LOCAL_DB_VERSION);
    expect(events.length).toBeGreaterThan(1);
  });

  it('reports nothing for a new file, and refuses a newer Keydesk’s file without touching it', async () => {
    const fresh = join(tempDir('keydesk-upgrade-new-'), 'keydesk.db');
    const events: UpgradeProgress[] = [];
    await upgradeLocalDbFile(fresh, (p) => events.push(p));
    new LocalDb(fresh).close();
    expect(events).toEqual([]);
    expect(version(fresh)).toBe(LOCAL_DB_VERSION);

    const newer = join(tempDir('keydesk-upgrade-newer-'), 'keydesk.db');
    read(newer, (db) => db.exec('PRAGMA user_version = 99; CREATE TABLE ledger (x);'));
    await expect(upgradeLocalDbFile(newer, () => undefined)).rejects.toThrow(/newer Keydesk \(schema 99\)/);
    expect(version(newer)).toBe(99);
  });

  // Killed after the old ledger was dropped inside the transaction, mid-way through the text index, and while
  // saving: each time the file must still be schema 3 with every row, and upgrade fully on the next start.
  for (const [work, rowsDone] of [
    ['copy', 10_000],
    ['text', 20_000],
    ['save', 0],
  ] as const) {
    it(`left at schema 3, whole, by a kill during the ${work} step, and upgraded on the next start`, async () => {
      const { file, before } = version3();
      const child = spawn(
        process.execPath,
        ['--disable-warning=ExperimentalWarning', join(ROOT, 'test/support/upgrade-child.ts'), file, work, String(rowsDone)],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      let err = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
      await new Promise<void>((resolve, reject) => {
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          out += d;
          if (out.includes('stopped\n')) resolve();
        });
        void exited.then(() => reject(new Error(`the upgrade ended before it was stopped: ${out}${err}`)));
      });
      const reported = out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as UpgradeProgress);
      expect(reported.at(-1)?.work).toBe(work);
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');

      expect(version(file)).toBe(3);
      expect(rows(file)).toEqual(before);
      read(file, (db) => {
        expect(db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
        expect(db.prepare("SELECT name FROM sqlite_schema WHERE name IN ('ledger_v4', 'ledger_text', 'ledger_counts')").all()).toEqual([]);
      });

      const events: UpgradeProgress[] = [];
      await upgradeLocalDbFile(file, (p) => events.push(p));
      expect(events.at(-1)?.work).toBe('save');
      expect(version(file)).toBe(LOCAL_DB_VERSION);
      expect(rows(file)).toEqual(before);
    });
  }
});

describe('the start while keydesk.db is upgraded', () => {
  it('answers app.startup with each step, holds every other operation until the core is up, then answers it from the whole ledger', async () => {
    const { file } = version3(KEYS, [SANDBOX_PROFILE_ID]);
    const userData = join(file, '..');
    const startup = new Startup();
    const heard: StartupStatus[] = [];
    // Asked the moment the text index is being built: All keys' query waits for the core rather than answering
    // from a ledger half built.
    const asked: { during?: ReturnType<typeof dispatch>; query?: ReturnType<typeof dispatch> } = {};
    startup.on('app.startup', (s) => {
      heard.push(s);
      if (asked.during === undefined && s.upgrade?.work === 'text') {
        asked.during = dispatch(startup.handlers, 'app.startup', undefined);
        asked.query = dispatch(startup.handlers, 'ledger.query', {
          filter: {},
          sort: { field: 'value', dir: 'asc' },
          offset: 0,
          limit: 5,
          exactCount: true,
        });
      }
    });
    expect(await dispatch(startup.handlers, 'app.startup', undefined)).toEqual({
      ok: true,
      data: { state: 'starting', upgrade: null, failure: null },
    });

    let core: Core | null = null;
    const started = startup.run((onUpgrade) =>
      Core.start({
        userDataDir: userData,
        secrets: new MemorySecretStore(),
        version: 'test',
        askSavePath: () => Promise.resolve(null),
        onUpgrade,
      }),
    );
    try {
      core = await started;
      expect(asked.during).toBeDefined();
      expect(await asked.during).toMatchObject({
        ok: true,
        data: { state: 'upgrading', upgrade: { work: 'text', total: KEYS, fromVersion: 3 } },
      });
      expect(await asked.query).toMatchObject({ ok: true, data: { total: KEYS } });

      const states = heard.map((s) => s.state);
      expect(states.at(-1)).toBe('ready');
      expect(states.slice(0, -1).every((s) => s === 'upgrading')).toBe(true);
      const upgrades = heard.flatMap((s) => (s.upgrade ? [s.upgrade] : []));
      expect(upgrades.map((u) => u.step)).toEqual([...upgrades.map((u) => u.step)].sort((a, b) => a - b));
      // The time so far only grows.
      expect(upgrades.map((u) => u.elapsedMs)).toEqual([...upgrades.map((u) => u.elapsedMs)].sort((a, b) => a - b));
      expect(await dispatch(startup.handlers, 'app.startup', undefined)).toEqual({
        ok: true,
        data: { state: 'ready', upgrade: null, failure: null },
      });
    } finally {
      await core?.close();
    }
  });

  it('says why when the start fails, and every waiting operation answers with that reason', async () => {
    const userData = tempDir('keydesk-upgrade-fail-');
    read(join(userData, 'keydesk.db'), (db) => db.exec('PRAGMA user_version = 99; CREATE TABLE ledger (x);'));
    const startup = new Startup();
    const waiting = dispatch(startup.handlers, 'app.status', undefined);
    await expect(
      startup.run((onUpgrade) =>
        Core.start({
          userDataDir: userData,
          secrets: new MemorySecretStore(),
          version: 'test',
          askSavePath: () => Promise.resolve(null),
          onUpgrade,
        }),
      ),
    ).rejects.toThrow(/newer Keydesk/);
    expect(await dispatch(startup.handlers, 'app.startup', undefined)).toMatchObject({
      ok: true,
      data: { state: 'failed', failure: expect.stringMatching(/newer Keydesk \(schema 99\)/) as string },
    });
    expect(await waiting).toMatchObject({
      ok: false,
      code: 'INTERNAL',
      message: expect.stringMatching(/^Keydesk could not start: .*newer Keydesk/) as string,
    });
  });
});
