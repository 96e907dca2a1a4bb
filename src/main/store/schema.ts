// keydesk.db's schema in one piece, the migrations that bring an older file to it (each in one transaction), and
// the check that a file is at it or can be brought there (any other version is refused).
import type { DatabaseSync } from 'node:sqlite';

/** The schema this Keydesk writes (keydesk.db's user_version). */
export const LOCAL_DB_VERSION = 15;

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

/**
 * What each service can do and each key's HWID history (issue 29): one row per optional endpoint and profile as last
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

/**
 * Each older schema a file may be at, and the SQL that brings it to the next; each runs in one transaction.
 * 12: the text index's entries written after the row (ledger_indexed), every row of the file indexed already.
 * 13: a bulk act as one audit entry (its job and counts), and the fields an act on one key changed.
 * 14: what each service can do, and each key's HWID history (the HWIDs the ledger holds, as seen).
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
  14: `${SERVICE_FACTS}
INSERT INTO hwid_history (profile_id, value, at, kind, hwid, source)
  SELECT profile_id, value, last_seen_at, 'seen', hwid, 'ledger' FROM ledger WHERE hwid IS NOT NULL;`,
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
-- filter reads index entries, not rows.
CREATE INDEX ledger_created ON ledger (profile_id, created_at, value);
CREATE INDEX ledger_seen ON ledger (profile_id, last_seen_at, value);
CREATE INDEX ledger_expires ON ledger (profile_id, expires_at, value);
CREATE INDEX ledger_note ON ledger (profile_id, note, value);
CREATE INDEX ledger_status ON ledger (profile_id, status, value, is_premium);

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
-- What each service can do, and each key's HWID history (issue 29).
${SERVICE_FACTS}`;

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
