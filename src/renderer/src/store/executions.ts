// The execution count and its history.
import type { OperationInput } from '../../../shared/contract.ts';
import type { HistoryBucket } from '../../../shared/domain.ts';
import { fmt } from '../lib/format.ts';
import type { RequestState } from './request.ts';
import type { ProfileData, StoreContext } from './context.ts';

export interface ExecutionsSlice {
  executionCount: number | null;
  /** When `executionCount` was read: by a read, or as a push's answer. */
  sampledAt: string | null;
  /**
   * A push was counted after `executionCount` was read, and its answer held no new total: the count shown is the one
   * read before it (at `sampledAt`), no longer current. Cleared by the next reading.
   */
  countBeforePush: boolean;
  /**
   * The count shown is the last one Keydesk holds for this profile (its newest sample, from the history), read before
   * this profile became active, not by a read since: the view marks it as earlier. Cleared by the next reading.
   */
  countEarlier: boolean;
  /** Reading the count. After a failure the count shown (if any) is the one read at `sampledAt`, no longer current. */
  countRequest: RequestState;
  /**
   * When the count read still out was sent (ms since the epoch), or null when none is out: a read that has had no
   * answer for a while is said by the view, the count shown being then no longer current.
   */
  countAskedAt: number | null;
  /**
   * Reads the count. One read at a time: while one is out (a hung service holds it for up to its timeout), a second
   * call waits for it rather than sending another. Reads piled on a hung one would each hold a connection to main
   * (in the harness, the browser's few per origin) and stall every local read behind them.
   */
  refreshExecutions: () => Promise<void>;
  pushRequest: RequestState;
  pushExecution: () => Promise<void>;
  /** The execution history as main serves it: at most as many buckets as the chart asked for. */
  history: HistoryBucket[];
  /**
   * Reading the history: "loading" only for a read of another range or a first one for this profile (a poll's read
   * of the same range keeps the chart). After a failure the chart is empty rather than showing another range's figures.
   */
  historyRequest: RequestState;
  loadHistory: (range: OperationInput<'executions.history'>['range'], points?: number) => Promise<void>;
}

export function createExecutionsSlice(ctx: StoreContext): Omit<ExecutionsSlice, keyof ProfileData> {
  const { get, set, run, request, requestWith, toastOk } = ctx;
  /** The history the chart last asked for: a push reads it again, so the chart and the headline agree. */
  let shown: OperationInput<'executions.history'> | null = null;
  /**
   * The count read out, and when it was sent. The count waits on it while `countAskedAt` still says so: a profile
   * switch starts the state afresh (no read out), so another profile's hung read does not hold this one's, and a
   * newer reading (the offline probe's) lets the next poll read again.
   */
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
  /**
   * The newest sample Keydesk holds, as the count shown when none newer is (back on a profile whose service does not
   * answer now, the chart's last figure is known, so "no count" would not be true): marked as read earlier.
   */
  const heldCount = (latest: { count: number; at: string } | null): Partial<ExecutionsSlice> => {
    const shownAt = get().sampledAt;
    if (latest === null || (shownAt !== null && Date.parse(latest.at) <= Date.parse(shownAt))) return {};
    return { executionCount: latest.count, sampledAt: latest.at, countBeforePush: false, countEarlier: true };
  };
  return {
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
        (data) => ({ history: data.buckets, ...heldCount(data.latest) }),
        {
          onFailure: { history: [] },
          latest: true,
          background: again,
          ...(again ? {} : { before: { history: [] } }),
        },
      );
    },
  };
}
