// keydesk.db's schema in one piece, the migrations that bring an older file to it (each in one transaction), and
// the check that a file is at it or can be brought there (any other version is refused).
import type { DatabaseSync } from 'node:sqlite';

/** The schema this Keydesk writes (keydesk.db's user_version). */
export const LOCAL_DB_VERSION = 20;

/**
 * The sort indexes a large generate's rows land in at random (a column the batch shares, then the key value): the
 * writer thread drops them while such a batch goes in and builds each again in one pass once it is idle.
 */
export const DEFERRABLE_INDEXES: Readonly<Record<string, string>> = {
  ledger_expires:
    'CREATE INDEX IF NOT EXISTS ledger_expires ON ledger (profile_id, expires_at, value, status, is_premium, created_at, days_key)',
  ledger_note: 'CREATE INDEX IF NOT EXISTS ledger_note ON ledger (profile_id, note, value)',
  ledger_status: 'CREATE INDEX IF NOT EXISTS ledger_status ON ledger (profile_id, status, value, is_premium)',
};

/** The text index's triggers: they keep the entries of indexed rows (id up to ledger_indexed.upto) as rows change. */
const TEXT_TRIGGERS = `
CREATE TRIGGER ledger_text_insert AFTER INSERT ON ledger WHEN new.id <= (SELECT upto FROM ledger_indexed) BEGIN
  INSERT INTO ledger_text (rowid, search) VALUES (new.id, substr(new.search, 1, length(new.search) - new.hwid_chars) || char(10, 10));
  INSERT INTO ledger_text (rowid, search) SELECT -new.id, substr(new.search, length(new.search) - new.hwid_chars + 1) || char(10, 10) WHERE new.hwid_chars > 0;
END;
CREATE TRIGGER ledger_text_delete AFTER DELETE ON ledger WHEN old.id <= (SELECT upto FROM ledger_indexed) BEGIN
  DELETE FROM ledger_text WHERE rowid = old.id;
  DELETE FROM ledger_text WHERE rowid = -old.id AND old.hwid_chars > 0;
END;
CREATE TRIGGER ledger_text_update AFTER UPDATE OF id, search, hwid_chars ON ledger
WHEN old.id IS NOT new.id OR substr(old.search, 1, length(old.search) - old.hwid_chars) IS NOT substr(new.search, 1, length(new.search) - new.hwid_chars) BEGIN
  DELETE FROM ledger_text WHERE rowid = old.id AND old.id <= (SELECT upto FROM ledger_indexed);
  INSERT INTO ledger_text (rowid, search) SELECT new.id, substr(new.search, 1, length(new.search) - new.hwid_chars) || char(10, 10)
    WHERE new.id <= (SELECT upto FROM ledger_indexed);
END;
CREATE TRIGGER ledger_hwid_text_update AFTER UPDATE OF id, search, hwid_chars ON ledger
WHEN old.id IS NOT new.id OR substr(old.search, length(old.search) - old.hwid_chars + 1) IS NOT substr(new.search, length(new.search) - new.hwid_chars + 1) BEGIN
  DELETE FROM ledger_text WHERE rowid = -old.id AND old.hwid_chars > 0 AND old.id <= (SELECT upto FROM ledger_indexed);
  INSERT INTO ledger_text (rowid, search) SELECT -new.id, substr(new.search, length(new.search) - new.hwid_chars + 1) || char(10, 10)
    WHERE new.hwid_chars > 0 AND new.id <= (SELECT upto FROM ledger_indexed);
END;
`;

/** A ledger row's counts in ledger_days, added as it is now (new) and taken away as it was (old). */
const DAYS_ADD = `  INSERT INTO ledger_days (profile_id, kind, day, n)
  SELECT new.profile_id, kind, day, 1 FROM (
    SELECT 'e' AS kind, substr(new.expires_at, 1, 13) AS day WHERE new.expires_at IS NOT NULL AND new.status <> 'deleted'
    UNION ALL SELECT 'a', substr(new.activated_at, 1, 10) WHERE new.activated_at IS NOT NULL
    UNION ALL SELECT 'c', substr(new.created_at, 1, 10) WHERE new.created_at IS NOT NULL
    UNION ALL SELECT 'p', '' WHERE new.is_premium = 1) WHERE true
  ON CONFLICT (profile_id, kind, day) DO UPDATE SET n = n + 1;`;
const DAYS_SUB = `  UPDATE ledger_days SET n = n - 1 WHERE profile_id = old.profile_id AND (
    (kind = 'e' AND day = substr(old.expires_at, 1, 13) AND old.status <> 'deleted')
    OR (kind = 'a' AND day = substr(old.activated_at, 1, 10))
    OR (kind = 'c' AND day = substr(old.created_at, 1, 10))
    OR (kind = 'p' AND day = '' AND old.is_premium = 1));`;

/** Overview's columns, indexes, tables and triggers: migration 14, and the end of SCHEMA, so both read the same. */
const OVERVIEW_SCHEMA = `
-- Overview (home): each key's activation time (the key object's activatedAt); keys per profile, kind and UTC day or
-- hour, kept by triggers so its figures read few rows at any size (e: live keys by expiry hour, YYYY-MM-DDTHH, so
-- the part-hours at a window's ends read few rows; a: by activation day; c: by creation day; p: premium keys, day
-- ''); Keydesk's runs (the history chart marks where it was closed); and
-- the first-run steps done per profile.
ALTER TABLE ledger ADD COLUMN activated_at TEXT;
CREATE INDEX ledger_activated ON ledger (profile_id, activated_at) WHERE activated_at IS NOT NULL;
CREATE TABLE ledger_days (profile_id TEXT NOT NULL, kind TEXT NOT NULL, day TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (profile_id, kind, day)) WITHOUT ROWID;
CREATE TRIGGER ledger_days_insert AFTER INSERT ON ledger BEGIN
${DAYS_ADD}
END;
CREATE TRIGGER ledger_days_delete AFTER DELETE ON ledger BEGIN
${DAYS_SUB}
END;
CREATE TRIGGER ledger_days_update AFTER UPDATE OF profile_id, status, expires_at, activated_at, created_at, is_premium ON ledger
WHEN old.profile_id IS NOT new.profile_id OR (old.status = 'deleted') IS NOT (new.status = 'deleted') OR old.expires_at IS NOT new.expires_at
  OR old.activated_at IS NOT new.activated_at OR old.created_at IS NOT new.created_at OR old.is_premium IS NOT new.is_premium BEGIN
${DAYS_SUB}
${DAYS_ADD}
END;
INSERT INTO ledger_days (profile_id, kind, day, n)
SELECT profile_id, kind, day, count(*) FROM (
  SELECT profile_id, 'e' AS kind, substr(expires_at, 1, 13) AS day FROM ledger WHERE expires_at IS NOT NULL AND status <> 'deleted'
  UNION ALL SELECT profile_id, 'c', substr(created_at, 1, 10) FROM ledger WHERE created_at IS NOT NULL
  UNION ALL SELECT profile_id, 'p', '' FROM ledger WHERE is_premium = 1)
GROUP BY profile_id, kind, day;
CREATE TABLE keydesk_runs (started_at TEXT PRIMARY KEY, alive_at TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE first_run (profile_id TEXT NOT NULL, step TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (profile_id, step)) WITHOUT ROWID;
`;

/** Renewals' templates and a job's label and steps: in SCHEMA, and what migration 14 adds. */
const RENEWALS_TABLES = `CREATE TABLE renewal_templates (profile_id TEXT PRIMARY KEY, template TEXT NOT NULL);
CREATE TABLE job_labels (job_id TEXT PRIMARY KEY, label TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE job_events (
  job_id TEXT NOT NULL,
  seq    INTEGER NOT NULL,
  at     TEXT NOT NULL,
  event  TEXT NOT NULL,
  done   INTEGER NOT NULL,
  total  INTEGER NOT NULL,
  PRIMARY KEY (job_id, seq)
) WITHOUT ROWID;`;

/** The book's tables (schema 16): a new file and migration 16 make them alike. */
const CUSTOMERS = `
-- Customers: the vendor's book, per profile, never sent to the service. tags: a JSON array; search: name, email,
-- Discord ID, reference and tags lower-cased, one per line. customer_keys: who holds a key, at most one customer
-- per key (a key not yet in the ledger may be held too). customer_settings: the note a customer's keys get. Ids are never reused:
-- Activity and filters name a customer by id.
CREATE TABLE customers (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  profile_id TEXT NOT NULL,
  name       TEXT NOT NULL,
  email      TEXT NOT NULL,
  discord_id TEXT NOT NULL,
  reference  TEXT NOT NULL,
  tags       TEXT NOT NULL,
  note       TEXT NOT NULL,
  search     TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX customers_by_name ON customers (profile_id, name COLLATE NOCASE, id);
CREATE INDEX customers_by_discord ON customers (profile_id, discord_id) WHERE discord_id <> '';
CREATE INDEX customers_by_email ON customers (profile_id, email COLLATE NOCASE) WHERE email <> '';
CREATE TABLE customer_keys (
  profile_id  TEXT NOT NULL,
  value       TEXT NOT NULL,
  customer_id INTEGER NOT NULL,
  PRIMARY KEY (profile_id, value)
) WITHOUT ROWID;
CREATE INDEX customer_keys_by_customer ON customer_keys (customer_id, value);
CREATE TABLE customer_settings (profile_id TEXT PRIMARY KEY, note_template TEXT NOT NULL);
`;

/**
 * Customer search by part of a name, email, Discord ID, reference or tag: a trigram index of customers.search, which
 * its triggers keep, so a word of 3 characters or more reads the customers holding it, not all of them.
 */
const CUSTOMERS_TEXT = `
CREATE VIRTUAL TABLE customers_text USING fts5 (search, content = 'customers', content_rowid = 'id', tokenize = 'trigram case_sensitive 1', detail = 'none');
CREATE TRIGGER customers_text_insert AFTER INSERT ON customers BEGIN
  INSERT INTO customers_text (rowid, search) VALUES (new.id, new.search);
END;
CREATE TRIGGER customers_text_delete AFTER DELETE ON customers BEGIN
  INSERT INTO customers_text (customers_text, rowid, search) VALUES ('delete', old.id, old.search);
END;
CREATE TRIGGER customers_text_update AFTER UPDATE OF search ON customers BEGIN
  INSERT INTO customers_text (customers_text, rowid, search) VALUES ('delete', old.id, old.search);
  INSERT INTO customers_text (rowid, search) VALUES (new.id, new.search);
END;
`;

/** The customer a generate job's keys go to, as it records them (jobs-store.ts settles, customers.ts links). */
const JOB_CUSTOMERS = `CREATE TABLE job_customers (job_id TEXT PRIMARY KEY, customer_id INTEGER NOT NULL) WITHOUT ROWID;`;

/**
 * What each service can do and each key's HWID history: one row per optional endpoint and profile as last
 * checked, and one per HWID change the ledger saw (its triggers write them, on the writer thread) or act recorded.
 */
const SERVICE_FACTS = `
CREATE TABLE service_capabilities (
  profile_id TEXT NOT NULL,
  endpoint   TEXT NOT NULL,
  state      TEXT NOT NULL,
  checked_at TEXT NOT NULL,
  evidence   TEXT NOT NULL,
  PRIMARY KEY (profile_id, endpoint)
) WITHOUT ROWID;
CREATE TABLE hwid_history (
  id            INTEGER PRIMARY KEY,
  profile_id    TEXT NOT NULL,
  value         TEXT NOT NULL,
  at            TEXT NOT NULL,
  kind          TEXT NOT NULL,
  hwid          TEXT,
  next_reset_at TEXT,
  source        TEXT NOT NULL
);
CREATE INDEX hwid_history_by_key ON hwid_history (profile_id, value, at);
CREATE TRIGGER hwid_history_insert AFTER INSERT ON ledger WHEN new.hwid IS NOT NULL BEGIN
  INSERT INTO hwid_history (profile_id, value, at, kind, hwid, source) VALUES (new.profile_id, new.value, new.last_seen_at, 'bound', new.hwid, 'ledger');
END;
CREATE TRIGGER hwid_history_update AFTER UPDATE OF hwid ON ledger WHEN old.hwid IS NOT new.hwid BEGIN
  INSERT INTO hwid_history (profile_id, value, at, kind, hwid, source)
  VALUES (new.profile_id, new.value, new.last_seen_at,
    CASE WHEN new.hwid IS NULL THEN 'cleared' WHEN old.hwid IS NULL THEN 'bound' ELSE 'changed' END, new.hwid, 'ledger');
END;
CREATE TRIGGER hwid_history_delete AFTER DELETE ON ledger BEGIN
  DELETE FROM hwid_history WHERE profile_id = old.profile_id AND value = old.value;
END;
`;

const LEDGER_CREATED = 'CREATE INDEX ledger_created ON ledger (profile_id, created_at, value, status, is_premium, expires_at, days_key)';

/**
 * Expiry filters (Renewals, Overview): the expiry and creation indexes carry status, premium, the other date and the
 * days term, so an expiry or creation filter counts, and pages by either date, from index entries (no row per match).
 */
const DATE_FILTERS = `
DROP INDEX IF EXISTS ledger_expires;
${DEFERRABLE_INDEXES['ledger_expires']};
DROP INDEX ledger_created;
${LEDGER_CREATED};
`;

/**
 * Each older schema a file may be at, and the SQL that brings it to the next; each runs in one transaction.
 * 12: the text index's entries written after the row (ledger_indexed), every row of the file indexed already.
 * 13: a bulk act as one audit entry (its job and counts), and the fields an act on one key changed.
 * 14: Overview's figures: keys' activation time, keys per day kept by triggers, Keydesk's runs, first-run steps.
 * 15: renewals and what jobs touched: a profile's renewal message, a job's target in words and its runs' steps.
 * 16: customers (the vendor's book), which customer holds each key, and the profile's note template.
 * 17: what each service can do, and each key's HWID history (the HWIDs the ledger holds, as seen).
 * 18: expiry filters read from the date indexes alone (DATE_FILTERS).
 * 19: customer search (a trigram index of the customers' search text), and the customer of a generate job.
 */
export const MIGRATIONS: Readonly<Record<number, string>> = {
  12: `CREATE TABLE ledger_indexed (upto INTEGER NOT NULL);
INSERT INTO ledger_indexed (upto) SELECT coalesce(max(id), 0) FROM ledger;
DROP TRIGGER ledger_text_insert;
DROP TRIGGER ledger_text_delete;
DROP TRIGGER ledger_text_update;
DROP TRIGGER ledger_hwid_text_update;
${TEXT_TRIGGERS}`,
  13: `ALTER TABLE audit ADD COLUMN job_id TEXT;
ALTER TABLE audit ADD COLUMN counts TEXT;
ALTER TABLE audit ADD COLUMN before TEXT;
ALTER TABLE audit ADD COLUMN after TEXT;
CREATE INDEX audit_by_job ON audit (job_id) WHERE job_id IS NOT NULL;`,
  14: OVERVIEW_SCHEMA,
  15: RENEWALS_TABLES,
  16: CUSTOMERS,
  17: `${SERVICE_FACTS}
INSERT INTO hwid_history (profile_id, value, at, kind, hwid, source)
  SELECT profile_id, value, last_seen_at, 'seen', hwid, 'ledger' FROM ledger WHERE hwid IS NOT NULL;`,
  // Expiry filters from the date indexes alone (Renewals, Overview).
  18: DATE_FILTERS,
  // Customers: search by trigrams, and a generate job's customer.
  19: `${CUSTOMERS_TEXT}
INSERT INTO customers_text (customers_text) VALUES ('rebuild');
${JOB_CUSTOMERS}`,
};

export const SCHEMA = `
-- The keys this app generated or has seen, per profile. search: value, note and HWID lower-cased, each part
-- after a newline; hwid_chars: how many characters at its end are the HWID (indexed apart in ledger_text).
-- The three *_stale marks hold when an act with no answer left the field as seen before (ms; 0: not marked).
CREATE TABLE ledger (
  id           INTEGER PRIMARY KEY,
  profile_id   TEXT NOT NULL,
  value        TEXT NOT NULL,
  note         TEXT NOT NULL,
  status       TEXT NOT NULL,
  is_premium   INTEGER NOT NULL,
  expires_at   TEXT,
  hwid         TEXT,
  created_at   TEXT,
  last_seen_at TEXT NOT NULL,
  search       TEXT NOT NULL,
  days_key     INTEGER,
  expiry_stale INTEGER NOT NULL DEFAULT 0,
  hwid_chars   INTEGER NOT NULL DEFAULT 0,
  hwid_stale   INTEGER NOT NULL DEFAULT 0,
  status_stale INTEGER NOT NULL DEFAULT 0,
  UNIQUE (profile_id, value)
);
-- Each sort index carries the value, the sort's tiebreaker; the status index carries premium too, so a premium
-- filter reads index entries, not rows. The date indexes carry what an expiry or creation filter asks of a row.
${LEDGER_CREATED};
CREATE INDEX ledger_seen ON ledger (profile_id, last_seen_at, value);
${Object.values(DEFERRABLE_INDEXES).join(';\n')};

-- Bulk work as persisted jobs (src/main/jobs/), their items, and the keys each generate job made.
CREATE TABLE jobs (
  id          TEXT PRIMARY KEY,
  profile_id  TEXT NOT NULL,
  action      TEXT NOT NULL,
  params      TEXT NOT NULL,             -- JSON: days, or generate's parameters
  state       TEXT NOT NULL,
  reason      TEXT,
  created_at  TEXT NOT NULL,
  finished_at TEXT,
  total       INTEGER NOT NULL,
  run_at      TEXT,                      -- when its current (or last) run began
  answered_at TEXT,                      -- when that run's last answers were written
  end_unseen  INTEGER NOT NULL DEFAULT 0 -- 1: Keydesk stopped under it; finished_at is when it was last known at work
);
CREATE INDEX jobs_by_profile ON jobs (profile_id, created_at);
CREATE TABLE job_items (
  job_id  TEXT NOT NULL,
  seq     INTEGER NOT NULL,
  target  TEXT NOT NULL,
  size    INTEGER NOT NULL,
  state   TEXT NOT NULL,
  code    TEXT,
  message TEXT,
  PRIMARY KEY (job_id, seq)
) WITHOUT ROWID;
CREATE INDEX job_items_by_state ON job_items (job_id, state, seq);
CREATE TABLE profile_settings (profile_id TEXT PRIMARY KEY, bulk_ceiling INTEGER);
CREATE TABLE job_keys (job_id TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (job_id, value)) WITHOUT ROWID;

-- Execution samples for the history chart: min and max count per time range come from the index alone.
CREATE TABLE samples (
  profile_id TEXT NOT NULL,
  at         TEXT NOT NULL,
  count      INTEGER NOT NULL
);
CREATE INDEX samples_by_time_count ON samples (profile_id, at, count);

-- One entry per act. A bulk act's job_id names its job (its items are the job's) and counts holds its keys per
-- outcome as its last run ended (JSON). before and after: the fields an act on one key changed, as the ledger held
-- them and as read back (JSON; a field left out was never read). The last columns are laid out as migration 13's
-- ALTER TABLE writes them, so a migrated file's schema reads the same.
CREATE TABLE audit (
  id           INTEGER PRIMARY KEY,
  at           TEXT NOT NULL,
  profile_id   TEXT NOT NULL,
  profile_name TEXT NOT NULL,
  action       TEXT NOT NULL,
  target       TEXT NOT NULL,
  outcome      TEXT NOT NULL,
  message      TEXT NOT NULL
, job_id TEXT, counts TEXT, before TEXT, after TEXT);
CREATE INDEX audit_by_time ON audit (at);
CREATE INDEX audit_by_job ON audit (job_id) WHERE job_id IS NOT NULL;

-- Keys per profile and status, kept by triggers for every writer: read, not counted (a count is a pass over the index).
CREATE TABLE ledger_counts (
  profile_id TEXT NOT NULL,
  status     TEXT NOT NULL,
  n          INTEGER NOT NULL,
  PRIMARY KEY (profile_id, status)
) WITHOUT ROWID;
CREATE TRIGGER ledger_counts_insert AFTER INSERT ON ledger BEGIN
  INSERT INTO ledger_counts (profile_id, status, n) VALUES (new.profile_id, new.status, 1) ON CONFLICT (profile_id, status) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER ledger_counts_delete AFTER DELETE ON ledger BEGIN
  UPDATE ledger_counts SET n = n - 1 WHERE profile_id = old.profile_id AND status = old.status;
END;
CREATE TRIGGER ledger_counts_update AFTER UPDATE OF profile_id, status ON ledger
WHEN old.profile_id IS NOT new.profile_id OR old.status IS NOT new.status BEGIN
  UPDATE ledger_counts SET n = n - 1 WHERE profile_id = old.profile_id AND status = old.status;
  INSERT INTO ledger_counts (profile_id, status, n) VALUES (new.profile_id, new.status, 1) ON CONFLICT (profile_id, status) DO UPDATE SET n = n + 1;
END;

-- Every change to a row's place in a sort or a status or premium filter, for the deep-page anchors to follow:
-- the row as it was (was 1), or only its key when new (was 0). About the last 32,768 entries are kept.
CREATE TABLE ledger_log (
  seq          INTEGER PRIMARY KEY,
  profile_id   TEXT NOT NULL,
  value        TEXT NOT NULL,
  was          INTEGER NOT NULL,
  note         TEXT,
  status       TEXT,
  is_premium   INTEGER,
  expires_at   TEXT,
  created_at   TEXT,
  last_seen_at TEXT
);
CREATE TRIGGER ledger_log_insert AFTER INSERT ON ledger BEGIN
  INSERT INTO ledger_log (profile_id, value, was) VALUES (new.profile_id, new.value, 0);
END;
CREATE TRIGGER ledger_log_delete AFTER DELETE ON ledger BEGIN
  INSERT INTO ledger_log (profile_id, value, was, note, status, is_premium, expires_at, created_at, last_seen_at)
  VALUES (old.profile_id, old.value, 1, old.note, old.status, old.is_premium, old.expires_at, old.created_at, old.last_seen_at);
END;
CREATE TRIGGER ledger_log_update AFTER UPDATE ON ledger
WHEN old.profile_id IS NOT new.profile_id OR old.value IS NOT new.value OR old.note IS NOT new.note OR old.status IS NOT new.status
  OR old.is_premium IS NOT new.is_premium OR old.expires_at IS NOT new.expires_at OR old.created_at IS NOT new.created_at
  OR old.last_seen_at IS NOT new.last_seen_at BEGIN
  INSERT INTO ledger_log (profile_id, value, was, note, status, is_premium, expires_at, created_at, last_seen_at)
  VALUES (old.profile_id, old.value, 1, old.note, old.status, old.is_premium, old.expires_at, old.created_at, old.last_seen_at);
  INSERT INTO ledger_log (profile_id, value, was) SELECT new.profile_id, new.value, 0 WHERE old.profile_id IS NOT new.profile_id OR old.value IS NOT new.value;
END;
CREATE TRIGGER ledger_log_trim AFTER INSERT ON ledger_log WHEN new.seq % 1024 = 0 BEGIN
  DELETE FROM ledger_log WHERE seq <= new.seq - 32768;
END;

-- A trigram index of the search text, so a text filter reads the rows holding its trigrams. A row's value and
-- note are entry id, its HWID entry -id (an HWID change rewrites only those trigrams). Each entry ends in two
-- newlines, so every character starts a trigram and a 1- or 2-character term is found through those starting
-- with it (ledger_trigrams lists them). Rows up to ledger_indexed.upto have their entries; rows after it (new ones)
-- are indexed later (LedgerWrites.indexText) and a text filter scans them meanwhile.
CREATE VIRTUAL TABLE ledger_text USING fts5 (search, content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 1', detail = 'none');
CREATE VIRTUAL TABLE ledger_trigrams USING fts5vocab (ledger_text, 'row');
CREATE TABLE ledger_indexed (upto INTEGER NOT NULL);
INSERT INTO ledger_indexed (upto) VALUES (0);
${TEXT_TRIGGERS}
${OVERVIEW_SCHEMA}
-- Renewals and what jobs touched: a profile's renewal message template ({key}, {expires}, {days}), a job's target
-- in words ("notes containing launch-2026"), and the steps of its life (started, cancelled at 8 of 499, resumed).
${RENEWALS_TABLES}
${CUSTOMERS}
${CUSTOMERS_TEXT}
${JOB_CUSTOMERS}
-- What each service can do, and each key's HWID history.
${SERVICE_FACTS}
`;

/** keydesk.db refused as it is (a file of another schema), left untouched. */
export class LocalDbRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LocalDbRefused';
  }
}

/** keydesk.db's schema version (0 for a new file). */
export const versionOf = (db: DatabaseSync): number => (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;

/**
 * Why this Keydesk cannot open keydesk.db (a file of another schema), or null when it can: at LOCAL_DB_VERSION,
 * at a version MIGRATIONS brings to it (unless `readOnly`), or new (version 0 with nothing in it). Reads only, so
 * a refused file is left as it was.
 */
export function refusal(db: DatabaseSync, readOnly = false): string | null {
  const version = versionOf(db);
  if (version === LOCAL_DB_VERSION) return null;
  if (version in MIGRATIONS)
    return readOnly ? `keydesk.db is at schema ${version}: a writing connection brings it to ${LOCAL_DB_VERSION} first.` : null;
  if (version === 0 && db.prepare('SELECT 1 FROM sqlite_schema LIMIT 1').get() === undefined) return null;
  if (version > LOCAL_DB_VERSION) return `keydesk.db was written by a newer Keydesk (schema ${version}); update Keydesk to open it.`;
  return `keydesk.db was made by a pre-release Keydesk (schema ${version}): move it aside to start fresh.`;
}
