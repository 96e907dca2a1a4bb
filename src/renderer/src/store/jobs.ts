// The jobs slice: every job this window knows of in one map by id, and which of them each place shows.
// What a person does to jobs is in job-actions.ts.
import type { JobItem, JobSummary } from '../../../shared/domain.ts';
import { call, subscribe } from '../lib/api.ts';
import { isLive, jobTitle, settledOf, withPace, type PaceBase } from '../lib/jobs.ts';
import { dismissedJobs } from '../lib/recent.ts';
import { createJobActions, type JobHooks } from './job-actions.ts';
import { createLookupActions } from './lookup-actions.ts';
import { selectJob } from './job-selectors.ts';
import { IDLE } from './request.ts';
import type { JobItemsPage, JobsSlice, StoreContext } from './types.ts';

export const JOB_ITEMS_PAGE = 100;
/** Newest jobs listed at first, and how many more each "Show older jobs" adds. */
export const JOBS_RECENT = 20;

const isShown = (p: JobItemsPage | null, jobId: string, state: JobItemsPage['state'], offset: number): boolean =>
  p !== null && p.jobId === jobId && p.state === state && p.offset === offset;

const plural = (n: number, one: string): string => `${n.toLocaleString()} ${one}${n === 1 ? '' : 's'}`;

/** Which jobs a profile's places show, and the Jobs view's list: a profile switch puts them back to this. */
export const JOBS_INITIAL = {
  currentJobId: null,
  generateJobId: null,
  bulkJobId: null,
  jobCancelling: null,
  jobProblems: null,
  jobListIds: [],
  jobListRequest: IDLE,
  jobListRecent: JOBS_RECENT,
  jobListUnlisted: 0,
  jobListNext: null,
  openJobId: null,
  jobItems: null,
  jobItemsRequest: IDLE,
  forgettingJob: null,
} satisfies Partial<JobsSlice>;

export function createJobsSlice(ctx: StoreContext): JobsSlice {
  const { get, set, request } = ctx;
  let unsubscribe: (() => void) | null = null;
  const hooks: JobHooks = { hear, loadProblems, bulkTargets: new Map(), filterTargets: new Map() };

  /** Per job, where this window first saw it running; its own rate runs from there (see withPace). */
  const paceBases = new Map<string, PaceBase>();
  function paced(p: JobSummary): JobSummary {
    if (p.state !== 'running') {
      paceBases.delete(p.id);
      return p;
    }
    const base = paceBases.get(p.id);
    if (!base) {
      paceBases.set(p.id, { id: p.id, at: Date.now(), settled: settledOf(p) });
      return p;
    }
    return withPace(p, base, Date.now());
  }

  /** The one upsert: main's word on a job goes in unless the map holds a newer one (events and answers race). */
  function put(summary: JobSummary): { accepted: boolean; old: JobSummary | undefined } {
    const old = get().jobs[summary.id];
    if (old && summary.version <= old.version) return { accepted: false, old };
    const p = paced(summary);
    set((s) => ({ jobs: { ...s.jobs, [p.id]: p } }));
    // The open job's items page changed under it when the job ended: read it again.
    const { openJobId, jobItems } = get();
    if (old?.finishedAt === null && p.finishedAt !== null && openJobId === p.id && jobItems?.jobId === p.id)
      void get().loadJobItems(jobItems.state, jobItems.offset);
    return { accepted: true, old };
  }

  /** A list's word on jobs: kept in the map; the current job's end, if it brings it, is said as an event's would be. */
  function putListed(summaries: readonly JobSummary[]): void {
    for (const j of summaries) {
      const { accepted, old } = put(j);
      if (accepted && old?.finishedAt === null && j.finishedAt !== null && get().currentJobId === j.id) ended(get().jobs[j.id] ?? j);
    }
  }

  /** A bulk job's items that need a decision, shown under All keys' panel while it is that job. */
  async function loadProblems(job: JobSummary): Promise<void> {
    let error: string | null = null;
    const page = async (state: 'failed' | 'unknown') => {
      if (job.counts[state] === 0) return [];
      const r = await call('jobs.items', { jobId: job.id, state, offset: 0, limit: 100 });
      if (r.ok) return r.data.items;
      // Never an empty list under "5 unknown": say the items could not be read.
      error ??= `The job's ${state} items could not be read: ${r.message}`;
      return [];
    };
    const [failed, unknown] = [await page('failed'), await page('unknown')];
    // An extend done without the key read back leaves its row with the expiry seen before: say which keys.
    let stale: { items: JobItem[]; total: number } | undefined;
    if (job.action === 'extend' && job.counts.done > 0) {
      const r = await call('jobs.items', { jobId: job.id, state: 'done', noted: true, offset: 0, limit: 100 });
      if (r.ok) stale = r.data.total > 0 ? r.data : undefined;
      else error ??= `The job's done items could not be read: ${r.message}`;
    }
    if (get().bulkJobId === job.id) set({ jobProblems: { failed, unknown, error, ...(stale ? { stale } : {}) } });
  }

  /** The current job ended: the keys it touched, the table, its problems and a toast that names it say so. */
  function ended(p: JobSummary): void {
    const { bulkTargets, filterTargets } = hooks;
    const targets = bulkTargets.get(p.id);
    if (targets) {
      bulkTargets.delete(p.id);
      get().noteKeysInBulk(targets.values, targets.action);
    }
    // Kept past the end (a filter is small): a resume of the job acts on the same filter again.
    const over = filterTargets.get(p.id);
    if (over) get().noteFilterInBulk(over.filter, over.action);
    get().refreshLedger();
    if (p.action !== 'generate') void loadProblems(p);
    const { done, failed, unknown, pending, sent } = p.counts;
    const parts = [`${done.toLocaleString()} of ${p.total.toLocaleString()} done`];
    if (failed > 0) parts.push(`${failed.toLocaleString()} failed`);
    if (unknown > 0) parts.push(`${plural(unknown, 'outcome')} unknown`);
    if (sent > 0) parts.push(`${sent.toLocaleString()} sent, no answer recorded`);
    if (pending > 0) parts.push(`${pending.toLocaleString()} not sent (${p.state})`);
    // Named, so a toast is not taken for another job's; a cancel asked for with nothing failed is not an error.
    const clean = failed === 0 && unknown === 0 && sent === 0 && (done === p.total || p.state === 'cancelled');
    get().notifyJobEnd(clean ? 'success' : 'error', `${jobTitle(p)}: ${parts.join(', ')}.`, p.id);
  }

  /**
   * Main's word on a job (event or answer): into the map, and each place that shows jobs takes it up. A job has
   * ended when main records finishedAt: a cancel's summary comes while answers are still on the wire.
   */
  function hear(summary: JobSummary): void {
    // Words about the job as it was ("already running") no longer hold once it has ended.
    if (summary.finishedAt !== null) get().dismissAboutJob(summary.id);
    const { accepted, old } = put(summary);
    const p = get().jobs[summary.id] ?? summary;
    const { activeProfileId, elsewhereJobId, jobListRequest, jobListIds } = get();
    if (p.profileId !== activeProfileId) {
      // Not shown as this profile's job, but never invisible while it runs.
      if (isLive(p)) set({ elsewhereJobId: p.id });
      else if (elsewhereJobId === p.id) set({ elsewhereJobId: null });
      return;
    }
    if (elsewhereJobId === p.id) set({ elsewhereJobId: null });
    // A job just started joins the Jobs list once it is loaded.
    if (jobListRequest.status === 'ready' && !jobListIds.includes(p.id)) set({ jobListIds: [...jobListIds, p.id] });
    if (p.action === 'generate') {
      if (get().generateJobId !== p.id) set({ generateJobId: p.id });
    } else if (get().bulkJobId !== p.id) {
      // All keys' own job: the problems listed under it belong to it, and go only when another bulk job takes its place.
      set({ bulkJobId: p.id, jobProblems: null });
    }
    const current = selectJob(get());
    if (current !== null && current.id !== p.id && isLive(current)) return;
    set({ currentJobId: p.id });
    if (accepted && summary.finishedAt !== null && (old === undefined || old.finishedAt === null)) ended(p);
  }

  /** A list answer: its jobs go into the map, plus any running job heard of after main made the list. */
  function listed(answer: readonly JobSummary[]): string[] {
    putListed(answer);
    const { jobs, activeProfileId } = get();
    const newest = answer.reduce((v, j) => Math.max(v, j.version), 0);
    const ids = new Set(answer.map((j) => j.id));
    const later = Object.values(jobs).filter((j) => j.profileId === activeProfileId && !ids.has(j.id) && isLive(j) && j.version > newest);
    return [...ids, ...later.map((j) => j.id)];
  }

  /** Another profile's job a list says runs, unless a newer word says it has ended. */
  function runningElsewhere(elsewhere: readonly JobSummary[]): string | null {
    const first = elsewhere[0];
    if (!first) return null;
    putListed([first]);
    const newest = get().jobs[first.id];
    return newest && isLive(newest) ? newest.id : null;
  }

  return {
    ...JOBS_INITIAL,
    jobs: {},
    elsewhereJobId: null,
    jobStarting: null,
    ...createJobActions(ctx, hooks),
    ...createLookupActions(ctx, hooks),
    followJobs: () => {
      unsubscribe ??= subscribe('jobs.progress', hear);
      get().followLedger();
    },
    attachJobs: async () => {
      get().followJobs();
      const profileId = get().activeProfileId;
      const r = await call('jobs.list', undefined);
      if (!r.ok || get().activeProfileId !== profileId) return;
      putListed(r.data.jobs);
      // Another profile's running job, known at once after a reload or a profile switch.
      set({ elsewhereJobId: runningElsewhere(r.data.elsewhere) });
      // A running job first; else the latest one if it stopped with work left (interrupted or cancelled).
      // Running, or cancelled with answers still to come: main is not done with it.
      const running = r.data.jobs.find(isLive);
      const latest = r.data.jobs[0];
      const show =
        running ?? (latest && latest.state !== 'finished' && latest.counts.pending + latest.counts.unknown > 0 ? latest : undefined);
      // The latest generate job, for the Generate form, if main is not done with it, it left work to resume, or its
      // keys can still be exported and the user has not put it away.
      const gen = r.data.jobs.find((j) => j.action === 'generate');
      if (
        gen &&
        !dismissedJobs().includes(gen.id) &&
        (isLive(gen) || gen.counts.pending + gen.counts.unknown + gen.counts.done > 0) &&
        get().generateJobId !== gen.id
      )
        set({ generateJobId: gen.id });
      // All keys' latest bulk job, the same way: running, or stopped with work left, and not put away.
      const bulk = r.data.jobs.find((j) => j.action !== 'generate');
      if (
        bulk &&
        !dismissedJobs().includes(bulk.id) &&
        (isLive(bulk) || bulk.counts.pending + bulk.counts.unknown > 0) &&
        get().bulkJobId !== bulk.id
      ) {
        set({ bulkJobId: bulk.id, jobProblems: null });
        if (!isLive(bulk)) void loadProblems(bulk);
      }
      if (!show) return;
      const current = selectJob(get());
      if (current && current.id !== show.id && isLive(current)) return;
      set({ currentJobId: show.id });
    },
    loadJobList: async (older = false) => {
      get().followJobs();
      const { jobListRecent, jobListNext } = get();
      const recent = older ? (jobListNext ?? jobListRecent + JOBS_RECENT) : jobListRecent;
      // A refresh keeps the rows on screen until the answer; a first load shows the loading state.
      // Another profile's running job is said too (it keeps sending unseen), never listed as this profile's.
      const done = (d: { jobs: JobSummary[]; elsewhere: JobSummary[]; unlisted?: number; next?: number }) => {
        const elsewhereJobId = runningElsewhere(d.elsewhere);
        return {
          jobListIds: listed(d.jobs),
          jobListRecent: recent,
          jobListUnlisted: d.unlisted ?? 0,
          jobListNext: d.next ?? null,
          elsewhereJobId,
        };
      };
      await request('jobs.list', recent === JOBS_RECENT ? undefined : { recent }, 'jobListRequest', done, {
        latest: true,
        background: get().jobListRequest.status === 'ready',
      });
    },
    openJob: (openJobId) => set({ openJobId, jobItems: null, jobItemsRequest: IDLE }),
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
      const { openJobId, currentJobId, bulkJobId, generateJobId } = get();
      // Gone from main: gone from every place that showed it.
      const jobs = { ...get().jobs };
      Reflect.deleteProperty(jobs, jobId);
      set({
        jobs,
        jobListIds: get().jobListIds.filter((id) => id !== jobId),
        ...(openJobId === jobId ? { openJobId: null, jobItems: null, jobItemsRequest: IDLE } : {}),
        ...(currentJobId === jobId ? { currentJobId: null } : {}),
        ...(bulkJobId === jobId ? { bulkJobId: null, jobProblems: null } : {}),
        ...(generateJobId === jobId ? { generateJobId: null } : {}),
      });
      get().notify('success', 'Job removed from the list. Its keys stay in All keys, and its line with its counts stays in Activity.');
      // Its place in the newest ones goes to the next older job, and the count of those not shown drops: main says which.
      void get().loadJobList();
      return true;
    },
  };
}
