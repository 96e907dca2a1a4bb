// Services and their apiKeys. Keys are stored as SHA-256 digests, never in clear; lookups are cached, and the
// caches are dropped whenever another connection (another process on the same file) has written.
import { createHash, randomUUID } from 'node:crypto';
import { isIdentifier } from '../../shared/rules.ts';
import { notFound, WireError } from '../errors.ts';
import { newApiKey, publicId } from '../keygen.ts';
import type { Db } from './db.ts';
import { isUniqueViolation } from './rows.ts';

export interface ServiceRecord {
  id: number;
  publicId: string;
  name: string;
  identifier: string;
  /** Validation's OwnerSecretID: opaque, stable, never derived from the apiKey. */
  ownerSecretId: string;
}

interface ServiceRow {
  id: number;
  public_id: string;
  name: string;
  identifier: string;
  owner_secret_id: string;
}
const COLUMNS = 'id, public_id, name, identifier, owner_secret_id';
const BY_DIGEST = `SELECT ${COLUMNS} FROM services WHERE api_key_sha256 = ?`;
const BY_IDENTIFIER = `SELECT ${COLUMNS} FROM services WHERE identifier = ?`;
const toService = (row: ServiceRow): ServiceRecord => ({
  id: row.id,
  publicId: row.public_id,
  name: row.name,
  identifier: row.identifier,
  ownerSecretId: row.owner_secret_id,
});

export const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

export class Services {
  private readonly db: Db;
  private readonly now: () => number;
  private readonly keyCache = new Map<string, ServiceRecord>();
  private readonly identifierCache = new Map<string, ServiceRecord>();
  private readonly publicIds = new Map<number, string>();
  private dataVersion = -1;
  private checkedThisTurn = false;

  constructor(db: Db, now: () => number) {
    this.db = db;
    this.now = now;
  }

  /** Drops the apiKey cache when another connection committed (data_version), checked once per event-loop turn. */
  private fresh(): void {
    if (this.checkedThisTurn) return;
    this.checkedThisTurn = true;
    setImmediate(this.nextTurn);
    const v = this.db.get<{ data_version: number }>('PRAGMA data_version')?.data_version ?? 0;
    if (v !== this.dataVersion) {
      this.dataVersion = v;
      this.keyCache.clear();
    }
  }

  private readonly nextTurn = (): void => {
    this.checkedThisTurn = false;
  };

  count(): number {
    return this.db.get<{ n: number }>('SELECT count(*) AS n FROM services')?.n ?? 0;
  }

  create(name: string, identifier: string): { service: ServiceRecord; apiKey: string } {
    const apiKey = newApiKey();
    try {
      const row = this.db.get<ServiceRow>(
        `INSERT INTO services (public_id, name, identifier, api_key_sha256, created_at, owner_secret_id) VALUES (?, ?, ?, ?, ?, ?)
         RETURNING ${COLUMNS}`,
        publicId('svc_'),
        name,
        identifier,
        sha256(apiKey),
        this.now(),
        randomUUID(),
      );
      if (!row) throw new Error('INSERT … RETURNING gave no row.');
      return { service: toService(row), apiKey };
    } catch (error) {
      if (isUniqueViolation(error)) throw new WireError('CONFLICT', `The identifier "${identifier}" is taken.`);
      throw error;
    }
  }

  /** Gives a service a new apiKey; the old one stops working at once. */
  rotateApiKey(identifier: string): string {
    const apiKey = newApiKey();
    const r = this.db.run('UPDATE services SET api_key_sha256 = ? WHERE identifier = ?', sha256(apiKey), identifier);
    if (r.changes === 0) throw notFound(`No service has the identifier "${identifier}".`);
    this.keyCache.clear();
    return apiKey;
  }

  /** Fills in the OwnerSecretID of services made before it existed (schema upgrade). */
  fillOwnerSecrets(): void {
    for (const row of this.db.all<{ id: number }>('SELECT id FROM services WHERE owner_secret_id IS NULL')) {
      this.db.run('UPDATE services SET owner_secret_id = ? WHERE id = ?', randomUUID(), row.id);
    }
  }

  /** The service an apiKey belongs to. Keys are compared by SHA-256 digest; positive answers are cached. */
  byKey(apiKey: string): ServiceRecord | null {
    this.fresh();
    const cached = this.keyCache.get(apiKey);
    if (cached) return cached;
    const row = this.db.get<ServiceRow>(BY_DIGEST, sha256(apiKey));
    if (!row) return null;
    const service = toService(row);
    if (this.keyCache.size > 10_000) this.keyCache.clear();
    this.keyCache.set(apiKey, service);
    return service;
  }

  /** The service an identifier names, any case; hits are cached (services never go, identifiers never change), ASCII only. */
  byIdentifier(identifier: string): ServiceRecord | null {
    const cacheable = isIdentifier(identifier);
    const cacheKey = identifier.toLowerCase();
    const cached = cacheable ? this.identifierCache.get(cacheKey) : undefined;
    if (cached) return cached;
    const row = this.db.get<ServiceRow>(BY_IDENTIFIER, identifier);
    if (!row) return null;
    const service = toService(row);
    if (cacheable) this.identifierCache.set(cacheKey, service);
    return service;
  }

  publicId(serviceId: number): string {
    let id = this.publicIds.get(serviceId);
    if (id === undefined) {
      id = this.db.get<{ public_id: string }>('SELECT public_id FROM services WHERE id = ?', serviceId)?.public_id ?? '';
      this.publicIds.set(serviceId, id);
    }
    return id;
  }
}
