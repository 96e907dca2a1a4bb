// What each place that shows jobs reads from the one map of jobs: the current job, a panel's, the list.
import type { JobSummary } from '../../../shared/domain.ts';
import type { JobsSlice } from './types.ts';

type Jobs = Pick<JobsSlice, 'jobs' | 'currentJobId' | 'generateJobId' | 'bulkJobId' | 'elsewhereJobId' | 'jobListIds'>;

const byId = (s: Jobs, id: string | null): JobSummary | null => (id === null ? null : (s.jobs[id] ?? null));

/** The active profile's current (or last interrupted) job. */
export const selectJob = (s: Jobs): JobSummary | null => byId(s, s.currentJobId);
export const selectGenerateJob = (s: Jobs): JobSummary | null => byId(s, s.generateJobId);
export const selectBulkJob = (s: Jobs): JobSummary | null => byId(s, s.bulkJobId);
export const selectJobElsewhere = (s: Jobs): JobSummary | null => byId(s, s.elsewhereJobId);

/** Newest first, as main lists them; ties by id, as main breaks them. */
export const byNewest = (a: JobSummary, b: JobSummary): number =>
  a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? 1 : -1;

let listed: { jobs: Jobs['jobs']; ids: Jobs['jobListIds']; list: JobSummary[] } | null = null;
/** The Jobs view's list, newest first: the same array until the jobs or the list change (a selector's answer). */
export function selectJobList(s: Jobs): JobSummary[] {
  if (listed?.jobs !== s.jobs || listed.ids !== s.jobListIds) {
    const list = s.jobListIds.map((id) => s.jobs[id]).filter((j): j is JobSummary => j !== undefined);
    listed = { jobs: s.jobs, ids: s.jobListIds, list: list.sort(byNewest) };
  }
  return listed.list;
}

/** Every job a place on screen shows: the panels', the one elsewhere, and the list's. */
export const shownJobs = (s: Jobs): JobSummary[] =>
  [selectJob(s), selectBulkJob(s), selectGenerateJob(s), selectJobElsewhere(s), ...selectJobList(s)].filter(
    (j): j is JobSummary => j !== null,
  );
