// The sandbox database schema. Notes are stored once per distinct text (a batch shares one), and a trigram
// FTS5 index over them answers "note contains T, ignoring case" without scanning keys.
export const SCHEMA_VERSION = 1;

export const SCHEMA_V1 = `
CREATE TABLE services (
  id              INTEGER PRIMARY KEY,
  public_id       TEXT NOT NULL UNIQUE,
  name            TEXT NOT NULL,
  identifier      TEXT NOT NULL UNIQUE COLLATE NOCASE,
  api_key_sha256  BLOB NOT NULL UNIQUE,
  execution_count INTEGER NOT NULL DEFAULT 0,
  created_at      INTEGER NOT NULL
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

CREATE TABLE keys (
  id              INTEGER PRIMARY KEY,
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
);
CREATE INDEX keys_by_note ON keys (note_id, status);
CREATE INDEX keys_by_hwid ON keys (hwid) WHERE hwid IS NOT NULL;

CREATE TABLE keyless (
  id           INTEGER PRIMARY KEY,
  service_id   INTEGER NOT NULL REFERENCES services(id),
  hwid         TEXT NOT NULL,
  is_premium   INTEGER NOT NULL,
  expires_at   INTEGER,
  created_at   INTEGER NOT NULL,
  last_used_at INTEGER,
  UNIQUE (service_id, hwid)
);
`;
