// keydesk.db's schema: a new file gets it, a file at it opens, a file of schema 12 is brought to it, and a file of
// any other version (a pre-release Keydesk's, a newer Keydesk's) is refused in words and left byte for byte as it was.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { LOCAL_DB_VERSION, LocalDb } from '../../src/main/store/local-db.ts';
import type { Key } from '../../src/shared/domain.ts';
import { tempDir } from '../support/temp-dir.ts';

const PROFILE = 'p';
const key = (value: string, note: string): Key => ({
  id: value,
  value,
  note,
  status: 'active',
  isPremium: false,
  expire: '2030-01-01',
  expiresByDaysKey: false,
  daysKey: null,
  expiresAt: '2030-01-01T00:00:00.000Z',
  hwid: 'HW-1',
  createdAt: '2026-01-01T00:00:00.000Z',
  activatedAt: null,
  lastResetAt: null,
  serviceId: 's',
});

/** A keydesk.db written by `sql` in WAL mode, as Keydesk writes it, with its WAL checkpointed into the file. */
function fileOf(sql: string): string {
  const file = join(tempDir('keydesk-schema-'), 'keydesk.db');
  const db = new DatabaseSync(file);
  db.exec(`PRAGMA journal_mode = WAL; ${sql}`);
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
  return file;
}

function read<T>(file: string, fn: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(file);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}
const names = (file: string): string[] =>
  read(file, (db) =>
    (db.prepare("SELECT name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[]).map(
      (r) => r.name,
    ),
  );

describe('a keydesk.db of another schema', () => {
  it('refuses a pre-release file in words and leaves its bytes unchanged', () => {
    const file = fileOf("PRAGMA user_version = 3; CREATE TABLE ledger (value TEXT); INSERT INTO ledger VALUES ('KD-OLD');");
    const bytes = readFileSync(file);
    const dir = readdirSync(join(file, '..')).sort();
    expect(() => new LocalDb(file)).toThrow(/^keydesk\.db was made by a pre-release Keydesk \(schema 3\): move it aside to start fresh\.$/);
    expect(readFileSync(file).equals(bytes)).toBe(true);
    expect(readdirSync(join(file, '..')).sort()).toEqual(dir);
  });

  it('refuses a first-release file (schema 0 with tables) as pre-release, unchanged', () => {
    const file = fileOf("CREATE TABLE ledger (value TEXT); INSERT INTO ledger VALUES ('KD-OLD');");
    const bytes = readFileSync(file);
    expect(() => new LocalDb(file)).toThrow(/^keydesk\.db was made by a pre-release Keydesk \(schema 0\): move it aside to start fresh\.$/);
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it('refuses a newer Keydesk’s file in words and leaves its bytes unchanged', () => {
    const file = fileOf('PRAGMA user_version = 99; CREATE TABLE future (x);');
    const bytes = readFileSync(file);
    expect(() => new LocalDb(file)).toThrow(/^keydesk\.db was written by a newer Keydesk \(schema 99\); update Keydesk to open it\.$/);
    expect(readFileSync(file).equals(bytes)).toBe(true);
    expect(names(file)).toEqual(['future']);
  });
});

describe('a keydesk.db at this schema', () => {
  it('gives a new file the whole schema, in WAL mode', () => {
    const file = join(tempDir('keydesk-schema-'), 'keydesk.db');
    const db = new LocalDb(file);
    expect(read(file, (raw) => raw.prepare('PRAGMA user_version').get())).toEqual({ user_version: LOCAL_DB_VERSION });
    expect(read(file, (raw) => raw.prepare('PRAGMA journal_mode').get())).toEqual({ journal_mode: 'wal' });
    expect(names(file)).toEqual(
      [
        'audit',
        'audit_by_job',
        'audit_by_time',
        'customer_keys',
        'customer_keys_by_customer',
        'customer_settings',
        'customers',
        'customers_by_discord',
        'customers_by_email',
        'customers_by_name',
        'job_items',
        'job_items_by_state',
        'job_keys',
        'jobs',
        'jobs_by_profile',
        'ledger',
        'ledger_counts',
        'ledger_counts_delete',
        'ledger_counts_insert',
        'ledger_counts_update',
        'ledger_activated',
        'ledger_created',
        'ledger_expires',
        'ledger_days',
        'ledger_days_delete',
        'ledger_days_insert',
        'ledger_days_update',
        'keydesk_runs',
        'first_run',
        'ledger_hwid_text_update',
        'ledger_indexed',
        'ledger_log',
        'ledger_log_delete',
        'ledger_log_insert',
        'ledger_log_trim',
        'ledger_log_update',
        'ledger_note',
        'ledger_seen',
        'ledger_status',
        'ledger_text',
        'ledger_text_config',
        'ledger_text_data',
        'ledger_text_delete',
        'ledger_text_docsize',
        'ledger_text_idx',
        'ledger_text_insert',
        'ledger_text_update',
        'ledger_trigrams',
        'profile_settings',
        'samples',
        'samples_by_time_count',
        'renewal_templates',
        'job_labels',
        'job_events',
        'service_capabilities',
        'hwid_history',
        'hwid_history_by_key',
        'hwid_history_delete',
        'hwid_history_insert',
        'hwid_history_update',
        'customers_text',
        'customers_text_config',
        'customers_text_data',
        'customers_text_delete',
        'customers_text_docsize',
        'customers_text_idx',
        'customers_text_insert',
        'customers_text_update',
        'job_customers',
      ].sort(),
    );
    // The triggers keep the text index and the per-status counts as the ledger is written.
    db.recordKeys(PROFILE, [key('KD-AAA', 'launch'), key('KD-BBB', 'resellers')]);
    db.markDeleted(PROFILE, 'KD-BBB');
    expect(db.queryLedger(PROFILE, { text: 'resel' }, { field: 'value', dir: 'asc' }, 0, 10).rows.map((r) => r.value)).toEqual(['KD-BBB']);
    expect(db.queryLedger(PROFILE, { text: 'hw-1' }, { field: 'value', dir: 'asc' }, 0, 10).total).toBe(2);
    expect([db.ledgerSize(PROFILE), db.ledgerSize(PROFILE, 'deleted')]).toEqual([2, 1]);
    db.close();
  });

  it('opens a current file with its rows and its schema untouched', () => {
    const file = join(tempDir('keydesk-schema-'), 'keydesk.db');
    const made = new LocalDb(file);
    made.recordKeys(PROFILE, [key('KD-KEPT', 'from before')]);
    made.close();
    const schema = (): unknown[] => read(file, (raw) => raw.prepare('SELECT type, name, sql FROM sqlite_schema ORDER BY name').all());
    const before = schema();

    const db = new LocalDb(file);
    expect(db.queryLedger(PROFILE, { text: 'from before' }, { field: 'value', dir: 'asc' }, 0, 10).rows).toMatchObject([
      { value: 'KD-KEPT', note: 'from before', hwid: 'HW-1' },
    ]);
    db.close();
    expect(schema()).toEqual(before);
    expect(read(file, (raw) => raw.prepare('PRAGMA user_version').get())).toEqual({ user_version: LOCAL_DB_VERSION });
  });
});

/** Schema 19: no customer search index, no generate job's customer. */
const SCHEMA_19_CUSTOMERS_TEXT = `
DROP TABLE job_customers;
DROP TABLE customers_text;
DROP TRIGGER customers_text_insert;
DROP TRIGGER customers_text_delete;
DROP TRIGGER customers_text_update;`;

/** Schema 18: the date indexes carry only the date and the value. */
const SCHEMA_18_DATES = `${SCHEMA_19_CUSTOMERS_TEXT}
DROP INDEX ledger_expires;
CREATE INDEX ledger_expires ON ledger (profile_id, expires_at, value);
DROP INDEX ledger_created;
CREATE INDEX ledger_created ON ledger (profile_id, created_at, value);`;

/** Schema 17: no capabilities, no HWID history. */
const SCHEMA_17_FACTS = `${SCHEMA_18_DATES}
DROP TRIGGER hwid_history_insert;
DROP TRIGGER hwid_history_update;
DROP TRIGGER hwid_history_delete;
DROP TABLE hwid_history;
DROP TABLE service_capabilities;`;

/** Schema 16: no customers. */
const SCHEMA_16_CUSTOMERS = `${SCHEMA_17_FACTS}
DROP TABLE customers; DROP TABLE customer_keys; DROP TABLE customer_settings;`;

/** Schema 15: no renewal templates, job labels or job steps. */
const SCHEMA_15_RENEWALS = `${SCHEMA_16_CUSTOMERS}
DROP TABLE renewal_templates;
DROP TABLE job_labels;
DROP TABLE job_events;`;

/** Schema 14: no activation time, nor Overview's indexes and tables. */
const SCHEMA_14_OVERVIEW = `${SCHEMA_15_RENEWALS}
DROP INDEX ledger_activated;
DROP TRIGGER ledger_days_insert;
DROP TRIGGER ledger_days_delete;
DROP TRIGGER ledger_days_update;
DROP TABLE ledger_days;
ALTER TABLE ledger DROP COLUMN activated_at;
DROP TABLE keydesk_runs;
DROP TABLE first_run;`;

/** Schema 13's audit log: an entry per bulk item, with no job or fields changed. */
const SCHEMA_13_AUDIT = `${SCHEMA_14_OVERVIEW}
DROP INDEX audit_by_job;
ALTER TABLE audit DROP COLUMN job_id;
ALTER TABLE audit DROP COLUMN counts;
ALTER TABLE audit DROP COLUMN before;
ALTER TABLE audit DROP COLUMN after;`;

/** Schema 12's text triggers: every row's entries written with the row. */
const SCHEMA_12_TEXT_TRIGGERS = `${SCHEMA_13_AUDIT}
DROP TABLE ledger_indexed;
DROP TRIGGER ledger_text_insert;
DROP TRIGGER ledger_text_delete;
DROP TRIGGER ledger_text_update;
DROP TRIGGER ledger_hwid_text_update;
CREATE TRIGGER ledger_text_insert AFTER INSERT ON ledger BEGIN
  INSERT INTO ledger_text (rowid, search) VALUES (new.id, substr(new.search, 1, length(new.search) - new.hwid_chars) || char(10, 10));
  INSERT INTO ledger_text (rowid, search) SELECT -new.id, substr(new.search, length(new.search) - new.hwid_chars + 1) || char(10, 10) WHERE new.hwid_chars > 0;
END;
CREATE TRIGGER ledger_text_delete AFTER DELETE ON ledger BEGIN
  DELETE FROM ledger_text WHERE rowid = old.id;
  DELETE FROM ledger_text WHERE rowid = -old.id AND old.hwid_chars > 0;
END;
CREATE TRIGGER ledger_text_update AFTER UPDATE OF id, search, hwid_chars ON ledger
WHEN old.id IS NOT new.id OR substr(old.search, 1, length(old.search) - old.hwid_chars) IS NOT substr(new.search, 1, length(new.search) - new.hwid_chars) BEGIN
  DELETE FROM ledger_text WHERE rowid = old.id;
  INSERT INTO ledger_text (rowid, search) VALUES (new.id, substr(new.search, 1, length(new.search) - new.hwid_chars) || char(10, 10));
END;
CREATE TRIGGER ledger_hwid_text_update AFTER UPDATE OF id, search, hwid_chars ON ledger
WHEN old.id IS NOT new.id OR substr(old.search, length(old.search) - old.hwid_chars + 1) IS NOT substr(new.search, length(new.search) - new.hwid_chars + 1) BEGIN
  DELETE FROM ledger_text WHERE rowid = -old.id AND old.hwid_chars > 0;
  INSERT INTO ledger_text (rowid, search) SELECT -new.id, substr(new.search, length(new.search) - new.hwid_chars + 1) || char(10, 10) WHERE new.hwid_chars > 0;
END;
PRAGMA user_version = 12;`;

describe('a keydesk.db of schema 12', () => {
  it('is migrated, its rows found by text and kept indexed', () => {
    const file = join(tempDir('keydesk-schema-'), 'keydesk.db');
    const made = new LocalDb(file);
    made.recordKeys(PROFILE, [key('KD-AAA', 'launch'), key('KD-BBB', 'resellers')]);
    made.close();
    read(file, (raw) => raw.exec(SCHEMA_12_TEXT_TRIGGERS));
    const current = join(tempDir('keydesk-schema-'), 'keydesk.db');
    new LocalDb(current).close();
    const schemaOf = (f: string): unknown[] =>
      read(f, (raw) => raw.prepare("SELECT type, name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name").all());

    const db = new LocalDb(file);
    expect(read(file, (raw) => raw.prepare('PRAGMA user_version').get())).toEqual({ user_version: LOCAL_DB_VERSION });
    expect(schemaOf(file)).toEqual(schemaOf(current));
    // Every row of the file is indexed already: none is left for a scan.
    expect(db.unindexed()).toBe(0);
    const values = (text: string): string[] =>
      db.queryLedger(PROFILE, { text }, { field: 'value', dir: 'asc' }, 0, 10).rows.map((r) => r.value);
    expect([values('resel'), values('hw-1'), values('aa')]).toEqual([['KD-BBB'], ['KD-AAA', 'KD-BBB'], ['KD-AAA']]);
    db.recordKeys(PROFILE, [key('KD-AAA', 'moved on'), key('KD-CCC', 'resellers too')]);
    expect([values('launch'), values('moved'), values('resel')]).toEqual([[], ['KD-AAA'], ['KD-BBB', 'KD-CCC']]);
    db.close();
  });

  it('is opened read-only only once a writing connection has brought it up', () => {
    const file = join(tempDir('keydesk-schema-'), 'keydesk.db');
    new LocalDb(file).close();
    read(file, (raw) => raw.exec(SCHEMA_12_TEXT_TRIGGERS));
    expect(() => new LocalDb(file, { readOnly: true })).toThrow(
      /^keydesk\.db is at schema 12: a writing connection brings it to \d+ first\.$/,
    );
    new LocalDb(file).close();
    const db = new LocalDb(file, { readOnly: true });
    expect(db.ledgerSize(PROFILE)).toBe(0);
    db.close();
  });
});

describe('a keydesk.db of schema 14', () => {
  it('is migrated, its keys kept and given no activation time', () => {
    const file = join(tempDir('keydesk-schema-'), 'keydesk.db');
    const made = new LocalDb(file);
    made.recordKeys(PROFILE, [{ ...key('KD-AAA', 'launch'), isPremium: true, expiresAt: '2026-05-01T00:00:00.000Z' }]);
    made.close();
    read(file, (raw) => raw.exec(`${SCHEMA_14_OVERVIEW}\nPRAGMA user_version = 14;`));
    const current = join(tempDir('keydesk-schema-'), 'keydesk.db');
    new LocalDb(current).close();
    const schemaOf = (f: string): unknown[] =>
      read(f, (raw) => raw.prepare("SELECT type, name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name").all());

    const db = new LocalDb(file);
    expect(schemaOf(file)).toEqual(schemaOf(current));
    expect(db.overviewFigures(PROFILE, Date.parse('2026-06-01T00:00:00.000Z'))).toMatchObject({
      total: 1,
      active: 1,
      activated30: 0,
      expired: 1,
      premium: 1,
    });
    db.recordKeys(PROFILE, [{ ...key('KD-AAA', 'launch'), isPremium: true, activatedAt: '2026-05-30T00:00:00.000Z' }]);
    expect(db.overviewFigures(PROFILE, Date.parse('2026-06-01T00:00:00.000Z'))).toMatchObject({ activated7: 1, expired: 0, premium: 1 });
    db.close();
  });
});

describe('a keydesk.db of schema 13', () => {
  it('is migrated, its audit entries kept as they were', () => {
    const file = join(tempDir('keydesk-schema-'), 'keydesk.db');
    new LocalDb(file).close();
    read(file, (raw) => {
      raw.exec(`${SCHEMA_13_AUDIT}\nPRAGMA user_version = 13;`);
      raw
        .prepare(
          "INSERT INTO audit (at, profile_id, profile_name, action, target, outcome, message) VALUES (?, 'p', 'Shop', 'keys.extend', 'KD-1', 'ok', '')",
        )
        .run('2026-01-01T00:00:00.000Z');
    });
    const current = join(tempDir('keydesk-schema-'), 'keydesk.db');
    new LocalDb(current).close();
    const schemaOf = (f: string): unknown[] =>
      read(f, (raw) => raw.prepare("SELECT type, name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name").all());

    const db = new LocalDb(file);
    expect(schemaOf(file)).toEqual(schemaOf(current));
    expect(db.listAudit({}, 0, 10).entries).toEqual([
      {
        id: 1,
        at: '2026-01-01T00:00:00.000Z',
        profileId: 'p',
        profileName: 'Shop',
        action: 'keys.extend',
        target: 'KD-1',
        outcome: 'ok',
        message: '',
      },
    ]);
    db.close();
  });
});

describe('a keydesk.db of schema 15', () => {
  it('is migrated, its jobs listed with no label and no steps', () => {
    const file = join(tempDir('keydesk-schema-'), 'keydesk.db');
    const made = new LocalDb(file);
    made.createJob(
      {
        id: '00000000-0000-4000-8000-000000000001',
        profileId: PROFILE,
        action: 'delete',
        params: '{}',
        createdAt: '2026-01-01T00:00:00.000Z',
      },
      { keyValues: ['KD-1'] },
    );
    made.close();
    read(file, (raw) => raw.exec(`${SCHEMA_15_RENEWALS}\nPRAGMA user_version = 15;`));
    const current = join(tempDir('keydesk-schema-'), 'keydesk.db');
    new LocalDb(current).close();
    const schemaOf = (f: string): unknown[] =>
      read(f, (raw) => raw.prepare("SELECT type, name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name").all());

    const db = new LocalDb(file);
    expect(schemaOf(file)).toEqual(schemaOf(current));
    expect(db.jobs(PROFILE).map((j) => [j.label, j.history])).toEqual([[null, []]]);
    db.close();
  });
});

describe('a keydesk.db of schema 17', () => {
  it("is migrated, the HWIDs its ledger holds starting each key's HWID history", () => {
    const file = join(tempDir('keydesk-schema-'), 'keydesk.db');
    const before = new LocalDb(file);
    before.recordKeys(PROFILE, [key('KD-BOUND', 'bound'), { ...key('KD-FREE', 'free'), hwid: null }], '2026-02-01T00:00:00.000Z');
    before.close();
    read(file, (raw) => raw.exec(`${SCHEMA_17_FACTS}\nPRAGMA user_version = 17;`));
    const current = join(tempDir('keydesk-schema-'), 'keydesk.db');
    new LocalDb(current).close();
    const schemaOf = (f: string): unknown[] =>
      read(f, (raw) => raw.prepare("SELECT type, name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name").all());

    const db = new LocalDb(file);
    expect(schemaOf(file)).toEqual(schemaOf(current));
    expect(db.hwidHistory(PROFILE, 'KD-BOUND')).toEqual([
      { at: '2026-02-01T00:00:00.000Z', kind: 'seen', hwid: 'HW-1', nextResetAt: null, source: 'ledger' },
    ]);
    expect(db.hwidHistory(PROFILE, 'KD-FREE')).toEqual([]);
    // From now on the ledger's own changes are written as they happen.
    db.markHwidCleared(PROFILE, ['KD-BOUND'], '2026-02-02T00:00:00.000Z');
    db.recordKeys(PROFILE, [{ ...key('KD-BOUND', 'bound'), hwid: 'HW-2' }], '2026-02-03T00:00:00.000Z');
    expect(db.hwidHistory(PROFILE, 'KD-BOUND').map((e) => `${e.kind} ${e.hwid ?? '-'}`)).toEqual(['bound HW-2', 'cleared -', 'seen HW-1']);
    db.close();
  });
});

describe('a keydesk.db of schema 18', () => {
  it('is migrated, its date indexes answering expiry filters alone', () => {
    const file = join(tempDir('keydesk-schema-'), 'keydesk.db');
    const before = new LocalDb(file);
    const soon = { ...key('KD-SOON', 'soon'), expiresAt: new Date(Date.now() + 3 * 86_400_000).toISOString() };
    before.recordKeys(PROFILE, [soon, key('KD-LATER', 'later')], '2026-02-01T00:00:00.000Z');
    before.close();
    read(file, (raw) => raw.exec(`${SCHEMA_18_DATES}\nPRAGMA user_version = 18;`));
    const columns = (index: string): string[] =>
      read(file, (raw) => (raw.prepare(`PRAGMA index_info(${index})`).all() as { name: string }[]).map((c) => c.name));
    expect(columns('ledger_expires')).toEqual(['profile_id', 'expires_at', 'value']);

    const db = new LocalDb(file);
    const page = db.queryLedger(PROFILE, { expiresWithin: 7 }, { field: 'expiresAt', dir: 'asc' }, 0, 10, { exact: true });
    expect([page.rows.map((r) => r.value), page.total]).toEqual([['KD-SOON'], 1]);
    db.close();
    const wide = ['profile_id', 'expires_at', 'value', 'status', 'is_premium', 'created_at', 'days_key'];
    expect(columns('ledger_expires')).toEqual(wide);
    expect(columns('ledger_created')).toEqual(['profile_id', 'created_at', 'value', 'status', 'is_premium', 'expires_at', 'days_key']);
  });
});

describe('a keydesk.db of schema 19', () => {
  it('is migrated, its customers found by part of a name', () => {
    const file = join(tempDir('keydesk-schema-'), 'keydesk.db');
    const before = new LocalDb(file);
    const fields = { name: 'Ada Lovelace', email: 'ada@example.com', discordId: '', reference: '', tags: [], note: '' };
    before.transaction(() => before.changeCustomers({ op: 'create', profileId: PROFILE, fields, at: '2026-01-01T00:00:00.000Z' }));
    before.close();
    read(file, (raw) => raw.exec(`${SCHEMA_19_CUSTOMERS_TEXT}\nPRAGMA user_version = 19;`));

    const db = new LocalDb(file);
    expect(db.listCustomers(PROFILE, { search: 'lovel' }).customers.map((c) => c.name)).toEqual(['Ada Lovelace']);
    db.close();
  });
});
