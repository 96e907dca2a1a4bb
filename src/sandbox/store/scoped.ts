// The base of the store parts that read and write one service's keys: the database, the services (for the
// public id a wire key carries) and the clock, all handed in by SandboxStore so every part shares them.
import type { Db } from './db.ts';
import type { Services } from './services.ts';

export abstract class ServiceScoped {
  protected readonly db: Db;
  protected readonly services: Services;
  protected readonly now: () => number;

  constructor(db: Db, services: Services, now: () => number) {
    this.db = db;
    this.services = services;
    this.now = now;
  }
}
