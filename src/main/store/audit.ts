// The audit log of every mutating operation: written before the act and settled after it, and found by text (the
// words Activity shows, an id, a target, a message), outcome and action.
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { AuditEntry } from '../../shared/domain.ts';
import { OPERATION_WORDS, RETIRED_WORDS } from '../../shared/operation-words.ts';

export interface AuditFilter {
  text?: string | undefined;
  outcome?: AuditEntry['outcome'] | undefined;
  action?: string | undefined;
}

const AUDIT_SELECT = 'SELECT id, at, profile_id AS profileId, profile_name AS profileName, action, target, outcome, message FROM audit';

const likeTerm = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export class AuditLog {
  private readonly db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.db = db;
  }

  /** Writes an entry; returns its id, for settleAudit(). */
  audit(entry: Omit<AuditEntry, 'id' | 'at'> & { at?: string }): number {
    const { lastInsertRowid } = this.db
      .prepare('INSERT INTO audit (at, profile_id, profile_name, action, target, outcome, message) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(
        entry.at ?? new Date().toISOString(),
        entry.profileId,
        entry.profileName,
        entry.action,
        entry.target,
        entry.outcome,
        entry.message,
      );
    return Number(lastInsertRowid);
  }

  /** The act an entry was written for has ended: its outcome and words. */
  settleAudit(id: number, outcome: AuditEntry['outcome'], message: string): void {
    this.db.prepare('UPDATE audit SET outcome = ?, message = ? WHERE id = ?').run(outcome, message, id);
  }

  private auditWhere(filter: AuditFilter): { sql: string; params: SQLInputValue[] } {
    const clauses = ['1 = 1'];
    const params: SQLInputValue[] = [];
    if (filter.text) {
      // The text finds an operation by the words Activity shows for it ("Push an execution", or a part of them),
      // by its id ("keys.delete"), and by its target, message or service.
      const term = filter.text.toLowerCase();
      const named = Object.entries({ ...RETIRED_WORDS, ...OPERATION_WORDS })
        .filter(([, words]) => words.toLowerCase().includes(term))
        .map(([id]) => id);
      const byWords = named.length > 0 ? ` OR action IN (${named.map(() => '?').join(', ')})` : '';
      clauses.push(
        `(action LIKE ? ESCAPE '\\' OR target LIKE ? ESCAPE '\\' OR message LIKE ? ESCAPE '\\' OR profile_name LIKE ? ESCAPE '\\'${byWords})`,
      );
      const t = likeTerm(filter.text);
      params.push(t, t, t, t, ...named);
    }
    if (filter.outcome) {
      clauses.push('outcome = ?');
      params.push(filter.outcome);
    }
    if (filter.action) {
      clauses.push('action = ?');
      params.push(filter.action);
    }
    return { sql: clauses.join(' AND '), params };
  }

  listAudit(filter: AuditFilter, offset: number, limit: number): { entries: AuditEntry[]; total: number } {
    const where = this.auditWhere(filter);
    const total = (this.db.prepare(`SELECT count(*) AS n FROM audit WHERE ${where.sql}`).get(...where.params) as { n: number }).n;
    const entries = this.db
      .prepare(`${AUDIT_SELECT} WHERE ${where.sql} ORDER BY id DESC LIMIT ? OFFSET ?`)
      .all(...where.params, limit, offset) as unknown as AuditEntry[];
    return { entries: entries.map((e) => ({ ...e })), total };
  }

  /** Every entry the filter matches, newest first, one at a time (for exports). */
  *iterateAudit(filter: AuditFilter): Generator<AuditEntry> {
    const where = this.auditWhere(filter);
    for (const e of this.db.prepare(`${AUDIT_SELECT} WHERE ${where.sql} ORDER BY id DESC`).iterate(...where.params))
      yield { ...(e as unknown as AuditEntry) };
  }
}
