// The execution counter of each service.
import type { Db } from './db.ts';

export class Executions {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** Adds `n` executions in one statement (one transaction) and returns the new total. */
  add(serviceId: number, n: number): number {
    const row = this.db.get<{ execution_count: number }>(
      'UPDATE services SET execution_count = execution_count + ? WHERE id = ? RETURNING execution_count',
      n,
      serviceId,
    );
    this.db.wrote(1);
    return row?.execution_count ?? 0;
  }

  count(serviceId: number): number {
    return this.db.get<{ execution_count: number }>('SELECT execution_count FROM services WHERE id = ?', serviceId)?.execution_count ?? 0;
  }
}
