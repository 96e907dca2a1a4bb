// The Jobs view's slice: the active profile's jobs as main lists them (every running or interrupted job, and the
// 20 newest), kept current by main's progress events, the job opened and a page of its items. Acting on a job
// (cancel, resume, export) goes through the ledger slice's actions, which also keep All keys' and Keys' panels
// true; forgetting one is here.
import type { JobItemState, JobSummary } from '../../../shared/domain.ts';
import { IDLE } from './request.ts';
import type { JobItemsPage, JobsSlice, StoreContext } from './types.ts';

/** Items per page of an open job. */
export const JOB_ITEMS_PAGE = 100;
/** Newest jobs listed at first, and how many more each "Show older jobs" adds. */
export const JOBS_RECENT = 20;

const isShown = (p: JobItemsPage | null, jobId: string, state: JobItemState | null, offset: number): boolean =>
  p !== null && p.jobId === jobId && p.state === state && p.offset === offset;

/** Newest first, as main lists them; ties by id, as main breaks them. */
const byNewest = (a: JobSummary, b: JobSummary): number =>
  a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? 1 : -1;

/** What the Jobs view shows for one profile: a profile switch puts it back to this (see profileData). */
export const JOBS_INITIAL: Pick<
  JobsSlice,
  | 'jobList'
  | 'jobListRequest'
  | 'jobListRecent'
  | 'jobListUnlisted'
  | 'jobListNext'
  | 'openJobId'
  | 'jobItems'
  | 'jobItemsRequest'
  | 'forgettingJob'
> = {
  jobList: [],
  jobListRequest: IDLE,
  jobListRecent: JOBS_RECENT,
  jobListUnlisted: 0,
  jobListNext: null,
  openJobId: null,
  jobItems: null,
  jobItemsRequest: IDLE,
  forgettingJob: null,
};

export function createJobsSlice(ctx: StoreContext): JobsSlice {
  const { get, set, request } = ctx;
  /** The newest word heard on each job (events and answers race; a list answer may be older than it). */
  const heard = new Map<string, JobSummary>();
  const hear = (p: JobSummary) => {
    const old = heard.get(p.id);
    if (!old || p.version > old.version) heard.set(p.id, p);
  };

  /**
   * Main's word on a job (a progress event, an action's answer): the row is replaced when newer, and a job the list
   * has not seen yet (just started) is added. Another profile's job never enters the list.
   */
  const upsert = (p: JobSummary) => {
    const { activeProfileId, jobList, jobListRequest, openJobId, jobItems } = get();
    if (p.profileId !== activeProfileId) return;
    hear(p);
    if (jobListRequest.status !== 'ready') return;
    const i = jobList.findIndex((j) => j.id === p.id);
    const old = i >= 0 ? jobList[i] : undefined;
    if (old && p.version <= old.version) return;
    const next = old ? jobList.map((j) => (j.id === p.id ? p : j)) : [...jobList, p].sort(byNewest);
    set({ jobList: next });
    // The open job's items page changed under it when the job ended: read it again.
    const ended = old !== undefined && old.finishedAt === null && p.finishedAt !== null;
    if (ended && openJobId === p.id && jobItems?.jobId === p.id) void get().loadJobItems(jobItems.state, jobItems.offset);
  };

  /**
   * A list answer beside what was heard. Answers and progress events race (the harness carries them apart): a job
   * a newer event described stays as that event said, and a job still running that the answer does not hold
   * started after main made it (main lists every running job), so it is listed too.
   */
  const merged = (answer: readonly JobSummary[]): JobSummary[] => {
    const profileId = get().activeProfileId;
    for (const j of get().jobList) hear(j);
    const newest = answer.reduce((v, j) => Math.max(v, j.version), 0);
    const listed = new Set(answer.map((j) => j.id));
    const rows = answer.map((j) => {
      const old = heard.get(j.id);
      return old && old.version > j.version ? old : j;
    });
    const later = [...heard.values()].filter(
      (j) => j.profileId === profileId && !listed.has(j.id) && j.finishedAt === null && j.version > newest,
    );
    // What the answer settles is kept no longer: a removed job is not brought back by an old word on it.
    heard.clear();
    return [...rows, ...later].sort(byNewest);
  };

  return {
    ...JOBS_INITIAL,
    noteJobProgress: upsert,
    loadJobList: async (older = false) => {
      get().followJobs();
      const { jobListRecent, jobListNext } = get();
      const recent = older ? (jobListNext ?? jobListRecent + JOBS_RECENT) : jobListRecent;
      // A refresh keeps the rows on screen until the answer; a first load shows the loading state.
      // Another profile's running job is said too (it keeps sending unseen), never listed as this profile's.
      const done = (d: { jobs: JobSummary[]; elsewhere: JobSummary[]; unlisted?: number; next?: number }) => {
        const elsewhere = d.elsewhere[0] ?? null;
        const shown = get().jobElsewhere;
        return {
          jobList: merged(d.jobs),
          jobListRecent: recent,
          jobListUnlisted: d.unlisted ?? 0,
          jobListNext: d.next ?? null,
          jobElsewhere: shown && elsewhere?.id === shown.id && shown.version > elsewhere.version ? shown : elsewhere,
        };
      };
      await request('jobs.list', recent === JOBS_RECENT ? undefined : { recent }, 'jobListRequest', done, {
        latest: true,
        background: get().jobListRequest.status === 'ready',
      });
    },
    openJob: (openJobId) => {
      set({ openJobId, jobItems: null, jobItemsRequest: IDLE });
    },
    loadJobItems: async (state, offset) => {
      const jobId = get().openJobId;
      if (jobId === null) return;
      await request(
        'jobs.items',
        { jobId, offset, limit: JOB_ITEMS_PAGE, ...(state === null ? {} : { state }) },
        'jobItemsRequest',
        // The job opened since is another: its page is not this answer.
        (d) => (get().openJobId === jobId ? { jobItems: { jobId, state, offset, items: d.items, total: d.total } } : {}),
        // Reading the page shown again (a running job) keeps it on screen; another page or state is a new load.
        { latest: true, background: isShown(get().jobItems, jobId, state, offset) },
      );
    },
    forgetJob: async (jobId) => {
      if (get().forgettingJob !== null) return false;
      set({ forgettingJob: jobId });
      const r = await ctx.run('jobs.forget', { jobId });
      set({ forgettingJob: null });
      if (!r) return false;
      if ('failure' in r) {
        get().notifyFailure('jobs.forget', r.failure);
        return false;
      }
      const { openJobId, job, bulkJob, generateJob } = get();
      // Gone from main: gone from every place that showed it.
      set({
        jobList: get().jobList.filter((j) => j.id !== jobId),
        ...(openJobId === jobId ? { openJobId: null, jobItems: null, jobItemsRequest: IDLE } : {}),
        ...(job?.id === jobId ? { job: null } : {}),
        ...(bulkJob?.id === jobId ? { bulkJob: null, jobProblems: null } : {}),
        ...(generateJob?.id === jobId ? { generateJob: null } : {}),
      });
      get().notify('success', 'Job removed from the list. Its keys stay in All keys, and each request stays in Activity.');
      // Its place in the newest ones goes to the next older job, and the count of those not shown drops: main says which.
      void get().loadJobList();
      return true;
    },
  };
}
