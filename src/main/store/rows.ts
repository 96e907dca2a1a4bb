// Row mappers: how ledger and job rows are read from SQLite into the shared domain's shapes, and how a key's
// search text is written.
import type { Key, LedgerRow } from '../../shared/domain.ts';
import type { JobAction, JobEvent, JobState } from '../../shared/domain.ts';
import { JOB_STORY_COLUMNS, jobHistory } from './job-story.ts';

/** A ledger row as SQLite gives it (SELECT ledger.*). */
export interface LedgerDbRow {
  value: string;
  note: string;
  status: string;
  is_premium: number;
  expires_at: string | null;
  hwid: string | null;
  created_at: string | null;
  last_seen_at: string;
  days_key: number | null;
  expiry_stale: number;
  hwid_stale: number;
  status_stale: number;
}

export function toLedgerRow(r: LedgerDbRow): LedgerRow {
  return {
    value: r.value,
    note: r.note,
    status: r.status === 'active' || r.status === 'deleted' ? r.status : 'generated',
    isPremium: r.is_premium === 1,
    expiresAt: r.expires_at,
    daysKey: r.days_key,
    hwid: r.hwid,
    createdAt: r.created_at,
    lastSeenAt: r.last_seen_at,
    ...(r.expiry_stale !== 0 ? { expiryStale: true } : {}),
    ...(r.hwid_stale !== 0 ? { hwidStale: true } : {}),
    ...(r.status_stale !== 0 ? { statusStale: true } : {}),
  };
}

/** A job as stored: its parameters stay JSON, read by the job service that wrote them. */
export interface StoredJob {
  id: string;
  profileId: string;
  action: JobAction;
  params: string;
  state: JobState;
  reason: string | null;
  createdAt: string;
  finishedAt: string | null;
  total: number;
  /** When the job's current (or last) run began. */
  runAt: string | null;
  /** When that run's last answers were written; null when none was. */
  answeredAt: string | null;
  /**
   * Keydesk stopped while the job ran (a crash, a kill), so its end was not seen: finishedAt is the last moment it
   * was known at work (answeredAt, else runAt, else createdAt), not when it stopped.
   */
  endUnseen: boolean;
  /** What the job acts on, in words (job-story.ts); null for a job made before labels. */
  label: string | null;
  history: JobEvent[];
}
export const JOB_SELECT = `SELECT id, profile_id AS profileId, action, params, state, reason, created_at AS createdAt, finished_at AS finishedAt, total, run_at AS runAt, answered_at AS answeredAt, end_unseen AS endUnseen, ${JOB_STORY_COLUMNS} FROM jobs`;
/** A job's row as JOB_SELECT reads it. */
export type JobRow = Omit<StoredJob, 'endUnseen' | 'history'> & { endUnseen: number; history: string | null };
export const storedJob = (row: JobRow): StoredJob => ({ ...row, endUnseen: row.endUnseen !== 0, history: jobHistory(row.history) });

/**
 * A key as upsertKeys writes it: value, note, status, premium (0/1), expiry, HWID, creation, search text, days
 * (a days key's), the HWID as the search text ends with it (lower-cased; '' for none), and the activation time.
 */
export type LedgerRowTuple = [
  string,
  string,
  Key['status'],
  0 | 1,
  string | null,
  string | null,
  string | null,
  string,
  number | null,
  string,
  string | null,
];

/**
 * A key's search text (value, note and HWID, lower-cased, each part after a newline) and its HWID part, whose
 * length in characters is stored with it (hwid_chars) so its trigrams are indexed apart (schema.ts).
 */
export function searchText(k: Pick<Key, 'value' | 'note' | 'hwid'>): { search: string; hwid: string } {
  const hwid = (k.hwid ?? '').toLowerCase();
  return { search: `${k.value}\n${k.note}\n`.toLowerCase() + hwid, hwid };
}
