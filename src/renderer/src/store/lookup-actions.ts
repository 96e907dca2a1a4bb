// Import and refresh, the read-only jobs: started from the Import view and from All keys' selection; their
// summaries go to the jobs slice's one map (store/jobs.ts hear), as every job's do.
import type { ImportRow } from '../../../shared/key-import.ts';
import type { RefreshChange } from '../../../shared/job-words.ts';
import { call } from '../lib/api.ts';
import { isLive } from '../lib/jobs.ts';
import type { JobHooks } from './job-actions.ts';
import { selectJob } from './job-selectors.ts';
import type { JobsSlice, StoreContext } from './types.ts';

export function createLookupActions(ctx: StoreContext, { hear }: Pick<JobHooks, 'hear'>) {
  const { set, get } = ctx;
  /** Whether a job may start now: none asked for and not answered, none main still runs for this profile. */
  const free = (): boolean => {
    const job = selectJob(get());
    return get().jobStarting === null && (job === null || !isLive(job));
  };
  return {
    runRefresh: async () => {
      const { selection, selectedAll } = get();
      if ((selectedAll === null && selection.size === 0) || !free()) return;
      const target = selectedAll ? { filter: selectedAll } : { keyValues: [...selection] };
      set({ jobStarting: { action: 'refresh', days: null, since: Date.now(), resume: false } });
      const r = await call('refresh.start', { target }).finally(() => {
        set({ jobStarting: null });
      });
      if (!r.ok) {
        get().notifyFailure('refresh.start', r, { resolves: 'start' });
        return;
      }
      get().dismissResolved('start');
      set({ selection: new Set(), selectedAll: null, jobProblems: null });
      hear(r.data);
    },
    startImport: async (source: string, rows: readonly ImportRow[]) => {
      if (!free()) return null;
      set({ jobStarting: { action: 'import', days: null, since: Date.now(), resume: false } });
      const r = await call('import.start', { source, rows: [...rows] }).finally(() => {
        set({ jobStarting: null });
      });
      if (!r.ok) {
        get().notifyFailure('import.start', r, { resolves: 'start' });
        return null;
      }
      get().dismissResolved('start');
      hear(r.data);
      return r.data.id;
    },
    refreshChanges: async (jobId: string): Promise<Record<RefreshChange, number> | null> => {
      const r = await call('refresh.changes', { jobId });
      return r.ok ? r.data.counts : null;
    },
  } satisfies Partial<JobsSlice>;
}
