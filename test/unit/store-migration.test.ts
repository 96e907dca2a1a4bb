// A database written by the first schema opens, upgrades in place, keeps every row, and from then on never
// reuses an id and answers validation with an OwnerSecretID.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/sandbox/schema.ts';
import { batchKeys, keyPublicId, sha256, SandboxStore } from '../../src/sandbox/store.ts';
import { tempDir } from '../support/temp-dir.ts';

/** Schema 1, as Keydesk 0.1 wrote it. */
const SCHEMA_1 = `
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
);`;

function version1Database(): string {
  const dir = tempDir('keydesk-migrate-');
  const file = join(dir, 'v1.db');
  const db = new DatabaseSync(file);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec(SCHEMA_1);
  db.exec('PRAGMA user_version = 1');
  db.prepare(
    "INSERT INTO services (id, public_id, name, identifier, api_key_sha256, created_at) VALUES (1, 'svc_old', 'Old', 'old', ?, 0)",
  ).run(sha256('kd_old'));
  db.exec("INSERT INTO notes (id, service_id, text) VALUES (1, 1, 'legacy')");
  for (const id of [1, 2]) {
    db.prepare(
      'INSERT INTO keys (id, service_id, value, note_id, status, is_premium, expires_by_days, expires_at, created_at) VALUES (?, 1, ?, 1, 0, 0, 0, ?, 0)',
    ).run(id, `OLD-KEY-${id}`, Date.UTC(2099, 0, 1));
  }
  db.exec("INSERT INTO keyless (id, service_id, hwid, is_premium, created_at) VALUES (1, 1, 'OLD-HW', 1, 0)");
  db.close();
  return file;
}

describe('upgrading a schema 1 database', () => {
  it('keeps every key and entry, adds an OwnerSecretID, and never reuses ids', () => {
    const file = version1Database();
    const store = new SandboxStore(file);
    let secret: string | undefined;
    try {
      expect(store.inspect('PRAGMA user_version')[0]).toEqual({ user_version: SCHEMA_VERSION });
      const service = store.serviceByApiKey('kd_old');
      secret = service?.ownerSecretId;
      expect(secret).toMatch(/^[0-9a-f-]{36}$/);
      expect(store.searchKeys(1, 'generated', 'legacy', 10, 0).items.map((k) => k.id)).toEqual([keyPublicId(2), keyPublicId(1)]);
      expect(store.searchKeyless(1, 'OLD-HW', 10, 0).best?.isPremium).toBe(true);

      const params = { count: 1, isPremium: false, note: 'new', expire: '2099-01-01', expiresByDaysKey: false, daysKey: null };
      const [made] = batchKeys(store.generateKeys(1, params));
      store.deleteKey(1, made?.value ?? '', false);
      const [next] = batchKeys(store.generateKeys(1, params));
      expect(next?.id).not.toBe(made?.id);
      const v = store.validate('old', 'OLD-KEY-1', 'HW', false, 'keyless');
      expect(v.V2_Authentication).toBe('success');
      expect(v.OwnerSecretID).toBe(service?.ownerSecretId);
    } finally {
      store.close();
    }
    // Reopening does not migrate again, and the secret is stable.
    const again = new SandboxStore(file);
    try {
      expect(again.serviceByApiKey('kd_old')?.ownerSecretId).toBe(secret);
      expect(again.inspect('PRAGMA integrity_check')[0]).toEqual({ integrity_check: 'ok' });
    } finally {
      again.close();
    }
  });
});
