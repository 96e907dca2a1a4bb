// The sandbox's storage: node:sqlite in WAL mode. Every write is one transaction, so a crash at any moment
// leaves either all of a batch or none of it. The store speaks domain terms and throws WireError for the
// outcomes the wire contract names (not found, conflict, cooldown, out-of-range results).
import { createHash, randomUUID } from 'node:crypto';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { addDays, charLength, endOfUtcDay, isIdentifier, LIMITS, MAX_EXPIRES_AT_MS, utcDate } from '../shared/rules.ts';
import type { ValidationBody, ValidationOutcome, WireKey, WireKeylessEntry } from '../shared/wire.ts';
import { invalid, notFound, WireError } from './errors.ts';
import { generateKeyBlock, KEY_LENGTH, newApiKey, publicId, type KeyValueBlock } from './keygen.ts';
import { MIGRATIONS, SCHEMA, SCHEMA_VERSION } from './schema.ts';

const GENERATED = 0;
const ACTIVE = 1;
const MINUTE_MS = 60_000;

export interface ServiceRecord {
  id: number;
  publicId: string;
  name: string;
  identifier: string;
  /** Validation's OwnerSecretID: opaque, stable, never derived from the apiKey. */
  ownerSecretId: string;
}

interface KeyRow {
  id: number;
  service_id: number;
  value: string;
  note: string;
  status: number;
  is_premium: number;
  expires_by_days: number;
  days_key: number | null;
  expires_at: number | null;
  hwid: string | null;
  created_at: number;
  activated_at: number | null;
  last_reset_at: number | null;
}

interface KeylessRow {
  id: number;
  hwid: string;
  is_premium: number;
  expires_at: number | null;
  created_at: number;
  last_used_at: number | null;
}

export interface GenerateParams {
  count: number;
  isPremium: boolean;
  note: string;
  /** Checked calendar date; the fixed expiry day. Ignored for days keys. */
  expire: string;
  expiresByDaysKey: boolean;
  daysKey: number | null;
}

type BatchShared = Omit<WireKey, 'id' | 'value'>;

/** A generated batch, kept compact: 100,000 keys differ only in id and value. */
export interface GeneratedBatch {
  shared: BatchShared;
  /** Row ids; the public id is keyPublicId(row id). */
  ids: number[];
  values: KeyValueBlock;
}

/** The batch as key objects. */
export function batchKeys(batch: GeneratedBatch): WireKey[] {
  return batch.ids.map((id, i) => ({ id: keyPublicId(id), value: batch.values.value(i), ...batch.shared }));
}

/**
 * `prefix` + the batch as a JSON array + `suffix`, as UTF-8 bytes in chunks of about `chunkBytes`:
 * byte-identical to JSON.stringify(batchKeys(batch)) between them (or, for `real`, to the real dialect's
 * `[{value, note, expiresAt, isPremium}]`), and several times faster, because the shared fields are encoded once
 * and keys are copied into buffers. The length is known before the first chunk is built, so a response can
 * declare it and start sending while the rest is being written. Ids and values come from ASCII URL-safe
 * alphabets, so they never need escaping.
 */
export function batchJsonChunks(
  batch: GeneratedBatch,
  prefix = '',
  suffix = '',
  chunkBytes = 1 << 20,
  dialect: 'detail' | 'real' = 'detail',
): { length: number; chunks: () => Generator<Buffer> } {
  const real = dialect === 'real';
  const { note, expiresAt, isPremium } = batch.shared;
  const head = Buffer.from(`${prefix}[`);
  const open = Buffer.from(real ? '{"value":"' : '{"id":"');
  const mid = Buffer.from(real ? '' : '","value":"');
  const tail = Buffer.from(`",${JSON.stringify(real ? { note, expiresAt, isPremium } : batch.shared).slice(1)}`);
  const end = Buffer.from(`]${suffix}`);
  const ids = real ? [] : batch.ids.map(keyPublicId);
  const count = batch.ids.length;
  const values = batch.values.bytes;
  const itemBytes = (i: number) => open.length + (ids[i]?.length ?? 0) + mid.length + KEY_LENGTH + tail.length;
  let length = head.length + end.length + Math.max(0, count - 1);
  for (let i = 0; i < count; i++) length += itemBytes(i);

  function* chunks(): Generator<Buffer> {
    let i = 0;
    let first = true;
    while (first || i < count) {
      // Size this chunk exactly, then fill it.
      let size = first ? head.length : 0;
      let j = i;
      while (j < count && (size < chunkBytes || j === i)) {
        size += itemBytes(j) + (j > 0 ? 1 : 0);
        j++;
      }
      const last = j >= count;
      if (last) size += end.length;
      const out = Buffer.allocUnsafe(size);
      let at = 0;
      if (first) {
        out.set(head, 0);
        at = head.length;
      }
      for (; i < j; i++) {
        if (i > 0) out[at++] = 0x2c; // ,
        out.set(open, at);
        at += open.length;
        const id = ids[i] ?? '';
        for (let c = 0; c < id.length; c++) out[at++] = id.charCodeAt(c);
        out.set(mid, at);
        at += mid.length;
        values.copy(out, at, i * KEY_LENGTH, (i + 1) * KEY_LENGTH);
        at += KEY_LENGTH;
        out.set(tail, at);
        at += tail.length;
      }
      if (last) out.set(end, at);
      first = false;
      yield out;
    }
  }
  return { length, chunks };
}

/** The whole of batchJsonChunks in one buffer. */
export function batchJsonBytes(batch: GeneratedBatch, prefix = '', suffix = ''): Buffer {
  return Buffer.concat([...batchJsonChunks(batch, prefix, suffix).chunks()]);
}

export interface Page<T> {
  best: T | null;
  items: T[];
  total: number;
}

export interface StoreOptions {
  /** Clock in epoch ms; injectable so expiry can be tested without waiting. */
  now?: () => number;
}

const SERVICE_COLUMNS = 'id, public_id, name, identifier, owner_secret_id';

const KEY_COLUMNS = `k.id, k.service_id, k.value, n.text AS note, k.status, k.is_premium, k.expires_by_days,
  k.days_key, k.expires_at, k.hwid, k.created_at, k.activated_at, k.last_reset_at`;

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** A segment of an ordered result: rows that rank equal, newest first. */
interface Segment<T> {
  count(): number;
  rows(limit: number, offset: number): T[];
  countSql: string;
  rowsSql: string;
  params: (string | number)[];
}

/** Pages across segments laid end to end (best-ranked segment first) without materialising them. */
function pageSegments<T>(segments: Segment<T>[], limit: number, offset: number): Page<T> {
  const counts = segments.map((s) => s.count());
  const total = counts.reduce((a, b) => a + b, 0);
  let best: T | null = null;
  for (const [i, seg] of segments.entries()) {
    if ((counts[i] ?? 0) > 0) {
      best = seg.rows(1, 0)[0] ?? null;
      break;
    }
  }
  const items: T[] = [];
  let skip = offset;
  for (const [i, seg] of segments.entries()) {
    const n = counts[i] ?? 0;
    if (items.length >= limit) break;
    if (skip >= n) {
      skip -= n;
      continue;
    }
    items.push(...seg.rows(limit - items.length, skip));
    skip = 0;
  }
  return { best, items, total };
}

export class SandboxStore {
  readonly file: string;
  private readonly db: DatabaseSync;
  /** The store's clock (epoch ms). */
  readonly now: () => number;
  private readonly byApiKey = new Map<string, ServiceRecord>();
  private readonly byIdentifier = new Map<string, ServiceRecord>();
  private readonly publicIds = new Map<number, string>();
  private readonly statements = new Map<string, StatementSync>();
  private rowsSinceCheckpoint = 0;
  private checkpointTimer: NodeJS.Timeout | null = null;
  /** Prepares a statement once per distinct SQL text. */
  private readonly prepared = (sql: string): StatementSync => {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  };
  private readonly stmt: {
    serviceByHash: StatementSync;
    serviceByIdentifier: StatementSync;
    servicePublicId: StatementSync;
    push: StatementSync;
    count: StatementSync;
    noteUpsert: StatementSync;
    noteId: StatementSync;
    insertBatch: StatementSync;
    keyIdByValue: StatementSync;
    batchIds: StatementSync;
    keyByValue: StatementSync;
    deleteKey: StatementSync;
    setExpiry: StatementSync;
    setDaysKey: StatementSync;
    resetHwid: StatementSync;
    activate: StatementSync;
    bindHwid: StatementSync;
    notesByFts: StatementSync;
    notesByScan: StatementSync;
    keylessByHwid: StatementSync;
    keylessInsert: StatementSync;
    keylessDelete: StatementSync;
    keylessTouch: StatementSync;
  };

  constructor(file: string, options: StoreOptions = {}) {
    this.file = file;
    this.now = options.now ?? Date.now;
    this.db = new DatabaseSync(file, { timeout: 5_000 });
    // 16 KiB pages: bulk inserts into the key indexes touch ~30% fewer pages. Takes effect on a new file only.
    this.db.exec('PRAGMA page_size = 16384');
    this.db.exec('PRAGMA journal_mode = WAL');
    // In WAL mode NORMAL loses nothing to a process crash (SIGKILL): committed frames are in the WAL file.
    this.db.exec('PRAGMA synchronous = NORMAL');
    this.db.exec('PRAGMA foreign_keys = ON');
    // Up to 256 MiB of page cache, used only as the database grows: batch inserts land at random places in
    // the unique value index, and once its pages no longer fit, each batch rereads them (measured: a 100,000-key
    // batch went from ~250 to ~430 ms past 300,000 keys with 64 MiB).
    this.db.exec('PRAGMA cache_size = -262144');
    // Checkpoints are scheduled by wrote(), not run inside a request's COMMIT.
    this.db.exec('PRAGMA wal_autocheckpoint = 0');
    this.migrate();
    // Substring match for terms shorter than a trigram: done in JS so case folding matches FTS5's.
    this.db.function('kd_contains', { deterministic: true }, (haystack, needle) =>
      typeof haystack === 'string' && typeof needle === 'string' && haystack.toLowerCase().includes(needle.toLowerCase())
        ? 1
        : 0,
    );
    const p = (sql: string) => this.db.prepare(sql);
    this.stmt = {
      serviceByHash: p(`SELECT ${SERVICE_COLUMNS} FROM services WHERE api_key_sha256 = ?`),
      serviceByIdentifier: p(`SELECT ${SERVICE_COLUMNS} FROM services WHERE identifier = ?`),
      servicePublicId: p('SELECT public_id FROM services WHERE id = ?'),
      push: p('UPDATE services SET execution_count = execution_count + ? WHERE id = ? RETURNING execution_count'),
      count: p('SELECT execution_count FROM services WHERE id = ?'),
      noteUpsert: p('INSERT INTO notes (service_id, text) VALUES (?, ?) ON CONFLICT (service_id, text) DO NOTHING'),
      noteId: p('SELECT id FROM notes WHERE service_id = ? AND text = ?'),
      // One statement inserts a whole batch from a JSON array: the per-row work stays inside SQLite.
      insertBatch: p(`INSERT INTO keys (service_id, value, note_id, status, is_premium, expires_by_days, days_key, expires_at, created_at)
        SELECT ?, j.value, ?, 0, ?, ?, ?, ?, ? FROM json_each(?) AS j`),
      keyIdByValue: p('SELECT id FROM keys WHERE value = ?'),
      batchIds: p('SELECT k.id FROM json_each(?) AS j JOIN keys k ON k.value = j.value ORDER BY j.key'),
      keyByValue: p(`SELECT ${KEY_COLUMNS} FROM keys k JOIN notes n ON n.id = k.note_id WHERE k.value = ? AND k.service_id = ?`),
      deleteKey: p('DELETE FROM keys WHERE id = ?'),
      setExpiry: p('UPDATE keys SET expires_at = ? WHERE id = ?'),
      setDaysKey: p('UPDATE keys SET days_key = ? WHERE id = ?'),
      resetHwid: p('UPDATE keys SET hwid = NULL, last_reset_at = ? WHERE id = ?'),
      activate: p('UPDATE keys SET status = 1, hwid = ?, activated_at = ?, expires_at = ? WHERE id = ?'),
      bindHwid: p('UPDATE keys SET hwid = ? WHERE id = ?'),
      notesByFts: p(`SELECT n.id FROM notes_fts f JOIN notes n ON n.id = f.rowid
        WHERE notes_fts MATCH ? AND n.service_id = ?`),
      notesByScan: p('SELECT id FROM notes WHERE service_id = ? AND kd_contains(text, ?)'),
      keylessByHwid: p(`SELECT id, hwid, is_premium, expires_at, created_at, last_used_at FROM keyless
        WHERE service_id = ? AND hwid = ?`),
      keylessInsert: p(`INSERT INTO keyless (service_id, hwid, is_premium, expires_at, created_at) VALUES (?, ?, ?, ?, ?)
        RETURNING id, hwid, is_premium, expires_at, created_at, last_used_at`),
      keylessDelete: p('DELETE FROM keyless WHERE service_id = ? AND hwid = ?'),
      keylessTouch: p('UPDATE keyless SET last_used_at = ? WHERE id = ?'),
    };
  }

  /** Brings the file to SCHEMA_VERSION. The version is read inside the write transaction: two processes opening one file at once migrate it once. */
  private migrate(): void {
    const version = (): number => (this.db.prepare('PRAGMA user_version').get() as { user_version: number } | undefined)?.user_version ?? 0;
    const check = (v: number): void => {
      if (v > SCHEMA_VERSION) throw new Error(`The sandbox database ${this.file} was written by a newer Keydesk (schema ${v}).`);
    };
    check(version());
    if (version() === SCHEMA_VERSION) return;
    this.transaction(() => {
      let v = version();
      check(v);
      if (v === 0) {
        this.db.exec(SCHEMA);
        v = SCHEMA_VERSION;
      }
      for (; v < SCHEMA_VERSION; v++) {
        const sql = MIGRATIONS[v];
        if (sql === undefined) throw new Error(`The sandbox database ${this.file} has schema ${v}, which this Keydesk cannot upgrade.`);
        this.db.exec(sql);
      }
      // Services made before OwnerSecretID existed get theirs now.
      const fill = this.db.prepare('UPDATE services SET owner_secret_id = ? WHERE id = ?');
      for (const row of this.db.prepare('SELECT id FROM services WHERE owner_secret_id IS NULL').all() as { id: number }[]) {
        fill.run(randomUUID(), row.id);
      }
      this.db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    });
  }

  /** Runs `fn` in one IMMEDIATE transaction: all of its writes land, or none do. */
  transaction<T>(fn: () => T): T {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = fn();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  close(): void {
    if (this.db.isOpen) {
      this.checkpoint();
      this.db.close();
    }
  }

  /** Runs a raw query; for tests and benchmarks that inspect the database (integrity, query plans). */
  inspect(sql: string, ...params: (string | number | null)[]): Record<string, unknown>[] {
    return this.db.prepare(sql).all(...params);
  }

  // ---- services ----------------------------------------------------------------------------------------

  serviceCount(): number {
    const row = this.db.prepare('SELECT count(*) AS n FROM services').get() as { n: number };
    return row.n;
  }

  createService(name: string, identifier: string): { service: ServiceRecord; apiKey: string } {
    const apiKey = newApiKey();
    try {
      const row = this.db
        .prepare(`INSERT INTO services (public_id, name, identifier, api_key_sha256, created_at, owner_secret_id) VALUES (?, ?, ?, ?, ?, ?)
          RETURNING ${SERVICE_COLUMNS}`)
        .get(publicId('svc_'), name, identifier, sha256(apiKey), this.now(), randomUUID()) as unknown as ServiceRow;
      return { service: toService(row), apiKey };
    } catch (error) {
      if (isUniqueViolation(error)) throw new WireError('CONFLICT', `The identifier "${identifier}" is taken.`);
      throw error;
    }
  }

  /**
   * Gives a service a new apiKey; the old one stops working at once. For the desktop app's embedded sandbox,
   * whose demo key lives in the keychain: if that entry is lost, the app issues a new key rather than a new service.
   */
  rotateApiKey(identifier: string): string {
    const apiKey = newApiKey();
    const r = this.db.prepare('UPDATE services SET api_key_sha256 = ? WHERE identifier = ?').run(sha256(apiKey), identifier);
    if (r.changes === 0) throw notFound(`No service has the identifier "${identifier}".`);
    this.byApiKey.clear();
    return apiKey;
  }

  /** The service an apiKey belongs to. Keys are compared by SHA-256 digest; positive answers are cached. */
  serviceByApiKey(apiKey: string): ServiceRecord | null {
    const cached = this.byApiKey.get(apiKey);
    if (cached) return cached;
    const row = this.stmt.serviceByHash.get(sha256(apiKey)) as ServiceRow | undefined;
    if (!row) return null;
    const service = toService(row);
    if (this.byApiKey.size > 10_000) this.byApiKey.clear();
    this.byApiKey.set(apiKey, service);
    return service;
  }

  /**
   * The service an identifier names, without regard to case. Hits are cached (services are never deleted);
   * only well-formed, hence ASCII, identifiers use the cache, so no Unicode case folding can alias one.
   */
  serviceByIdentifier(identifier: string): ServiceRecord | null {
    const cacheable = isIdentifier(identifier);
    const cacheKey = identifier.toLowerCase();
    const cached = cacheable ? this.byIdentifier.get(cacheKey) : undefined;
    if (cached) return cached;
    const row = this.stmt.serviceByIdentifier.get(identifier) as ServiceRow | undefined;
    if (!row) return null;
    const service = toService(row);
    if (cacheable) this.byIdentifier.set(cacheKey, service);
    return service;
  }

  private servicePublicId(serviceId: number): string {
    let id = this.publicIds.get(serviceId);
    if (id === undefined) {
      id = (this.stmt.servicePublicId.get(serviceId) as { public_id: string }).public_id;
      this.publicIds.set(serviceId, id);
    }
    return id;
  }

  // ---- executions --------------------------------------------------------------------------------------

  /** Adds `n` executions in one transaction and returns the new total. */
  addExecutions(serviceId: number, n: number): number {
    return (this.stmt.push.get(n, serviceId) as { execution_count: number }).execution_count;
  }

  executionCount(serviceId: number): number {
    return (this.stmt.count.get(serviceId) as { execution_count: number }).execution_count;
  }

  // ---- keys --------------------------------------------------------------------------------------------

  private noteId(serviceId: number, note: string): number {
    this.stmt.noteUpsert.run(serviceId, note);
    return (this.stmt.noteId.get(serviceId, note) as { id: number }).id;
  }

  /** Generates one batch in one transaction: all of it is written, or none. */
  generateKeys(serviceId: number, params: GenerateParams): GeneratedBatch {
    const now = this.now();
    const expiresAt = params.expiresByDaysKey ? null : endOfUtcDay(params.expire);
    const daysKey = params.expiresByDaysKey ? params.daysKey : null;
    // Every key of a batch shares all fields but id and value (field order is the wire's).
    const shared: BatchShared = {
      note: params.note,
      status: 'generated',
      isPremium: params.isPremium,
      expire: expiresAt === null ? null : params.expire,
      expiresByDaysKey: params.expiresByDaysKey,
      daysKey,
      expiresAt: iso(expiresAt),
      hwid: null,
      createdAt: iso(now) as string,
      activatedAt: null,
      lastResetAt: null,
      serviceId: this.servicePublicId(serviceId),
    };
    const premium = params.isPremium ? 1 : 0;
    const byDays = params.expiresByDaysKey ? 1 : 0;
    const batch = this.transaction(() => {
      const noteId = this.noteId(serviceId, params.note);
      for (let attempt = 1; ; attempt++) {
        const block = generateKeyBlock(params.count);
        const json = block.json();
        let last: number;
        try {
          last = Number(this.stmt.insertBatch.run(serviceId, noteId, premium, byDays, daysKey, expiresAt, now, json).lastInsertRowid);
        } catch (error) {
          // A repeated 125-bit value is never expected; the failed statement alone is undone, so draw again.
          if (isUniqueViolation(error) && attempt < 3) continue;
          throw error;
        }
        return { shared, ids: this.batchIds(block, json, last), values: block };
      }
    });
    this.wrote(params.count);
    return batch;
  }

  /**
   * Ids of a batch just inserted by one statement. SQLite gives such rows consecutive rowids in order; that is
   * checked at both ends, and the ids are read back by value should it ever not hold.
   */
  private batchIds(block: KeyValueBlock, json: string, last: number): number[] {
    const first = last - block.count + 1;
    const idOf = (i: number) => (this.stmt.keyIdByValue.get(block.value(i)) as { id: number } | undefined)?.id;
    if (idOf(0) === first && idOf(block.count - 1) === last) {
      return Array.from({ length: block.count }, (_, i) => first + i);
    }
    return (this.stmt.batchIds.all(json) as { id: number }[]).map((r) => r.id);
  }

  /**
   * Checkpoints the WAL off the request path: when writes pause, or at once past a budget. SQLite's automatic
   * checkpoint would run inside the COMMIT of whichever request crossed 4 MiB of WAL. Durability is unchanged:
   * committed transactions are in the WAL either way.
   */
  private wrote(rows: number): void {
    this.rowsSinceCheckpoint += rows;
    if (this.rowsSinceCheckpoint > 1_000_000) {
      this.checkpoint();
      return;
    }
    this.checkpointTimer ??= setTimeout(() => {
      this.checkpoint();
    }, 250).unref();
  }

  checkpoint(): void {
    if (this.checkpointTimer) clearTimeout(this.checkpointTimer);
    this.checkpointTimer = null;
    this.rowsSinceCheckpoint = 0;
    if (this.db.isOpen) this.db.exec('PRAGMA wal_checkpoint(PASSIVE)');
  }

  private keyRow(serviceId: number, value: string): KeyRow | null {
    return (this.stmt.keyByValue.get(value, serviceId) as KeyRow | undefined) ?? null;
  }

  private toWireKey(row: KeyRow): WireKey {
    return {
      id: keyPublicId(row.id),
      value: row.value,
      note: row.note,
      status: row.status === ACTIVE ? 'active' : 'generated',
      isPremium: row.is_premium === 1,
      expire: row.expires_at === null ? null : utcDate(row.expires_at),
      expiresByDaysKey: row.expires_by_days === 1,
      daysKey: row.days_key,
      expiresAt: iso(row.expires_at),
      hwid: row.hwid,
      createdAt: iso(row.created_at) as string,
      activatedAt: iso(row.activated_at),
      lastResetAt: iso(row.last_reset_at),
      serviceId: this.servicePublicId(row.service_id),
    };
  }

  /** Deletes a key in either state, or (`generatedOnly`) only a generated one. Returns the deleted value. */
  deleteKey(serviceId: number, value: string, generatedOnly: boolean): string {
    return this.transaction(() => {
      const row = this.keyRow(serviceId, value);
      if (!row || (generatedOnly && row.status !== GENERATED)) {
        throw notFound(generatedOnly ? 'No generated (unused) key has that value.' : 'No key has that value.');
      }
      this.stmt.deleteKey.run(row.id);
      return row.value;
    });
  }

  /**
   * Adds days to a key. A key with an expiry moves it (from its current value, even when already past);
   * an unactivated days key gets a longer daysKey instead.
   */
  extendKey(serviceId: number, value: string, days: number): WireKey {
    return this.transaction(() => {
      const row = this.keyRow(serviceId, value);
      if (!row) throw notFound('No key has that value.');
      if (row.expires_at === null) {
        const daysKey = (row.days_key ?? 0) + days;
        if (daysKey > LIMITS.daysMax) {
          throw invalid(`The key would last ${daysKey} days; at most ${LIMITS.daysMax} are allowed.`);
        }
        this.stmt.setDaysKey.run(daysKey, row.id);
        row.days_key = daysKey;
      } else {
        const expiresAt = addDays(row.expires_at, days);
        if (expiresAt > MAX_EXPIRES_AT_MS) throw invalid('The new expiry would fall after 9999-12-31.');
        this.stmt.setExpiry.run(expiresAt, row.id);
        row.expires_at = expiresAt;
      }
      return this.toWireKey(row);
    });
  }

  resetHwid(serviceId: number, value: string, cooldownMinutes: number): WireKey {
    return this.transaction(() => {
      const row = this.keyRow(serviceId, value);
      if (!row) throw notFound('No key has that value.');
      if (row.status !== ACTIVE) {
        throw new WireError('CONFLICT', 'That key has not been activated yet, so it has no HWID to reset.');
      }
      const now = this.now();
      if (cooldownMinutes > 0 && row.last_reset_at !== null) {
        const readyAt = row.last_reset_at + cooldownMinutes * MINUTE_MS;
        if (now < readyAt) {
          const seconds = Math.ceil((readyAt - now) / 1000);
          throw new WireError(
            'COOLDOWN',
            `This key's HWID was reset recently; try again in ${formatWait(seconds)}.`,
            { retryAfterSeconds: seconds },
          );
        }
      }
      this.stmt.resetHwid.run(now, row.id);
      row.hwid = null;
      row.last_reset_at = now;
      return this.toWireKey(row);
    });
  }

  /** Ids of this service's notes containing `term`, ignoring case, found through the trigram index. */
  private matchingNoteIds(serviceId: number, term: string): string {
    const rows =
      charLength(term) >= 3
        ? (this.stmt.notesByFts.all(`"${term.replaceAll('"', '""')}"`, serviceId) as { id: number }[])
        : (this.stmt.notesByScan.all(serviceId, term) as { id: number }[]);
    return JSON.stringify(rows.map((r) => r.id));
  }

  /**
   * The ranked parts of a key search: exact value first, then exact HWID (active keys), then note contains
   * term; newest first within each.
   */
  private keySegments(serviceId: number, status: 'active' | 'generated', term: string): Segment<KeyRow>[] {
    const st = status === 'active' ? ACTIVE : GENERATED;
    const noteIds = this.matchingNoteIds(serviceId, term);
    const segments = [
      segment(this.prepared, 'FROM keys k JOIN notes n ON n.id = k.note_id WHERE k.value = ? AND k.service_id = ? AND k.status = ?', [
        term, serviceId, st,
      ]),
    ];
    if (st === ACTIVE) {
      segments.push(
        segment(
          this.prepared,
          `FROM keys k JOIN notes n ON n.id = k.note_id
           WHERE k.hwid = ? AND k.service_id = ? AND k.status = 1 AND k.value <> ?`,
          [term, serviceId, term],
        ),
      );
    }
    segments.push(
      segment(
        this.prepared,
        `FROM keys k JOIN notes n ON n.id = k.note_id
         WHERE k.note_id IN (SELECT value FROM json_each(?)) AND k.status = ? AND k.value <> ?
           AND (k.hwid IS NULL OR k.hwid <> ?)`,
        [noteIds, st, term, term],
      ),
    );
    return segments;
  }

  searchKeys(serviceId: number, status: 'active' | 'generated', term: string, limit: number, offset: number): Page<WireKey> {
    const page = pageSegments(this.keySegments(serviceId, status, term), limit, offset);
    return {
      best: page.best && this.toWireKey(page.best),
      items: page.items.map((r) => this.toWireKey(r)),
      total: page.total,
    };
  }

  /** SQLite's plan for every query a key search runs (the note lookup included): proof that no step scans keys. */
  explainKeySearch(serviceId: number, status: 'active' | 'generated', term: string): string[] {
    const plan = (sql: string, params: (string | number)[]) =>
      (this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail);
    const notes =
      charLength(term) >= 3
        ? plan('SELECT n.id FROM notes_fts f JOIN notes n ON n.id = f.rowid WHERE notes_fts MATCH ? AND n.service_id = ?', ['"x"', serviceId])
        : plan('SELECT id FROM notes WHERE service_id = ? AND kd_contains(text, ?)', [serviceId, term]);
    return [...notes, ...this.keySegments(serviceId, status, term).flatMap((s) => [...plan(s.countSql, s.params), ...plan(s.rowsSql, [...s.params, 1, 0])])];
  }

  // ---- keyless -----------------------------------------------------------------------------------------

  addKeyless(serviceId: number, hwid: string, isPremium: boolean, days: number | null): WireKeylessEntry {
    const now = this.now();
    const expiresAt = days === null ? null : addDays(now, days);
    return this.transaction(() => {
      if (this.stmt.keylessByHwid.get(serviceId, hwid)) {
        throw new WireError('CONFLICT', 'A keyless entry for that HWID exists already.');
      }
      return toKeyless(this.stmt.keylessInsert.get(serviceId, hwid, isPremium ? 1 : 0, expiresAt, now) as unknown as KeylessRow);
    });
  }

  searchKeyless(serviceId: number, term: string, limit: number, offset: number): Page<WireKeylessEntry> {
    const cols = 'id, hwid, is_premium, expires_at, created_at, last_used_at';
    const total = (
      this.prepared('SELECT count(*) AS n FROM keyless WHERE service_id = ? AND instr(hwid, ?) > 0').get(serviceId, term) as {
        n: number;
      }
    ).n;
    const list = this.prepared(
      `SELECT ${cols} FROM keyless WHERE service_id = ? AND instr(hwid, ?) > 0
       ORDER BY hwid = ? DESC, id DESC LIMIT ? OFFSET ?`,
    );
    const best = total > 0 ? (list.get(serviceId, term, term, 1, 0) as unknown as KeylessRow) : null;
    const items = (list.all(serviceId, term, term, limit, offset) as unknown as KeylessRow[]).map(toKeyless);
    return { best: best && toKeyless(best), items, total };
  }

  deleteKeyless(serviceId: number, hwid: string): void {
    const r = this.transaction(() => this.stmt.keylessDelete.run(serviceId, hwid));
    if (r.changes === 0) throw notFound('That HWID is not on the keyless list.');
  }

  // ---- validation --------------------------------------------------------------------------------------

  /**
   * What a protected application sees when it validates. Activates and binds as the real service does,
   * unless `dryRun`, which gives the same answer and changes nothing.
   */
  validate(serviceIdentifier: string, key: string, hwid: string, dryRun: boolean, keylessKey: string): ValidationBody {
    const now = this.now();
    const service = this.serviceByIdentifier(serviceIdentifier);
    if (!service) {
      return validationBody('invalid_service', null, hwid, null, 'No service has that identifier.');
    }
    const registered = { identifier: service.identifier, owner: service.ownerSecretId };

    if (key === keylessKey) {
      const entry = this.stmt.keylessByHwid.get(service.id, hwid) as KeylessRow | undefined;
      if (!entry) {
        return validationBody('not_whitelisted', registered, hwid, null, 'This HWID is not on the keyless list.');
      }
      const info = { keyless: true, premium: entry.is_premium === 1, expiresAt: entry.expires_at };
      if (entry.expires_at !== null && now > entry.expires_at) {
        return validationBody('not_whitelisted', registered, hwid, info, `This HWID's keyless access expired on ${iso(entry.expires_at)}.`);
      }
      if (!dryRun) this.stmt.keylessTouch.run(now, entry.id);
      return validationBody('success', registered, hwid, info, '');
    }

    const row = this.keyRow(service.id, key);
    if (!row) return validationBody('invalid_key', registered, hwid, null, 'No key of this service has that value.');
    const info = { keyless: false, premium: row.is_premium === 1, expiresAt: row.expires_at };
    if (row.expires_at !== null && now > row.expires_at) {
      return validationBody('expired', registered, hwid, info, `The key expired on ${iso(row.expires_at)}.`);
    }
    if (row.status === GENERATED) {
      const expiresAt = row.expires_at ?? Math.min(addDays(now, row.days_key ?? 0), MAX_EXPIRES_AT_MS);
      if (!dryRun) this.transaction(() => this.stmt.activate.run(hwid, now, expiresAt, row.id));
      return validationBody('success', registered, hwid, { ...info, expiresAt }, row.note);
    }
    if (row.hwid === null) {
      if (!dryRun) this.transaction(() => this.stmt.bindHwid.run(hwid, row.id));
      return validationBody('success', registered, hwid, info, row.note);
    }
    if (row.hwid !== hwid) {
      return validationBody('hwid_mismatch', registered, hwid, info, 'The key is bound to another HWID.');
    }
    return validationBody('success', registered, hwid, info, row.note);
  }
}

interface ServiceRow {
  id: number;
  public_id: string;
  name: string;
  identifier: string;
  owner_secret_id: string;
}
const toService = (row: ServiceRow): ServiceRecord => ({
  id: row.id,
  publicId: row.public_id,
  name: row.name,
  identifier: row.identifier,
  ownerSecretId: row.owner_secret_id,
});

export const keyPublicId = (rowid: number): string => `k_${rowid.toString(36).padStart(8, '0')}`;

const toKeyless = (row: KeylessRow): WireKeylessEntry => ({
  id: `kl_${row.id.toString(36).padStart(6, '0')}`,
  hwid: row.hwid,
  isPremium: row.is_premium === 1,
  expiresAt: iso(row.expires_at),
  createdAt: iso(row.created_at) as string,
  lastUsedAt: iso(row.last_used_at),
});

function segment(prepare: (sql: string) => StatementSync, from: string, params: (string | number)[]): Segment<KeyRow> {
  const countSql = `SELECT count(*) AS n ${from}`;
  const rowsSql = `SELECT ${KEY_COLUMNS} ${from} ORDER BY k.id DESC LIMIT ? OFFSET ?`;
  return {
    countSql,
    rowsSql,
    params,
    count: () => (prepare(countSql).get(...params) as { n: number }).n,
    rows: (limit, offset) => prepare(rowsSql).all(...params, limit, offset) as unknown as KeyRow[],
  };
}

const OUTCOME_MESSAGES: Record<ValidationOutcome, string> = {
  success: 'The key is valid.',
  invalid_service: 'Unknown service.',
  invalid_key: 'Unknown key.',
  expired: 'The key has expired.',
  hwid_mismatch: 'The key is bound to another device.',
  not_whitelisted: 'This device is not authorized without a key.',
};

function validationBody(
  outcome: ValidationOutcome,
  registered: { identifier: string; owner: string } | null,
  hwid: string,
  found: { keyless: boolean; premium: boolean; expiresAt: number | null } | null,
  notes: string,
): ValidationBody {
  return {
    success: outcome === 'success',
    message: outcome === 'success' && found?.keyless ? 'This device is authorized without a key.' : OUTCOME_MESSAGES[outcome],
    OwnerSecretID: registered?.owner ?? null,
    V2_Authentication: outcome,
    Authentication: outcome,
    Registered_ServiceID: registered?.identifier ?? null,
    Key_Information: {
      // Only a success grants anything: a client that reads Premium_Mode alone must not let anyone in.
      NoKey_Requirement: outcome === 'success' && found !== null && found.keyless,
      Hardware_ID: hwid,
      Premium_Mode: outcome === 'success' && found !== null && found.premium,
      Notes: notes,
      expiresAt: found ? iso(found.expiresAt) : null,
    },
  };
}

function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return s === 0 ? `${m} min` : `${m} min ${s} s`;
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && /UNIQUE constraint failed/.test(error.message);
}
