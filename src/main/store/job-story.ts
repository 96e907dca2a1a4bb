// What a job touched and what happened to it: its target in words, given when it is made, and the steps of its life
// (started, cancelled at 8 of 499, resumed, finished), each with how many of its keys were answered by then.
import type { DatabaseSync } from 'node:sqlite';
import type { JobEvent } from '../../shared/domain.ts';

/** The most characters a job's label keeps. */
export const JOB_LABEL_MAX = 200;

/** JOB_SELECT's columns for a job's label and history (a JSON list of JobEvent), read with the job. */
export const JOB_STORY_COLUMNS = `(SELECT label FROM job_labels WHERE job_id = jobs.id) AS label,
  (SELECT json_group_array(json_object('at', at, 'event', event, 'done', done, 'total', total))
   FROM (SELECT * FROM job_events WHERE job_id = jobs.id ORDER BY seq)) AS history`;

export const jobHistory = (json: string | null): JobEvent[] => (json === null ? [] : (JSON.parse(json) as JobEvent[]));

export class JobStory {
  private readonly db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.db = db;
  }

  label(jobId: string, label: string): void {
    this.db.prepare('INSERT OR REPLACE INTO job_labels (job_id, label) VALUES (?, ?)').run(jobId, label.slice(0, JOB_LABEL_MAX));
  }

  /**
   * A step of a job's life at `at`, with its keys answered so far (a generate batch counts for its size). The same
   * end written twice (a run's end, then the state set again) is one step.
   */
  note(jobId: string, event: JobEvent['event'], at: string): void {
    const last = this.db.prepare('SELECT event FROM job_events WHERE job_id = ? ORDER BY seq DESC LIMIT 1').get(jobId) as
      { event: string } | undefined;
    if (last?.event === event && event !== 'resumed') return;
    this.db
      .prepare(
        `INSERT INTO job_events (job_id, seq, at, event, done, total)
         SELECT ?1, coalesce((SELECT max(seq) FROM job_events WHERE job_id = ?1), 0) + 1, ?2, ?3,
           (SELECT coalesce(sum(size), 0) FROM job_items WHERE job_id = ?1 AND state NOT IN ('pending', 'sent', 'retry')), total
         FROM jobs WHERE id = ?1`,
      )
      .run(jobId, at, event);
  }

  forget(jobId: string): void {
    this.db.prepare('DELETE FROM job_labels WHERE job_id = ?').run(jobId);
    this.db.prepare('DELETE FROM job_events WHERE job_id = ?').run(jobId);
  }
}
