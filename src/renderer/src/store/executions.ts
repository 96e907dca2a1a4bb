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
  /** Reading the count. After a failure the count shown (if any) is the one read at `sampledAt`, no longer current. */
  countRequest: RequestState;
  refreshExecutions: () => Promise<void>;
  pushRequest: RequestState;
  pushExecution: () => Promise<void>;
  /** The execution history as main serves it: at most as many buckets as the chart asked for. */
  history: HistoryBucket[];
  /** Reading the history. After a failure the chart is empty rather than showing another range's figures. */
  historyRequest: RequestState;
  loadHistory: (range: OperationInput<'executions.history'>['range'], points?: number) => Promise<void>;
}

export function createExecutionsSlice(ctx: StoreContext): Omit<ExecutionsSlice, keyof ProfileData> {
  const { get, request, toastOk } = ctx;
  /** The history the chart last asked for: a push reads it again, so the chart and the headline agree. */
  let shown: OperationInput<'executions.history'> | null = null;
  return {
    refreshExecutions: async () => {
      // A poll: the count read earlier stays on screen (marked by the view as the last known one after a failure).
      await request('executions.get', undefined, 'countRequest', (data) => {
        // A read that started before a push and answered after it is older than the push's own reading: it stays.
        const shownAt = get().sampledAt;
        if (shownAt !== null && Date.parse(data.sampledAt) < Date.parse(shownAt)) return {};
        return { executionCount: data.executionCount, sampledAt: data.sampledAt, countBeforePush: false };
      }, {
        background: true,
      });
    },
    pushExecution: async () => {
      // One push at a time: a second one while the first waits would count twice (the button says "Counting…").
      if (get().pushRequest.status === 'loading') return;
      // The push's answer is a reading of the count, with its own time; without a total, the count shown is now older than the push.
      const r = await request(
        'executions.push',
        undefined,
        'pushRequest',
        (d) => (d.executionCount === null || d.sampledAt === null ? { countBeforePush: true } : { executionCount: d.executionCount, sampledAt: d.sampledAt, countBeforePush: false }),
        { toast: true },
      );
      if (!r) return;
      const total = r.data.executionCount;
      // Main sampled the new count: the chart shows it now, not on the next poll.
      if (shown) void get().loadHistory(shown.range, shown.points);
      toastOk(total === null ? 'Execution counted. The service did not report the new total; refresh to read it.' : `Execution counted: ${fmt.number(total)}.`);
    },
    loadHistory: async (range, points) => {
      shown = points === undefined ? { range } : { range, points };
      // A failed read leaves no chart of another range or profile behind, and says why.
      await request('executions.history', points === undefined ? { range } : { range, points }, 'historyRequest', (data) => ({ history: data.buckets }), {
        onFailure: { history: [] },
        latest: true,
      });
    },
  };
}
