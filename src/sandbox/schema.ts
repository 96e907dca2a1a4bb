// The sandbox database schema and its migrations.
export const SCHEMA_VERSION = 3;

// AUTOINCREMENT: an id names one key or entry for the database's whole life, never reused (wire.md, "Real dialect").
const KEYS_TABLE = (name: string) => `
CREATE TABLE ${name} (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  service_id      INTEGER NOT NULL,
  value           TEXT NOT NULL UNIQUE,
  note_id         INTEGER NOT NULL,
  status          INTEGER NOT NULL,          -- 0 generated, 1 active
  is_premium      INTEGER NOT NULL,
  expires_by_days INTEGER NOT NULL,
  days_key        INTEGER,
  expires_at      INTEGER,                   -- epoch ms; NULL for an unactivated days key
  hwid            TEXT,
  created_at      INTEGER NOT NULL,
  activated_at    INTEGER,
  last_reset_at   INTEGER
);`;
const KEYS_INDEXES = `
CREATE INDEX keys_by_note ON keys (note_id, status);
CREATE INDEX keys_by_hwid ON keys (hwid) WHERE hwid IS NOT NULL;`;

const KEYLESS_TABLE = (name: string) => `
CREATE TABLE ${name} (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  service_id   INTEGER NOT NULL REFERENCES services(id),
  hwid         TEXT NOT NULL,
  is_premium   INTEGER NOT NULL,
  expires_at   INTEGER,
  created_at   INTEGER NOT NULL,
  last_used_at INTEGER,
  UNIQUE (service_id, hwid)
);`;

// Optional endpoints (wire.md, "Seen in vendors' code"): keys that validate on any machine, and each HWID reset's
// time, for --hwid-reset-limit's 30-day window and a key's reset history.
const V3 = `
ALTER TABLE keys ADD COLUMN no_hwid_validation INTEGER NOT NULL DEFAULT 0;
CREATE TABLE hwid_resets (
  key_id INTEGER NOT NULL,
  at     INTEGER NOT NULL
);
CREATE INDEX hwid_resets_by_key ON hwid_resets (key_id, at);`;

/** A new database, at SCHEMA_VERSION. Notes are stored once per text, with a trigram index for "note contains". */
export const SCHEMA = `
CREATE TABLE services (
  id              INTEGER PRIMARY KEY,
  public_id       TEXT NOT NULL UNIQUE,
  name            TEXT NOT NULL,
  identifier      TEXT NOT NULL UNIQUE COLLATE NOCASE,
  api_key_sha256  BLOB NOT NULL UNIQUE,
  execution_count INTEGER NOT NULL DEFAULT 0,
  created_at      INTEGER NOT NULL,
  -- Validation's OwnerSecretID: random, stable, unrelated to the apiKey.
  owner_secret_id TEXT UNIQUE
);

CREATE TABLE notes (
  id         INTEGER PRIMARY KEY,
  service_id INTEGER NOT NULL REFERENCES services(id),
  text       TEXT NOT NULL,
  UNIQUE (service_id, text)
);
CREATE VIRTUAL TABLE notes_fts USING fts5(text, content = 'notes', content_rowid = 'id', tokenize = 'trigram case_sensitive 0');
CREATE TRIGGER notes_ai AFTER INSERT ON notes BEGIN
  INSERT INTO notes_fts (rowid, text) VALUES (new.id, new.text);
END;
${KEYS_TABLE('keys')}
${KEYS_INDEXES}
${KEYLESS_TABLE('keyless')}
${V3}
`;

/**
 * Migrations, by the version they start from, each inside the transaction that sets user_version.
 * 1 → 2 rebuilds the tables for AUTOINCREMENT; the store fills in each OwnerSecretID. 2 → 3 adds the optional endpoints' columns.
 */
export const MIGRATIONS: Readonly<Record<number, string>> = {
  1: `
ALTER TABLE services ADD COLUMN owner_secret_id TEXT;
CREATE UNIQUE INDEX services_by_owner_secret ON services (owner_secret_id);
${KEYS_TABLE('keys_v2')}
INSERT INTO keys_v2 SELECT id, service_id, value, note_id, status, is_premium, expires_by_days, days_key, expires_at, hwid,
  created_at, activated_at, last_reset_at FROM keys;
DROP TABLE keys;
ALTER TABLE keys_v2 RENAME TO keys;
${KEYS_INDEXES}
${KEYLESS_TABLE('keyless_v2')}
INSERT INTO keyless_v2 SELECT id, service_id, hwid, is_premium, expires_at, created_at, last_used_at FROM keyless;
DROP TABLE keyless;
ALTER TABLE keyless_v2 RENAME TO keyless;
`,
  2: V3,
};
