// The audit log: one entry per act a person took (a bulk act is its job's one entry, with its counts), written before
// the act and settled after it, and found by text (the words Activity shows, an id, a target, a message), service,
// outcome and action.
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { AuditEntry, JobItemState, JobState, KeyFields } from '../../shared/domain.ts';
import { BULK_WORDS, OPERATION_WORDS, RETIRED_WORDS } from '../../shared/operation-words.ts';

export interface AuditFilter {
  text?: string | undefined;
  outcome?: AuditEntry['outcome'] | undefined;
  action?: string | undefined;
  profileId?: string | undefined;
  /** A customer's entries: its own (target ends "(customer N)"), acts on its keys, and jobs over any of them. */
  customerId?: number | undefined;
}

/** An entry to write; `before`: the fields of its target key the act changes, read from the ledger as it is written. */
export type NewAuditEntry = Omit<AuditEntry, 'id' | 'at' | 'job' | 'change'> & { at?: string; before?: readonly (keyof KeyFields)[] };

interface AuditRow extends Omit<AuditEntry, 'job' | 'change'> {
  jobId: string | null;
  counts: string | null;
  before: string | null;
  after: string | null;
  jobState: JobState | null;
}

const AUDIT_SELECT = `SELECT a.id, a.at, a.profile_id AS profileId, a.profile_name AS profileName, a.action, a.target, a.outcome,
  a.message, a.job_id AS jobId, a.counts, a.before, a.after, j.state AS jobState FROM audit AS a LEFT JOIN jobs AS j ON j.id = a.job_id`;

/** Each outcome filter's key count in a bulk entry: the entry is found under every outcome its keys had. */
const COUNTED: Record<AuditEntry['outcome'], JobItemState> = { ok: 'done', failed: 'failed', unknown: 'unknown' };

const likeTerm = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export class AuditLog {
  private readonly db: DatabaseSync;
  /** A running job's counts, read when its entry is listed (its entry holds them once a run ends). */
  private readonly jobCounts: (jobId: string) => Record<JobItemState, number>;

  constructor(db: DatabaseSync, jobCounts: (jobId: string) => Record<JobItemState, number>) {
    this.db = db;
    this.jobCounts = jobCounts;
  }

  /** Writes an entry; returns its id, for settleAudit(). */
  audit(entry: NewAuditEntry): number {
    const before = entry.before ? JSON.stringify(this.ledgerFields(entry.profileId, entry.target, entry.before)) : null;
    const { lastInsertRowid } = this.db
      .prepare('INSERT INTO audit (at, profile_id, profile_name, action, target, outcome, message, before) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(
        entry.at ?? new Date().toISOString(),
        entry.profileId,
        entry.profileName,
        entry.action,
        entry.target,
        entry.outcome,
        entry.message,
        before,
      );
    return Number(lastInsertRowid);
  }

  /** A key's fields as the ledger holds them; one marked as not read back since an act, or a key never read, is left out. */
  private ledgerFields(profileId: string, value: string, fields: readonly (keyof KeyFields)[]): KeyFields {
    const row = this.db
      .prepare('SELECT hwid, expires_at, note, is_premium, hwid_stale, expiry_stale FROM ledger WHERE profile_id = ? AND value = ?')
      .get(profileId, value) as
      | { hwid: string | null; expires_at: string | null; note: string; is_premium: number; hwid_stale: number; expiry_stale: number }
      | undefined;
    if (!row) return {};
    const read: KeyFields = {
      ...(row.hwid_stale === 0 ? { hwid: row.hwid } : {}),
      ...(row.expiry_stale === 0 ? { expiresAt: row.expires_at } : {}),
      note: row.note,
      isPremium: row.is_premium !== 0,
    };
    return Object.fromEntries(fields.filter((f) => f in read).map((f) => [f, read[f]]));
  }

  /** The act an entry was written for has ended: its outcome and words, and the fields it changed as read after it. */
  settleAudit(id: number, outcome: AuditEntry['outcome'], message: string, after?: KeyFields): void {
    this.db
      .prepare('UPDATE audit SET outcome = ?, message = ?, after = coalesce(?, after) WHERE id = ?')
      .run(outcome, message, after ? JSON.stringify(after) : null, id);
  }

  private auditWhere(filter: AuditFilter): { sql: string; params: SQLInputValue[] } {
    const clauses = ['1 = 1'];
    const params: SQLInputValue[] = [];
    if (filter.text) {
      // The text finds an operation by the words Activity shows for it ("Push an execution", or a part of them),
      // by its id ("keys.delete"), and by its target, message or service.
      const term = filter.text.toLowerCase();
      const matching = (words: Readonly<Record<string, string | undefined>>): string[] =>
        Object.entries(words)
          .filter(([, w]) => w?.toLowerCase().includes(term))
          .map(([id]) => id);
      const named = matching({ ...RETIRED_WORDS, ...OPERATION_WORDS });
      const bulk = matching(BULK_WORDS);
      const byWords = named.length > 0 ? ` OR a.action IN (${named.map(() => '?').join(', ')})` : '';
      const byBulk = bulk.length > 0 ? ` OR (a.job_id IS NOT NULL AND a.action IN (${bulk.map(() => '?').join(', ')}))` : '';
      clauses.push(
        `(a.action LIKE ? ESCAPE '\\' OR a.target LIKE ? ESCAPE '\\' OR a.message LIKE ? ESCAPE '\\' OR a.profile_name LIKE ? ESCAPE '\\'${byWords}${byBulk})`,
      );
      const t = likeTerm(filter.text);
      params.push(t, t, t, t, ...named, ...bulk);
    }
    if (filter.profileId !== undefined) {
      clauses.push('a.profile_id = ?');
      params.push(filter.profileId);
    }
    if (filter.outcome) {
      clauses.push(`(a.outcome = ? OR a.counts ->> '$.${COUNTED[filter.outcome]}' > 0)`);
      params.push(filter.outcome);
    }
    if (filter.action) {
      clauses.push('a.action = ?');
      params.push(filter.action);
    }
    if (filter.customerId !== undefined) {
      const keys = 'SELECT value FROM customer_keys WHERE profile_id = a.profile_id AND customer_id = ?';
      clauses.push(
        `(a.target LIKE ? OR a.target IN (${keys}) OR (a.job_id IS NOT NULL AND EXISTS (SELECT 1 FROM job_items AS i WHERE i.job_id = a.job_id AND i.target IN (${keys}))))`,
      );
      params.push(`%(customer ${filter.customerId})`, filter.customerId, filter.customerId);
    }
    return { sql: clauses.join(' AND '), params };
  }

  private entry(row: AuditRow): AuditEntry {
    const { jobId, counts, before, after, jobState, ...entry } = row;
    if (jobId !== null) {
      const live = jobState === 'running' ? this.jobCounts(jobId) : null;
      const stored = counts === null ? null : (JSON.parse(counts) as Record<JobItemState, number>);
      return { ...entry, job: { id: jobId, state: jobState, counts: live ?? stored, kept: jobState !== null } };
    }
    if (before === null) return { ...entry };
    return {
      ...entry,
      change: { before: JSON.parse(before) as KeyFields, after: after === null ? null : (JSON.parse(after) as KeyFields) },
    };
  }

  listAudit(filter: AuditFilter, offset: number, limit: number): { entries: AuditEntry[]; total: number } {
    const where = this.auditWhere(filter);
    const total = (this.db.prepare(`SELECT count(*) AS n FROM audit AS a WHERE ${where.sql}`).get(...where.params) as { n: number }).n;
    const rows = this.db
      .prepare(`${AUDIT_SELECT} WHERE ${where.sql} ORDER BY a.id DESC LIMIT ? OFFSET ?`)
      .all(...where.params, limit, offset) as unknown as AuditRow[];
    return { entries: rows.map((r) => this.entry(r)), total };
  }

  /** Every entry the filter matches, newest first, one at a time (for exports). */
  *iterateAudit(filter: AuditFilter): Generator<AuditEntry> {
    const where = this.auditWhere(filter);
    for (const r of this.db.prepare(`${AUDIT_SELECT} WHERE ${where.sql} ORDER BY a.id DESC`).iterate(...where.params))
      yield this.entry(r as unknown as AuditRow);
  }
}
