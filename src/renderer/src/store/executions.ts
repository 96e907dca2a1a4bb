// The execution count and its history.
import type { OperationInput } from '../../../shared/contract.ts';
import { fmt } from '../lib/format.ts';
import { subscribe } from '../lib/api.ts';
import { IDLE } from './request.ts';
import type { ExecutionsSlice, StoreContext } from './types.ts';

/** The count and history as a profile starts: nothing read yet. */
export const EXECUTIONS_INITIAL = {
  executionCount: null,
  sampledAt: null,
  countBeforePush: false,
  countEarlier: false,
  countAskedAt: null,
  history: [],
  historyClosed: [],
  historyRequest: IDLE,
  countRequest: IDLE,
  pushRequest: IDLE,
} satisfies Partial<ExecutionsSlice>;

export function createExecutionsSlice(ctx: StoreContext): ExecutionsSlice {
  const { get, set, run, request, requestWith, toastOk } = ctx;
  /** The history the chart last asked for: a push reads it again, so the chart and the headline agree. */
  let shown: OperationInput<'executions.history'> | null = null;
  /** The count read out, and when it was sent; a profile switch starts afresh, so another profile's hung read holds nothing. */
  let reading: { askedAt: number; done: Promise<void> } | null = null;
  const readCount = async (askedAt: number): Promise<void> => {
    // A poll: the count read earlier stays on screen (marked by the view as the last known one after a failure).
    await requestWith(
      async () => {
        const r = await run('executions.get', undefined);
        // A newer reading came while this read was out (the offline probe's): its late failure is not how things stand.
        if (r && 'failure' in r && get().countAskedAt !== askedAt) return null;
        return r;
      },
      'countRequest',
      (data) => {
        // A read that started before a push and answered after it is older than the push's own reading: it stays.
        const shownAt = get().sampledAt;
        if (shownAt !== null && Date.parse(data.sampledAt) < Date.parse(shownAt)) return {};
        return { executionCount: data.executionCount, sampledAt: data.sampledAt, countBeforePush: false, countEarlier: false };
      },
      {
        background: true,
        operation: 'executions.get',
      },
    );
  };
  /** The newest sample held, shown (marked as earlier) when nothing newer is: "no count" would not be true. */
  const heldCount = (latest: { count: number; at: string } | null): Partial<ExecutionsSlice> => {
    const shownAt = get().sampledAt;
    if (latest === null || (shownAt !== null && Date.parse(latest.at) <= Date.parse(shownAt))) return {};
    return { executionCount: latest.count, sampledAt: latest.at, countBeforePush: false, countEarlier: true };
  };
  return {
    ...EXECUTIONS_INITIAL,
    refreshExecutions: () => {
      if (reading && reading.askedAt === get().countAskedAt) return reading.done;
      const askedAt = Date.now();
      set({ countAskedAt: askedAt });
      const done = readCount(askedAt).finally(() => {
        // Only the latest read clears the mark: the late end of one a newer read replaced is not the count's news.
        if (reading?.done !== done) return;
        reading = null;
        if (get().countAskedAt === askedAt) set({ countAskedAt: null });
      });
      reading = { askedAt, done };
      return done;
    },
    pushExecution: async () => {
      // One push at a time: a second one while the first waits would count twice (the button says "Counting…").
      if (get().pushRequest.status === 'loading') return;
      // The push's answer is a reading of the count, with its own time; without a total, the count shown is now older than the push.
      const r = await request(
        'executions.push',
        undefined,
        'pushRequest',
        // A reading with a total is the newest one: a count read still out is no longer what the count waits on.
        (d) =>
          d.executionCount === null || d.sampledAt === null
            ? { countBeforePush: true }
            : { executionCount: d.executionCount, sampledAt: d.sampledAt, countBeforePush: false, countEarlier: false, countAskedAt: null },
        { toast: true },
      );
      if (!r) return;
      const total = r.data.executionCount;
      // Main sampled the new count: the chart shows it now, not on the next poll.
      if (shown) void get().loadHistory(shown.range, shown.points);
      toastOk(
        total === null
          ? 'Execution counted. The service did not report the new total; refresh to read it.'
          : `Execution counted: ${fmt.number(total)}.`,
      );
    },
    followSamples: () =>
      // Main samples the count while Keydesk runs (whatever view is shown): a sample of this profile newer than the
      // count shown becomes it, and the chart shown reads again.
      subscribe('executions.sampled', ({ profileId, at, count }) => {
        if (profileId !== get().activeProfileId) return;
        const shownAt = get().sampledAt;
        if (shownAt === null || Date.parse(at) > Date.parse(shownAt))
          set({ executionCount: count, sampledAt: at, countBeforePush: false, countEarlier: false });
        if (shown) void get().loadHistory(shown.range, shown.points);
      }),
    loadHistory: async (range, points) => {
      // The range shown read again (a poll, a push) keeps its chart until the answer; another range, or a first read
      // for this profile, shows none meanwhile: the view says it is reading, never "no history" before the answer.
      const again = shown !== null && shown.range === range && get().historyRequest.status !== 'idle';
      shown = points === undefined ? { range } : { range, points };
      // A failed read leaves no chart of another range or profile behind, and says why.
      await request(
        'executions.history',
        points === undefined ? { range } : { range, points },
        'historyRequest',
        (data) => ({ history: data.buckets, historyClosed: data.closed ?? [], ...heldCount(data.latest) }),
        {
          onFailure: { history: [], historyClosed: [] },
          latest: true,
          background: again,
          ...(again ? {} : { before: { history: [] } }),
        },
      );
    },
  };
}
