// The execution count and its history.
import type { OperationInput } from '../../../shared/contract.ts';
import type { HistoryBucket } from '../../../shared/domain.ts';
import type { Failure } from '../../../shared/result.ts';
import { fmt } from '../lib/format.ts';
import type { Status } from './index.ts';
import type { ProfileData, StoreContext } from './context.ts';

export interface ExecutionsSlice {
  executionCount: number | null;
  sampledAt: string | null;
  /** The execution history as main serves it: at most as many buckets as the chart asked for. */
  history: HistoryBucket[];
  executions: Status;
  /** The last read failed: the count shown (if any) is the one read at `sampledAt`, no longer current. */
  executionsError: Failure | null;
  refreshExecutions: () => Promise<void>;
  pushExecution: () => Promise<void>;
  historyStatus: Status;
  /** The last history read failed: the chart is empty rather than showing another range's figures. */
  historyError: Failure | null;
  loadHistory: (range: OperationInput<'executions.history'>['range'], points?: number) => Promise<void>;
}

export function createExecutionsSlice(ctx: StoreContext): Omit<ExecutionsSlice, keyof ProfileData> {
  const { set, get, run, request, toastOk } = ctx;
  return {
    refreshExecutions: async () => {
      set({ executions: get().executionCount === null ? 'loading' : get().executions });
      const r = await run('executions.get', undefined);
      if (!r) return;
      if ('failure' in r) {
        // The count read earlier stays, marked by the view as the last known one.
        set({ executions: 'error', executionsError: r.failure });
        return;
      }
      set({ executions: 'ready', executionsError: null, executionCount: r.data.executionCount, sampledAt: r.data.sampledAt });
    },
    pushExecution: async () => {
      const r = await run('executions.push', undefined);
      if (!r) return;
      if ('failure' in r) {
        get().notify('error', r.failure.message);
        return;
      }
      const total = r.data.executionCount;
      if (total === null) {
        toastOk('Execution counted. The service did not report the new total; refresh to read it.');
        return;
      }
      set({ executionCount: total });
      toastOk(`Execution counted: ${fmt.number(total)}.`);
    },
    loadHistory: async (range, points) => {
      // A failed read leaves no chart of another range or profile behind, and says why.
      await request('executions.history', points === undefined ? { range } : { range, points }, { status: 'historyStatus', error: 'historyError' }, (data) => ({ history: data.buckets }), {
        onFailure: { history: [] },
      });
    },
  };
}
