// Overview's slice: the keys' figures and keys per day from the ledger, and the first-run steps done.
import { IDLE } from './request.ts';
import type { OverviewSlice, StoreContext } from './types.ts';

/** Days the keys-per-day chart shows, today included. */
export const ACTIVITY_DAYS = 30;

/** Nothing read yet for a profile. */
export const OVERVIEW_INITIAL = {
  figures: null,
  figuresRequest: IDLE,
  keyActivity: [],
  firstRunDone: null,
} satisfies Partial<OverviewSlice>;

export function createOverviewSlice(ctx: StoreContext): OverviewSlice {
  const { get, set, run, request } = ctx;
  return {
    ...OVERVIEW_INITIAL,
    loadFigures: async () => {
      // A re-read keeps the figures shown until its answer (they say when they were read).
      await request('overview.figures', undefined, 'figuresRequest', (figures) => ({ figures }), {
        latest: true,
        background: get().figures !== null,
      });
      const days = await run('overview.activity', { days: ACTIVITY_DAYS });
      if (days && 'data' in days) set({ keyActivity: days.data.days });
    },
    loadFirstRun: async () => {
      const r = await run('overview.firstRun', undefined);
      if (r && 'data' in r) set({ firstRunDone: r.data.done });
    },
    markFirstRunStep: async (step) => {
      if (get().firstRunDone?.includes(step)) return;
      const r = await run('overview.markStep', { step });
      if (r && 'data' in r) set({ firstRunDone: r.data.done });
    },
  };
}
