// The sandbox's storage (node:sqlite, WAL): a front over its rooms in ./store/, which share one connection.
// Every write is one transaction; outcomes the wire names are thrown as WireError.
import type { ValidationBody, WireKey, WireKeylessEntry } from '../shared/wire.ts';
import { Batches, type GeneratedBatch, type GenerateParams } from './store/batches.ts';
import { Db, type DbOptions, type SqlValue } from './store/db.ts';
import { Executions } from './store/executions.ts';
import { Keys, type KeyChanges, type ResetRules } from './store/lifecycle.ts';
import type { Page } from './store/rows.ts';
import { Search } from './store/search.ts';
import { Services, type ServiceRecord } from './store/services.ts';
import { Validation } from './store/validation.ts';
import { MIGRATIONS, SCHEMA, SCHEMA_VERSION } from './schema.ts';
import { notFound } from './errors.ts';

export { batchJsonBytes, batchJsonChunks, batchKeys, type GeneratedBatch, type GenerateParams } from './store/batches.ts';
export { keyPublicId, type Page } from './store/rows.ts';
export type { KeyChanges, ResetRules } from './store/lifecycle.ts';
export { sha256, type ServiceRecord } from './store/services.ts';

export interface StoreOptions extends DbOptions {
  /** Clock in epoch ms; injectable so expiry can be tested without waiting. */
  now?: () => number;
}

export class SandboxStore {
  readonly file: string;
  readonly now: () => number;
  /** The one connection, for what inspects the database itself (tests, benchmarks): plans, the WAL, raw reads. */
  readonly db: Db;
  private readonly services: Services;
  private readonly executions: Executions;
  private readonly batches: Batches;
  private readonly keys: Keys;
  private readonly search: Search;
  private readonly validation: Validation;

  constructor(file: string, options: StoreOptions = {}) {
    this.file = file;
    this.now = options.now ?? Date.now;
    this.db = new Db(file, options);
    this.services = new Services(this.db, this.now);
    this.migrate();
    this.executions = new Executions(this.db);
    this.batches = new Batches(this.db, this.services, this.now);
    this.keys = new Keys(this.db, this.services, this.now);
    this.search = new Search(this.db, this.keys);
    this.validation = new Validation(this.db, this.services, this.keys, this.now);
  }

  /** Brings the file to SCHEMA_VERSION; re-read inside the transaction so two processes migrate it once. */
  private migrate(): void {
    const version = (): number => this.db.get<{ user_version: number }>('PRAGMA user_version')?.user_version ?? 0;
    const check = (v: number): void => {
      if (v > SCHEMA_VERSION) throw new Error(`The sandbox database ${this.file} was written by a newer Keydesk (schema ${v}).`);
    };
    check(version());
    if (version() === SCHEMA_VERSION) return;
    this.db.transaction(() => {
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
      this.services.fillOwnerSecrets();
      this.db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    });
  }

  close(): void {
    this.db.close();
  }

  /** Runs a raw query; for tests and benchmarks that inspect the database (integrity, query plans). */
  inspect(sql: string, ...params: SqlValue[]): Record<string, unknown>[] {
    return this.db.all<Record<string, unknown>>(sql, ...params);
  }

  serviceCount(): number {
    return this.services.count();
  }
  createService(name: string, identifier: string): { service: ServiceRecord; apiKey: string } {
    return this.services.create(name, identifier);
  }
  /** Gives a service a new apiKey; the old one stops working at once (the app's answer to a lost keychain entry). */
  rotateApiKey(identifier: string): string {
    return this.services.rotateApiKey(identifier);
  }
  serviceByApiKey(apiKey: string): ServiceRecord | null {
    return this.services.byKey(apiKey);
  }
  serviceByIdentifier(identifier: string): ServiceRecord | null {
    return this.services.byIdentifier(identifier);
  }

  addExecutions(serviceId: number, n: number): number {
    return this.executions.add(serviceId, n);
  }
  executionCount(serviceId: number): number {
    return this.executions.count(serviceId);
  }

  generateKeys(serviceId: number, params: GenerateParams): GeneratedBatch {
    return this.batches.generate(serviceId, params);
  }
  deleteKey(serviceId: number, value: string, generatedOnly: boolean): string {
    return this.keys.delete(serviceId, value, generatedOnly);
  }
  extendKey(serviceId: number, value: string, days: number): WireKey {
    return this.keys.extend(serviceId, value, days);
  }
  resetHwid(serviceId: number, value: string, rules: ResetRules): WireKey {
    return this.keys.resetHwid(serviceId, value, rules);
  }
  /** The end user's reset (no apiKey): the service by its identifier; an unknown one is 404 like an unknown key. */
  resetHwidPublic(serviceIdentifier: string, value: string, rules: ResetRules): WireKey {
    const service = this.services.byIdentifier(serviceIdentifier);
    if (!service) throw notFound('No service has that identifier.');
    return this.keys.resetHwid(service.id, value, rules);
  }
  editKey(serviceId: number, value: string, state: 'active' | 'generated', changes: KeyChanges): WireKey {
    return this.keys.edit(serviceId, value, state, changes);
  }
  searchKeys(serviceId: number, status: 'active' | 'generated', term: string, limit: number, offset: number): Page<WireKey> {
    return this.search.keys(serviceId, status, term, limit, offset);
  }

  addKeyless(serviceId: number, hwid: string, isPremium: boolean, days: number | null): WireKeylessEntry {
    return this.validation.addKeyless(serviceId, hwid, isPremium, days);
  }
  searchKeyless(serviceId: number, term: string, limit: number, offset: number): Page<WireKeylessEntry> {
    return this.search.keyless(serviceId, term, limit, offset);
  }
  deleteKeyless(serviceId: number, hwid: string): void {
    this.validation.deleteKeyless(serviceId, hwid);
  }
  validate(serviceIdentifier: string, key: string, hwid: string, dryRun: boolean, keylessKey: string): ValidationBody {
    return this.validation.validate(serviceIdentifier, key, hwid, dryRun, keylessKey);
  }
}
