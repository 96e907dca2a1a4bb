// What a person does to jobs: start a bulk or generate job, cancel, resume, export, put one away, and each
// profile's ceiling on requests in flight. Every answer goes to the jobs slice's one map (store/jobs.ts hear).
import type { JobAction, JobSummary } from '../../../shared/domain.ts';
import { call } from '../lib/api.ts';
import { noteDismissed } from '../lib/recent.ts';
import { isLive } from '../lib/jobs.ts';
import { selectBulkJob, selectGenerateJob, selectJob } from './job-selectors.ts';
import type { JobsSlice, KeydeskState, LedgerFilter, StoreContext } from './types.ts';

type BulkKind = Exclude<JobAction, 'generate' | 'import' | 'refresh'>;

/** What the actions share with the slice that hears jobs (store/jobs.ts). */
export interface JobHooks {
  hear: (summary: JobSummary) => void;
  loadProblems: (job: JobSummary) => Promise<void>;
  /** The keys of bulk jobs this window started from a selection, until each ends. */
  bulkTargets: Map<string, { action: BulkKind; values: ReadonlySet<string> }>;
  /** Bulk jobs whose keys this window does not know: the filter of one started here, or null (a job resumed here). */
  filterTargets: Map<string, { action: BulkKind; filter: LedgerFilter | null }>;
}

const BUSY = { code: 'CONFLICT', message: 'A job is already running for this profile; wait for it to end or cancel it first.' } as const;

export function createJobActions(ctx: StoreContext, { hear, loadProblems, bulkTargets, filterTargets }: JobHooks) {
  const { set, get, saved } = ctx;
  const known = (jobId: string): JobSummary | null => get().jobs[jobId] ?? null;
  /** A stopped job put away from its place (remembered across a reload); `ifCurrent` goes too when it was the current job. */
  const putAway = (job: JobSummary | null, place: Partial<KeydeskState>, ifCurrent: Partial<KeydeskState>) => {
    if (!job || isLive(job)) return;
    noteDismissed(job.id);
    set({ ...place, ...(get().currentJobId === job.id ? { currentJobId: null, ...ifCurrent } : {}) });
  };
  return {
    runBulk: async (action, days, edit) => {
      const { selection, selectedAll, jobStarting } = get();
      const job = selectJob(get());
      if (selectedAll === null && selection.size === 0) return;
      // A start already asked for (a confirmation accepted twice), or a job main still runs: never a second one.
      if (jobStarting !== null || (job !== null && isLive(job))) return;
      const target = selectedAll ? { filter: selectedAll } : { keyValues: [...selection] };
      set({ jobStarting: { action, days: action === 'extend' ? (days ?? 0) : null, since: Date.now(), resume: false } });
      const input =
        action === 'extend'
          ? { action, target, days: days ?? 0 }
          : action === 'edit'
            ? { action, target, edit: edit ?? {} }
            : { action, target };
      const r = await call('jobs.start', input).finally(() => {
        set({ jobStarting: null });
      });
      if (!r.ok) {
        get().notifyFailure('jobs.start', r, { resolves: 'start' });
        return;
      }
      get().dismissResolved('start');
      set({ selection: new Set(), selectedAll: null, jobProblems: null });
      // Keys picked one by one are noted now and at the end, so an answer about one reads as earlier; a job on a
      // filter marks every answer that may match it.
      if (!selectedAll) {
        bulkTargets.set(r.data.id, { action, values: new Set(selection) });
        get().noteKeysInBulk(selection, action);
      } else {
        filterTargets.set(r.data.id, { action, filter: selectedAll });
        get().noteFilterInBulk(selectedAll, action);
      }
      hear(r.data);
    },
    extendFilter: async (filter, days, label) => {
      const job = selectJob(get());
      if (get().jobStarting !== null || (job !== null && isLive(job))) {
        if (job !== null && isLive(job)) get().notifyFailure('jobs.start', BUSY, { jobId: job.id });
        return null;
      }
      set({ jobStarting: { action: 'extend', days, since: Date.now(), resume: false } });
      const r = await call('jobs.start', { action: 'extend', target: { filter }, days, label }).finally(() => {
        set({ jobStarting: null });
      });
      if (!r.ok) {
        get().notifyFailure('jobs.start', r, { resolves: 'start' });
        return null;
      }
      get().dismissResolved('start');
      filterTargets.set(r.data.id, { action: 'extend', filter });
      get().noteFilterInBulk(filter, 'extend');
      hear(r.data);
      return r.data;
    },
    cancelBulk: async (jobId) => {
      const job = jobId === undefined ? selectJob(get()) : known(jobId);
      if (job?.state !== 'running' || get().jobCancelling === job.id) return;
      set({ jobCancelling: job.id });
      const r = await call('jobs.cancel', { jobId: job.id }).finally(() => {
        if (get().jobCancelling === job.id) set({ jobCancelling: null });
      });
      if (!r.ok) get().notifyFailure('jobs.cancel', r);
      else hear(r.data);
    },
    resumeJob: async (retryUnknown, jobId) => {
      const shown = selectJob(get());
      const job = jobId === undefined ? shown : known(jobId);
      if (!job || isLive(job) || get().jobStarting !== null) return;
      if (shown && shown.id !== job.id && isLive(shown)) {
        get().notifyFailure('jobs.resume', BUSY, { jobId: shown.id });
        return;
      }
      set({ jobStarting: { action: job.action, days: job.days, since: Date.now(), resume: true } });
      const r = await call('jobs.resume', { jobId: job.id, retryUnknown }).finally(() => {
        set({ jobStarting: null });
      });
      if (!r.ok) {
        // Refused because main already runs it (another window's Resume, a reload while it started): the screen
        // shows main's word on the job now, and the toast goes when the job ends, instead of staying beside it.
        const now = await call('jobs.get', { jobId: job.id });
        const running = r.code === 'CONFLICT' && now.ok && isLive(now.data);
        // Otherwise it holds until a resume of the job is under way ("No apiKey …": entered since, and resumed).
        get().notifyFailure('jobs.resume', r, running ? { jobId: job.id } : { resolves: `resume:${job.id}` });
        if (now.ok) hear(now.data);
        return;
      }
      get().dismissResolved(`resume:${job.id}`);
      // A bulk job resumed changes keys again; which, this window no longer knows (its filter, if it started it).
      if (job.action !== 'generate' && job.action !== 'import' && job.action !== 'refresh' && r.data.profileId === get().activeProfileId) {
        const over = { action: job.action, filter: filterTargets.get(job.id)?.filter ?? null };
        filterTargets.set(job.id, over);
        get().noteFilterInBulk(over.filter, over.action);
      }
      // A generate resumed is the latest generate: an earlier batch no longer reads as the form's result.
      set({ jobProblems: null, ...(job.action === 'generate' ? { lastGenerated: [] } : {}) });
      hear(r.data);
      if (!isLive(r.data)) void loadProblems(r.data);
    },
    exportJob: async (format, jobId) => {
      const job = jobId === undefined ? selectBulkJob(get()) : known(jobId);
      if (!job) return null;
      return saved('jobs.export', await call('jobs.export', { jobId: job.id, format }));
    },
    startGenerateJob: async (input) => {
      const running = selectJob(get());
      if ((running && isLive(running)) || get().jobStarting !== null) {
        get().notifyFailure('jobs.start', BUSY, running && isLive(running) ? { jobId: running.id } : {});
        return false;
      }
      set({ jobStarting: { action: 'generate', days: null, since: Date.now(), resume: false } });
      const r = await call('jobs.start', { action: 'generate', ...input }).finally(() => {
        set({ jobStarting: null });
      });
      if (!r.ok) {
        get().notifyFailure('jobs.start', r, { resolves: 'start' });
        return false;
      }
      get().dismissResolved('start');
      // The earlier batch under this job would read as its result: it goes, as before a new single generate.
      set({ jobProblems: null, lastGenerated: [] });
      hear(r.data);
      return true;
    },
    exportJobKeys: async (format, jobId) => {
      const job = jobId === undefined ? selectGenerateJob(get()) : known(jobId);
      if (!job) return null;
      return saved('jobs.export', await call('jobs.export', { jobId: job.id, format, what: 'keys' }));
    },
    loadCeiling: async (profileId) => {
      const r = await call('jobs.getCeiling', { profileId });
      return r.ok ? r.data : null;
    },
    saveCeiling: async (profileId, ceiling) => {
      const r = await call('jobs.setCeiling', { profileId, ceiling });
      if (!r.ok) {
        get().notifyFailure('jobs.setCeiling', r);
        return null;
      }
      const n = r.data.ceiling;
      get().notify(
        'success',
        `Bulk jobs send at most ${n.toLocaleString()} ${n === 1 ? 'request' : 'requests'} at a time${r.data.isDefault ? ' (the default)' : ''}.`,
      );
      return r.data;
    },
    dismissJob: () => putAway(selectBulkJob(get()), { bulkJobId: null, jobProblems: null }, {}),
    dismissGenerateJob: () => putAway(selectGenerateJob(get()), { generateJobId: null }, { jobProblems: null }),
  } satisfies Partial<JobsSlice>;
}
