// Handlers for the execution count: read, push, and the local history.
import type { OperationOutput } from '../../shared/contract.ts';
import { ok, type Result } from '../../shared/result.ts';
import { HISTORY_RANGE_MS as RANGE_MS, LIMITS } from '../../shared/rules.ts';
import type { Core } from '../core.ts';
import { sampleCount } from '../sampler.ts';
import { audited, needsKey, needsProfile, type Handlers } from './types.ts';

export const executionHandlers = (core: Core): Pick<Handlers, 'executions.get' | 'executions.push' | 'executions.history'> => ({
  'executions.get': needsKey(core, async (_input, a) => {
    const r = await sampleCount(core, a);
    return r.ok ? ok({ executionCount: r.data.count, sampledAt: r.data.at }) : r;
  }),

  'executions.push': needsKey(core, async (_input, a) => {
    return audited(core, a.profile, 'executions.push', 'execution count', async (): Promise<Result<OperationOutput<'executions.push'>>> => {
      const pushed = await a.client.pushExecution();
      if (!pushed.ok) return pushed;
      // The real service does not return the new total: read it; if that fails, the push still stands.
      let executionCount = pushed.data;
      if (executionCount === null) {
        const total = await a.client.executionCount();
        executionCount = total.ok ? total.data : null;
      }
      if (executionCount === null) return ok({ executionCount, sampledAt: null });
      const sampledAt = new Date().toISOString();
      await core.writer.run('sample', { profileId: a.profile.id, count: executionCount, at: sampledAt });
      core.emit('executions.sampled', { profileId: a.profile.id, at: sampledAt, count: executionCount });
      return ok({ executionCount, sampledAt });
    });
  }),

  // Local samples only, so no key is needed; `latest` is shown (as earlier) until a read answers.
  'executions.history': needsProfile(core, ({ range, points }, profile) => {
    const since = range === 'all' ? null : new Date(Date.now() - RANGE_MS[range]).toISOString();
    return ok({
      ...core.db.history(profile.id, since, points ?? LIMITS.historyPointsDefault),
      latest: core.db.latestSample(profile.id),
      closed: core.db.closedSpans(since),
    });
  }),
});
