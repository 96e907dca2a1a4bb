// The jobs store: bulk jobs and their items as persisted (src/main/jobs/ runs them), each step's settlement with
// the ledger rows it brings, in one transaction, a job's one audit entry, and what a crash or quit leaves behind.
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { JsonText } from '../../shared/key-batch.ts';
import type { OperationName } from '../../shared/contract.ts';
import type { JobAction, JobItem, JobItemState, JobState, Key, LedgerRow } from '../../shared/domain.ts';
import { keyCount } from '../../shared/operation-words.ts';
import type { Connection } from './connection.ts';
import type { LedgerFilter, LedgerFilters } from './ledger-filter.ts';
import { JobStory } from './job-story.ts';
import type { LedgerWrites } from './ledger-writes.ts';
import { jobEndAudit, jobItemCounts } from './job-audit.ts';
import { JOB_SELECT, storedJob, toLedgerRow, type JobRow, type LedgerDbRow, type StoredJob } from './rows.ts';

export type { StoredJob };

/** A run's end as the job service saw it (LocalDb.endJobRun; the job writer's JobRunEnd is this type). */
export interface RunEndRecord {
  jobId: string;
  state: JobState;
  reason: string | null;
  finishedAt: string;
  /**
   * The end of a start or resume cancelled before it ran (it sent nothing): written whatever state the job stopped in
   * (a resume's file still says that state), not only over "running".
   */
  anyState?: true;
}
/** How one sent item ended, with what the ledger learns from it; written in one transaction. */
export interface ItemSettlement {
  seq: number;
  /** 'retry': an unknown item the user chose to send again, put back unsent (ClaimedJobItem.retry). */
  state: Exclude<JobItemState, 'sent'> | 'retry';
  code: string | null;
  message: string | null;
}
export interface SettleBatch {
  jobId: string;
  profileId: string;
  items: readonly ItemSettlement[];
  seenKeys: readonly Key[];
  /** Keys described in part (no status): their reported fields update existing rows; the status stays. */
  reportedKeys?: readonly Key[];
  /** Values whose HWID a reset cleared (the service described nothing more): the rest of the row stays. */
  hwidCleared?: readonly string[];
  /** Values extended whose new expiry could not be read back: their rows are marked (markStale). */
  expiryStale?: readonly string[];
  /** Values whose HWID reset was sent with no answer (unknown): their rows' HWID is marked (markStale). */
  hwidStale?: readonly string[];
  /** Values whose delete was sent with no answer (unknown): their rows' status is marked (markStale). */
  statusStale?: readonly string[];
  deletedValues: readonly string[];
  /** Values a generate job made, kept with the job for its export: per answer one JSON list of them (a KeyBatch's `values` as it came). */
  generatedValues?: readonly JsonText<string[]>[];
}
/**
 * An item claimed for sending (committed as sent). `retry`: it was unknown and the user chose to send it again;
 * its earlier evidence (kept on the row while it is sent), to put back if it goes unsent.
 */
export interface ClaimedJobItem {
  seq: number;
  target: string;
  size: number;
  retry?: { code: string | null; message: string | null };
}
/**
 * An item's state as the file holds it: a JobItemState, or 'retry', an unknown item the user chose to send again,
 * only while the run that was given that yes goes on (it ends, or the next start, puts it back to unknown). Read
 * as 'unknown' everywhere: its outcome is unknown until it is sent again.
 */
const ITEM_STATE = "CASE state WHEN 'retry' THEN 'unknown' ELSE state END";
/**
 * An item's state as shown while its job runs: one claimed and not sent yet (its number in the JSON list bound as
 * `param`, from the run: send-log.ts) is as it was before the claim, pending, or unknown for one the user chose to
 * send again (claimed with its earlier code kept). Sent in the file means claimed; only the run knows what went out.
 */
function shownItemState(param: string, table = ''): string {
  return `CASE WHEN ${table}state = 'sent' AND ${table}seq IN (SELECT value FROM json_each(${param})) THEN (CASE WHEN ${table}code IS NULL THEN 'pending' ELSE 'unknown' END) WHEN ${table}state = 'retry' THEN 'unknown' ELSE ${table}state END`;
}
/** A job's action as its audit entry names it. */
const JOB_AUDIT_ACTION = {
  delete: 'keys.delete',
  extend: 'keys.extend',
  resetHwid: 'keys.resetHwid',
  generate: 'keys.generate',
  import: 'import.start',
  refresh: 'refresh.start',
  edit: 'keys.edit',
} as const satisfies Record<JobAction, OperationName>;
/** A job's audit target: its keys, by how many days for an extend, with a generate's note. */
function jobAuditTarget(action: JobAction, total: number, params: string): string {
  const { days, generate, source } = JSON.parse(params) as { days?: number; generate?: { note: string }; source?: string };
  if (action === 'import' && source !== undefined) return `${keyCount(total)} imported from ${source.slice(0, 60)}`;
  if (action === 'extend' && days !== undefined)
    return `${keyCount(total)} by ${days.toLocaleString('en-US')} ${days === 1 ? 'day' : 'days'}`;
  return `${keyCount(total)}${generate?.note ? `: ${generate.note.slice(0, 60)}` : ''}`;
}

/** What a run's send log says (send-log.ts): the run it is for (jobs.run_at) and the items it sent. */
export interface SendLogRecord {
  run: string | null;
  sent: ReadonlySet<number>;
}

export class JobsStore {
  private readonly conn: Connection;
  private readonly db: DatabaseSync;
  private readonly filters: LedgerFilters;
  private readonly writes: LedgerWrites;
  private readonly story: JobStory;

  constructor(conn: Connection, filters: LedgerFilters, writes: LedgerWrites) {
    this.conn = conn;
    this.db = conn.db;
    this.filters = filters;
    this.writes = writes;
    this.story = new JobStory(conn.db);
  }

  /**
   * Creates a job and its items, all pending, in one transaction. Items are key values given, the keys a ledger
   * filter matches now (resolved here, in one statement, never shipped through the renderer), or a generate
   * job's batches. Returns the number of keys the job covers.
   */
  createJob(
    job: Pick<StoredJob, 'id' | 'profileId' | 'action' | 'params' | 'createdAt'> & { profileName?: string; label?: string },
    items: { keyValues: readonly string[]; activeOnly?: true } | { filter: LedgerFilter } | { batches: readonly number[] },
  ): number {
    return this.conn.tx(() => {
      this.db
        .prepare(
          "INSERT INTO jobs (id, profile_id, action, params, state, created_at, total, run_at) VALUES (?, ?, ?, ?, 'running', ?, 0, ?)",
        )
        .run(job.id, job.profileId, job.action, job.params, job.createdAt, job.createdAt);
      if ('filter' in items) {
        const where = this.filters.targetWhere(job.profileId, items.filter);
        this.db
          .prepare(
            `INSERT INTO job_items (job_id, seq, target, size, state) SELECT ?, row_number() OVER (ORDER BY value), value, 1, 'pending' FROM ledger WHERE ${where.sql}`,
          )
          .run(job.id, ...where.params);
      } else if ('batches' in items) {
        this.db
          .prepare(
            "INSERT INTO job_items (job_id, seq, target, size, state) SELECT ?, key + 1, 'batch ' || (key + 1), value, 'pending' FROM json_each(?)",
          )
          .run(job.id, JSON.stringify(items.batches));
      } else if ('activeOnly' in items) {
        // A reset's picked keys less those the ledger shows generated or deleted (the service refuses them); one it
        // does not hold is sent. A value given twice is one item.
        this.db
          .prepare(
            `INSERT INTO job_items (job_id, seq, target, size, state) SELECT ?, row_number() OVER (ORDER BY first), value, 1, 'pending'
             FROM (SELECT min(key) AS first, value FROM json_each(?) AS j WHERE NOT EXISTS
               (SELECT 1 FROM ledger WHERE profile_id = ? AND ledger.value = j.value AND status <> 'active') GROUP BY value)`,
          )
          .run(job.id, JSON.stringify(items.keyValues), job.profileId);
      } else {
        // A value given twice is one item: sending it twice would extend twice.
        this.db
          .prepare(
            "INSERT INTO job_items (job_id, seq, target, size, state) SELECT ?, min(key) + 1, value, 1, 'pending' FROM json_each(?) GROUP BY value",
          )
          .run(job.id, JSON.stringify(items.keyValues));
      }
      const { total } = this.db.prepare('SELECT coalesce(sum(size), 0) AS total FROM job_items WHERE job_id = ?').get(job.id) as {
        total: number;
      };
      this.db.prepare('UPDATE jobs SET total = ? WHERE id = ?').run(total, job.id);
      if (job.label !== undefined) this.story.label(job.id, job.label);
      this.story.note(job.id, 'started', job.createdAt);
      // The act's one entry in Activity: its items stay the job's (a bulk of 100,000 keys is not 100,000 entries).
      if (total > 0) {
        this.db
          .prepare(
            `INSERT INTO audit (at, profile_id, profile_name, action, target, outcome, message, job_id) VALUES (?1, ?2,
             coalesce(?3, (SELECT profile_name FROM audit WHERE profile_id = ?2 ORDER BY id DESC LIMIT 1), ?2), ?4, ?5, 'unknown', '', ?6)`,
          )
          .run(
            job.createdAt,
            job.profileId,
            job.profileName ?? null,
            JOB_AUDIT_ACTION[job.action],
            jobAuditTarget(job.action, total, job.params),
            job.id,
          );
      }
      return total;
    });
  }

  job(jobId: string): StoredJob | null {
    const row = this.db.prepare(`${JOB_SELECT} WHERE id = ?`).get(jobId) as JobRow | undefined;
    return row ? storedJob(row) : null;
  }

  /**
   * A profile's most recent jobs, newest first, and every job still running or interrupted however old: a window
   * reloaded after many finished jobs must still find the one it can follow, cancel or resume.
   */
  jobs(profileId: string, limit = 20): StoredJob[] {
    const sql = `${JOB_SELECT} WHERE profile_id = ?1 AND (state IN ('running', 'interrupted')
      OR id IN (SELECT id FROM jobs WHERE profile_id = ?1 ORDER BY created_at DESC, id LIMIT ?2)) ORDER BY created_at DESC, id`;
    return (this.db.prepare(sql).all(profileId, limit) as unknown as JobRow[]).map(storedJob);
  }

  /**
   * Forgets a job: its row, its items and the list of keys it made, in one transaction. The keys themselves stay
   * in the ledger and its audit entry, with its counts, stays; only the job's own record goes.
   */
  forgetJob(jobId: string): boolean {
    return this.conn.tx(() => {
      this.auditJobEnd(jobId);
      this.db.prepare('DELETE FROM job_items WHERE job_id = ?').run(jobId);
      this.db.prepare('DELETE FROM job_keys WHERE job_id = ?').run(jobId);
      this.db.prepare('DELETE FROM job_customers WHERE job_id = ?').run(jobId);
      this.story.forget(jobId);
      return Number(this.db.prepare('DELETE FROM jobs WHERE id = ?').run(jobId).changes) > 0;
    });
  }

  /** How many jobs a profile has (jobs_by_profile answers it from the index). */
  jobTotal(profileId: string): number {
    return (this.db.prepare('SELECT count(*) AS n FROM jobs WHERE profile_id = ?').get(profileId) as { n: number }).n;
  }

  /** A job's state as this process saw it: an end given here is one seen (end_unseen 0). */
  setJobState(jobId: string, state: JobState, reason: string | null, finishedAt: string | null): void {
    this.db
      .prepare('UPDATE jobs SET state = ?, reason = ?, finished_at = ?, end_unseen = 0 WHERE id = ?')
      .run(state, reason, finishedAt, jobId);
    if (state !== 'running') {
      this.auditJobEnd(jobId);
      this.story.note(jobId, state, finishedAt ?? new Date().toISOString());
    }
  }

  /** A stopped job's audit entry takes its counts and end: found under each outcome its keys had. */
  private auditJobEnd(jobId: string): void {
    const job = this.db
      .prepare("SELECT state, reason, profile_id, action, params, total, created_at FROM jobs WHERE id = ? AND state <> 'running'")
      .get(jobId) as
      | { state: JobState; reason: string | null; profile_id: string; action: JobAction; params: string; total: number; created_at: string }
      | undefined;
    if (!job) return;
    const { outcome, message, counts } = jobEndAudit(job.state, job.reason, this.jobCounts(jobId));
    const updated = this.conn
      .statement('UPDATE audit SET outcome = ?, message = ?, counts = ? WHERE job_id = ?')
      .run(outcome, message, JSON.stringify(counts), jobId);
    if (Number(updated.changes) > 0 || job.total === 0) return;
    // A job made before bulk acts had one entry each (an older file): its entry is made now, so its runs are seen.
    this.db
      .prepare(
        `INSERT INTO audit (at, profile_id, profile_name, action, target, outcome, message, job_id, counts) VALUES (?1, ?2,
         coalesce((SELECT profile_name FROM audit WHERE profile_id = ?2 ORDER BY id DESC LIMIT 1), ?2), ?3, ?4, ?5, ?6, ?7, ?8)`,
      )
      .run(
        job.created_at,
        job.profile_id,
        JOB_AUDIT_ACTION[job.action],
        jobAuditTarget(job.action, job.total, job.params),
        outcome,
        message,
        jobId,
        JSON.stringify(counts),
      );
  }

  /** A run of the job begins `at`: running, no end, and no answer of this run written yet. */
  beginJobRun(jobId: string, at: string): void {
    this.db
      .prepare(
        "UPDATE jobs SET state = 'running', reason = NULL, finished_at = NULL, run_at = ?, answered_at = NULL, end_unseen = 0 WHERE id = ?",
      )
      .run(at, jobId);
    // A first run begins at the job's creation (JobService.runReserved): only a later one is a resume.
    if (this.db.prepare('SELECT 1 FROM jobs WHERE id = ? AND created_at = ?').get(jobId, at) === undefined)
      this.story.note(jobId, 'resumed', at);
  }

  /** Keys per item state (a generate batch counts for its size; other items are one key, counted from the index alone). */
  jobCounts(jobId: string): Record<JobItemState, number> {
    return jobItemCounts((sql) => this.conn.statement(sql), jobId);
  }

  /**
   * Marks up to `max` pending items sent, lowest first, and returns them: committed before any of them goes on
   * the wire, so a crash from here on leaves them "sent", which the next start turns into "unknown". `retry`: a
   * run the user said yes to sending the unknown items again; once no item is pending, those ('retry') are
   * claimed too, their earlier code and message kept on the row.
   */
  claimJobItems(jobId: string, max: number, retry = false): ClaimedJobItem[] {
    const rows = this.conn
      .statement(
        `UPDATE job_items SET state = 'sent' WHERE job_id = ?1 AND seq IN
         (SELECT seq FROM job_items WHERE job_id = ?1 AND state = 'pending' ORDER BY seq LIMIT ?2)
       RETURNING seq, target, size`,
      )
      .all(jobId, max) as { seq: number; target: string; size: number }[];
    const claimed: ClaimedJobItem[] = rows.map((r) => ({ seq: r.seq, target: r.target, size: r.size }));
    if (retry && claimed.length < max) {
      const again = this.conn
        .statement(
          `UPDATE job_items SET state = 'sent' WHERE job_id = ?1 AND seq IN
           (SELECT seq FROM job_items WHERE job_id = ?1 AND state = 'retry' ORDER BY seq LIMIT ?2)
         RETURNING seq, target, size, code, message`,
        )
        .all(jobId, max - claimed.length) as { seq: number; target: string; size: number; code: string | null; message: string | null }[];
      for (const r of again) claimed.push({ seq: r.seq, target: r.target, size: r.size, retry: { code: r.code, message: r.message } });
    }
    return claimed.sort((a, b) => a.seq - b.seq);
  }

  /**
   * One step of a running job, in one transaction: what settled since the last step (item outcomes, the keys
   * they changed), then up to `claim` more items marked sent. One commit per step, not
   * one per item: at hundreds of items a second the commits are what cost.
   */
  jobStep(
    batch: SettleBatch | null,
    claim: { jobId: string; max: number; retry?: boolean } | null,
    at = new Date().toISOString(),
  ): ClaimedJobItem[] {
    if (batch === null && claim === null) return [];
    return this.conn.tx(() => {
      if (batch !== null) this.settleInTx(batch, at);
      return claim === null || claim.max <= 0 ? [] : this.claimJobItems(claim.jobId, claim.max, claim.retry === true);
    });
  }

  /** Item outcomes and the keys they changed, in one transaction. */
  settleJobItems(batch: SettleBatch, at = new Date().toISOString()): void {
    this.conn.tx(() => {
      this.settleInTx(batch, at);
    });
  }

  private settleInTx(batch: SettleBatch, at: string): void {
    // One keyed update per item: a join against json_each here may scan the job's items once per batch.
    const setItem = this.conn.statement('UPDATE job_items SET state = ?, code = ?, message = ? WHERE job_id = ? AND seq = ?');
    for (const i of batch.items) setItem.run(i.state, i.code, i.message, batch.jobId, i.seq);
    // The job was at work now: a crash from here on ends it no earlier than this (interruptRunningJobs). An item put
    // back unsent (a 429, the network) is no outcome.
    if (batch.items.some((i) => i.state !== 'pending' && i.state !== 'retry')) {
      this.conn.statement('UPDATE jobs SET answered_at = ? WHERE id = ?').run(at, batch.jobId);
    }
    if (batch.seenKeys.length > 0) this.writes.upsertKeys(batch.profileId, batch.seenKeys, at, true);
    for (const k of batch.reportedKeys ?? []) this.writes.recordReportedFields(batch.profileId, k, at);
    if (batch.hwidCleared) this.writes.markHwidCleared(batch.profileId, batch.hwidCleared, at);
    if (batch.expiryStale) this.writes.markStale(batch.profileId, 'expiry', batch.expiryStale);
    if (batch.hwidStale) this.writes.markStale(batch.profileId, 'hwid', batch.hwidStale);
    if (batch.statusStale) this.writes.markStale(batch.profileId, 'status', batch.statusStale);
    if (batch.deletedValues.length > 0) this.writes.markDeletedValues(batch.profileId, batch.deletedValues, at);
    // Straight from each answer's JSON list: 100,000 values never become 100,000 strings in main's heap. In key
    // order, they walk job_keys front to back rather than landing on random pages: about half the time.
    for (const values of batch.generatedValues ?? []) {
      this.conn
        .statement('INSERT OR IGNORE INTO job_keys (job_id, value) SELECT ?, value FROM json_each(?) ORDER BY value')
        .run(batch.jobId, values);
      // A generate job made for a customer: its keys are theirs as they are recorded (none read for other jobs).
      this.conn
        .statement(
          `INSERT INTO customer_keys (profile_id, value, customer_id)
           SELECT c.profile_id, j.value, c.id FROM job_customers AS jc JOIN customers AS c ON c.id = jc.customer_id CROSS JOIN json_each(?) AS j
           WHERE jc.job_id = ? ON CONFLICT (profile_id, value) DO UPDATE SET customer_id = excluded.customer_id`,
        )
        .run(values, batch.jobId);
    }
  }

  /**
   * The user chose to send a job's unknown items again: they become 'retry' (code and message kept), which only
   * the run given that yes claims. Returns how many keys they cover.
   */
  approveUnknownJobItems(jobId: string): number {
    const r = this.db.prepare("UPDATE job_items SET state = 'retry' WHERE job_id = ? AND state = 'unknown' RETURNING size").all(jobId) as {
      size: number;
    }[];
    return r.reduce((n, i) => n + i.size, 0);
  }

  /**
   * A run of a job has ended: its state, in one transaction with what the items left say. Unknown items a yes to
   * send again was for and that it did not send are unknown as before; an item still sent had its answer lost (it
   * could not be written) and is unknown: it may have taken effect.
   */
  endJobRun(jobId: string, state: JobState, reason: string | null, finishedAt: string): void {
    this.conn.tx(() => {
      this.endRunInTx(jobId, state, reason, finishedAt);
    });
  }

  private endRunInTx(jobId: string, state: JobState, reason: string | null, finishedAt: string): void {
    this.db.prepare("UPDATE job_items SET state = 'unknown' WHERE job_id = ? AND state = 'retry'").run(jobId);
    this.writes.markSentStale('SELECT id FROM jobs WHERE id = ?', jobId);
    const unanswered = 'Sent; Keydesk could not record its answer. It may or may not have taken effect.';
    this.db
      .prepare("UPDATE job_items SET state = 'unknown', code = 'OUTCOME_UNKNOWN', message = ? WHERE job_id = ? AND state = 'sent'")
      .run(unanswered, jobId);
    this.setJobState(jobId, state, reason, finishedAt);
  }

  /**
   * After a crash or quit (no job runs in this process any more): every job still marked running is
   * interrupted, and every item still marked sent, whatever its job's state, is unknown (it may or may not have
   * taken effect). Returns the ids of the jobs it interrupted. `at`: when they stopped, as this process saw it (a
   * quit). Without it (the next start, after a crash or a kill, or a quit that could not record this) no one saw
   * them stop: each ends at the last moment it was known at work (its run's last answers written, else the run's
   * start, else its creation), marked as such (end_unseen), never at the time of this call, which may be days later.
   * A job whose answers were written after `at` (a quit's grace) ends at its last answers, never before them.
   * `ends`: jobs still starting at a quit (cancelled, or to read that they sent nothing): each is written as it was
   * shown, in the same transaction, where its job is still running in the file (or whatever its state, with `anyState`).
   */
  interruptRunningJobs(
    reason: string,
    at?: string,
    ends: readonly RunEndRecord[] = [],
    sent: ReadonlyMap<string, SendLogRecord> = new Map(),
  ): string[] {
    return this.conn.tx(() => {
      // Items claimed that the run's send log says never went out: back as they were before the claim (send-log.ts).
      for (const [jobId, log] of sent) this.returnUnsent(jobId, log);
      const running = this.db.prepare('SELECT state FROM jobs WHERE id = ?');
      for (const end of ends) {
        const state = (running.get(end.jobId) as { state: string } | undefined)?.state;
        if (state === undefined || (state !== 'running' && end.anyState !== true)) continue;
        this.endRunInTx(end.jobId, end.state, end.reason, end.finishedAt);
      }
      this.writes.markSentStale('SELECT id FROM jobs');
      const unanswered = 'Sent when Keydesk stopped; no answer was recorded. It may or may not have taken effect.';
      this.db
        .prepare(
          "UPDATE job_items SET state = 'unknown', code = 'OUTCOME_UNKNOWN', message = ? WHERE job_id IN (SELECT id FROM jobs) AND state = 'sent'",
        )
        .run(unanswered);
      // A yes to send unknown items again was for the run that stopped: those it did not send stay unknown.
      this.db.prepare("UPDATE job_items SET state = 'unknown' WHERE job_id IN (SELECT id FROM jobs) AND state = 'retry'").run();
      const ids = (this.db.prepare("SELECT id FROM jobs WHERE state = 'running'").all() as { id: string }[]).map((r) => r.id);
      if (at !== undefined) {
        this.db
          .prepare(
            "UPDATE jobs SET state = 'interrupted', reason = ?1, finished_at = max(?2, coalesce(answered_at, ?2)), end_unseen = 0 WHERE state = 'running'",
          )
          .run(reason, at);
      } else {
        this.db
          .prepare(
            "UPDATE jobs SET state = 'interrupted', reason = ?, finished_at = coalesce(answered_at, run_at, created_at), end_unseen = 1 WHERE state = 'running'",
          )
          .run(reason);
      }
      const ended = this.db.prepare('SELECT finished_at AS at FROM jobs WHERE id = ?');
      for (const id of ids) {
        this.auditJobEnd(id);
        this.story.note(id, 'interrupted', (ended.get(id) as { at: string }).at);
      }
      return ids;
    });
  }

  /**
   * A job's items claimed (sent in the file) whose numbers are not in `sentSeqs`, the run's send log: they never
   * went on the wire. A pending item claimed goes back to pending; one of the unknown items the user chose to send
   * again (claimed with its earlier code kept) back to 'retry', which the caller's next step makes unknown again.
   */
  private returnUnsent(jobId: string, log: SendLogRecord): void {
    // Only the log of the run that claimed them: another run's (an older one left behind) says nothing of these.
    this.db
      .prepare(
        `UPDATE job_items SET state = CASE WHEN code IS NULL THEN 'pending' ELSE 'retry' END
         WHERE job_id = ?1 AND state = 'sent' AND seq NOT IN (SELECT value FROM json_each(?2))
           AND ?3 IS NOT NULL AND ?3 = (SELECT run_at FROM jobs WHERE id = ?1)`,
      )
      .run(jobId, JSON.stringify([...log.sent]), log.run);
  }

  /**
   * Before a job runs again: items an earlier run of it claimed and left so (its end could not be recorded) are
   * settled first, by that run's send log where it has one: never sent, back as before the claim; sent, or not
   * known, unknown (they may have taken effect: never sent again unasked). A yes to send unknown items again was
   * for that run: those it did not send are unknown again. So the new run's log starts over nothing it must know.
   */
  settleLeftoverClaims(jobId: string, log: SendLogRecord | null): void {
    this.conn.tx(() => {
      if (log !== null) this.returnUnsent(jobId, log);
      this.writes.markSentStale('SELECT id FROM jobs WHERE id = ?', jobId);
      const unanswered = 'Sent by an earlier run of this job; no answer was recorded. It may or may not have taken effect.';
      this.db
        .prepare("UPDATE job_items SET state = 'unknown', code = 'OUTCOME_UNKNOWN', message = ? WHERE job_id = ? AND state = 'sent'")
        .run(unanswered, jobId);
      this.db.prepare("UPDATE job_items SET state = 'unknown' WHERE job_id = ? AND state = 'retry'").run(jobId);
    });
  }

  /**
   * A job's items, of one state if given; `noted`: only those with words attached (a done item says why).
   * `unsent`: the items its run has claimed and not sent yet (JobService.claimedUnsent), shown as before the claim.
   */
  jobItems(
    jobId: string,
    state: JobItemState | undefined,
    offset: number,
    limit: number,
    noted = false,
    unsent: readonly number[] = [],
  ): { items: JobItem[]; total: number } {
    // No run's list (a job not running, or one with nothing claimed ahead): the file's states as they are, counted from
    // the index alone (a million items in milliseconds); with one, the state shown needs each claimed item's row.
    const shown = unsent.length === 0 ? ITEM_STATE : shownItemState('?1');
    const clauses = ['job_id = ?2'];
    const params: SQLInputValue[] = [JSON.stringify(unsent), jobId];
    if (state !== undefined && unsent.length === 0) {
      clauses.push(state === 'unknown' ? "state IN ('unknown', 'retry')" : 'state = ?3');
      if (state !== 'unknown') params.push(state);
    } else if (state !== undefined) {
      // The states an item shown as `state` can have in the file (an index on them), then the state shown.
      const stored = {
        pending: "'pending', 'sent'",
        sent: "'sent'",
        unknown: "'unknown', 'retry', 'sent'",
        done: "'done'",
        failed: "'failed'",
      }[state];
      clauses.push(`state IN (${stored})`, `${shown} = ?3`);
      params.push(state);
    }
    if (noted) clauses.push('message IS NOT NULL');
    const where = clauses.join(' AND ');
    const total = (this.db.prepare(`SELECT count(*) AS n FROM job_items WHERE ${where}`).get(...params) as { n: number }).n;
    const items = this.db
      .prepare(`SELECT seq, target, size, ${shown} AS state, code, message FROM job_items WHERE ${where} ORDER BY seq LIMIT ? OFFSET ?`)
      .all(...params, limit, offset) as unknown as JobItem[];
    return { items: items.map((i) => ({ ...i })), total };
  }

  *iterateJobItems(jobId: string): Generator<JobItem> {
    for (const i of this.db
      .prepare(`SELECT seq, target, size, ${ITEM_STATE} AS state, code, message FROM job_items WHERE job_id = ? ORDER BY seq`)
      .iterate(jobId))
      yield { ...(i as unknown as JobItem) };
  }

  /**
   * Every item of a job with its key's ledger row where there is one (a bulk job's keys): the expiry the ledger
   * holds now, and whether that is the one read back after the job's extend.
   */
  *iterateJobResults(
    jobId: string,
    profileId: string,
    unsent: readonly number[] = [],
  ): Generator<JobItem & { expiresAt: string | null; expiryStale: boolean }> {
    const rows = this.db
      .prepare(
        `SELECT i.seq, i.target, i.size, ${shownItemState('?3', 'i.')} AS state, i.code, i.message, l.expires_at AS expiresAt, coalesce(l.expiry_stale, 0) AS stale
         FROM job_items AS i LEFT JOIN ledger AS l ON l.profile_id = ?1 AND l.value = i.target WHERE i.job_id = ?2 ORDER BY i.seq`,
      )
      .iterate(profileId, jobId, JSON.stringify(unsent));
    for (const r of rows) {
      const { stale, ...item } = r as unknown as JobItem & { expiresAt: string | null; stale: number };
      yield { ...item, expiryStale: stale !== 0 };
    }
  }

  /** How many of a generate job's keys the ledger holds: the rows iterateJobKeys gives. */
  jobKeyCount(jobId: string, profileId: string): number {
    return (
      this.db
        .prepare(
          'SELECT count(*) AS n FROM job_keys CROSS JOIN ledger ON ledger.profile_id = ? AND ledger.value = job_keys.value WHERE job_keys.job_id = ?',
        )
        .get(profileId, jobId) as { n: number }
    ).n;
  }

  /** A generate job's keys as the ledger has them now, in key order. */
  *iterateJobKeys(jobId: string, profileId: string): Generator<LedgerRow> {
    const rows = this.db
      .prepare(
        'SELECT ledger.* FROM job_keys CROSS JOIN ledger ON ledger.profile_id = ? AND ledger.value = job_keys.value WHERE job_keys.job_id = ? ORDER BY job_keys.value',
      )
      .iterate(profileId, jobId);
    for (const row of rows) yield toLedgerRow(row as unknown as LedgerDbRow);
  }

  bulkCeiling(profileId: string): number | null {
    const row = this.db.prepare('SELECT bulk_ceiling AS c FROM profile_settings WHERE profile_id = ?').get(profileId) as
      { c: number | null } | undefined;
    return row?.c ?? null;
  }

  setBulkCeiling(profileId: string, ceiling: number | null): void {
    this.db
      .prepare(
        'INSERT INTO profile_settings (profile_id, bulk_ceiling) VALUES (?, ?) ON CONFLICT (profile_id) DO UPDATE SET bulk_ceiling = excluded.bulk_ceiling',
      )
      .run(profileId, ceiling);
  }
}
