// The base of the store rooms that work on one service's keys: the shared connection, services and clock.
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
