// keydesk.db as schema 3 (the release before the ledger's text index, migration 4) left it, frozen here with its
// indexes, and filled with realistic rows: what a vendor upgrading from that release opens the new Keydesk on.
// Used by the migration tests and `npm run bench -- --only migration`.
import { DatabaseSync } from 'node:sqlite';
import { splitStatements } from '../../src/main/store/sql-statements.ts';

export const SCHEMA_3 = `
  CREATE TABLE ledger (profile_id TEXT NOT NULL, value TEXT NOT NULL, note TEXT NOT NULL, status TEXT NOT NULL,
    is_premium INTEGER NOT NULL, expires_at TEXT, hwid TEXT, created_at TEXT, last_seen_at TEXT NOT NULL,
    search TEXT NOT NULL, days_key INTEGER, PRIMARY KEY (profile_id, value)) WITHOUT ROWID;
  CREATE INDEX ledger_created ON ledger (profile_id, created_at);
  CREATE INDEX ledger_seen ON ledger (profile_id, last_seen_at);
  CREATE INDEX ledger_expires ON ledger (profile_id, expires_at);
  CREATE INDEX ledger_note ON ledger (profile_id, note);
  CREATE INDEX ledger_status ON ledger (profile_id, status);
  CREATE INDEX ledger_search ON ledger (profile_id, search);
  CREATE TABLE samples (profile_id TEXT NOT NULL, at TEXT NOT NULL, count INTEGER NOT NULL);
  CREATE INDEX samples_by_time_count ON samples (profile_id, at, count);
  CREATE TABLE audit (id INTEGER PRIMARY KEY, at TEXT NOT NULL, profile_id TEXT NOT NULL, profile_name TEXT NOT NULL,
    action TEXT NOT NULL, target TEXT NOT NULL, outcome TEXT NOT NULL, message TEXT NOT NULL);
  CREATE INDEX audit_by_time ON audit (at);
  CREATE TABLE jobs (id TEXT PRIMARY KEY, profile_id TEXT NOT NULL, action TEXT NOT NULL, params TEXT NOT NULL,
    state TEXT NOT NULL, reason TEXT, created_at TEXT NOT NULL, finished_at TEXT, total INTEGER NOT NULL);
  CREATE INDEX jobs_by_profile ON jobs (profile_id, created_at);
  CREATE TABLE job_items (job_id TEXT NOT NULL, seq INTEGER NOT NULL, target TEXT NOT NULL, size INTEGER NOT NULL,
    state TEXT NOT NULL, code TEXT, message TEXT, PRIMARY KEY (job_id, seq)) WITHOUT ROWID;
  CREATE INDEX job_items_by_state ON job_items (job_id, state, seq);
  CREATE TABLE profile_settings (profile_id TEXT PRIMARY KEY, bulk_ceiling INTEGER);
  PRAGMA user_version = 3;`;

const ALPHABET = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const NOTES = ['', 'Spring sale', 'Reseller: Müller GmbH', 'Trial', 'Enterprise seat', 'Café Größe'];

/** A seeded generator (mulberry32), so every run writes the same rows. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A key value as the service prints them: five groups of five. */
function keyValue(r: () => number): string {
  let s = '';
  for (let i = 0; i < 25; i++) {
    if (i > 0 && i % 5 === 0) s += '-';
    s += ALPHABET.charAt(Math.floor(r() * ALPHABET.length));
  }
  return s;
}

/**
 * Writes a schema-3 keydesk.db at `file` holding `keys` ledger rows spread over `profileIds` (default p0 and p1),
 * with a sample, an audit entry and a job. WAL, as Keydesk keeps it.
 */
export function writeVersion3(file: string, keys: number, options: { profileIds?: readonly string[]; seed?: number } = {}): void {
  const r = rng(options.seed ?? 1);
  const profileIds = options.profileIds ?? ['p0', 'p1'];
  const db = new DatabaseSync(file);
  try {
    db.exec('PRAGMA journal_mode = WAL');
    // The indexes are built once the rows are in (the same file, written many times faster at 1,000,000 rows).
    const statements = splitStatements(SCHEMA_3);
    const isIndex = (sql: string): boolean => sql.startsWith('CREATE INDEX');
    for (const sql of statements.filter((x) => !isIndex(x))) db.exec(sql);
    const insert = db.prepare('INSERT INTO ledger VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    db.exec('BEGIN');
    for (let i = 0; i < keys; i++) {
      if (i > 0 && i % 50_000 === 0) db.exec('COMMIT; BEGIN');
      const value = keyValue(r);
      const note = NOTES[Math.floor(r() * NOTES.length)] ?? '';
      const pick = r();
      const status = pick < 0.7 ? 'generated' : pick < 0.95 ? 'active' : 'deleted';
      const hwid = status === 'active' ? `HW-${Math.floor(r() * 1e9).toString(16)}` : null;
      const expiresAt = r() < 0.2 ? null : new Date(Date.UTC(2027, 0, 1 + Math.floor(r() * 900))).toISOString();
      const daysKey = expiresAt === null && r() < 0.5 ? 1 + Math.floor(r() * 90) : null;
      const createdAt = new Date(Date.UTC(2025, 0, 1, 0, 0, Math.floor(r() * 60_000_000))).toISOString();
      insert.run(
        profileIds[i % profileIds.length] ?? 'p0',
        value,
        note,
        status,
        r() < 0.25 ? 1 : 0,
        expiresAt,
        hwid,
        createdAt,
        createdAt,
        `${value}\n${note}\n${hwid ?? ''}`.toLowerCase(),
        daysKey,
      );
    }
    db.exec('COMMIT');
    for (const sql of statements.filter(isIndex)) db.exec(sql);
    db.exec(`INSERT INTO samples VALUES ('p0', '2026-03-01T00:00:00.000Z', 10), ('p0', '2026-03-01T01:00:00.000Z', 12);
      INSERT INTO audit (at, profile_id, profile_name, action, target, outcome, message)
        VALUES ('2026-03-01T00:00:00.000Z', 'p0', 'Demo', 'keys.generate', '3 keys', 'ok', 'Generated 3 keys.');
      INSERT INTO jobs VALUES ('j1', 'p0', 'extend', '{"days":2}', 'done', NULL, '2026-03-01T00:00:00.000Z', '2026-03-01T00:01:00.000Z', 1);`);
  } finally {
    db.close();
  }
}
