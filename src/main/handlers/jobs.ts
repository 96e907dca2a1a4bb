import type { JobAction, JobItem } from '../../shared/domain.ts';
import { EXPIRY_UNREAD, ITEM_DONE_WORDS, ITEM_OUTCOME_WORDS, JOB_NOT_FOUND } from '../../shared/job-words.ts';
import { JOBS_LIST_MAX, type OperationName } from '../../shared/contract.ts';
import { fail, ok, type Result } from '../../shared/result.ts';
import type { Core } from '../core.ts';
import { writeExport } from '../export.ts';
import { exportFailure } from '../failures.ts';
import { LEDGER_COLUMNS, LEDGER_NAMES } from './ledger.ts';
import { CUSTOMER_COLUMNS, withCustomers } from './customer-exports.ts';
import { linkGenerateJob } from './customers.ts';
import { lookupOutcome } from './lookups.ts';
import { needsKey, needsProfile, type Handlers } from './types.ts';

/** A job's results as a vendor reads them: one row per key (per batch for generate), the outcome in words. */
interface ResultRow {
  key: string;
  batch: string;
  keys: number;
  outcome: string;
  newExpiry: string;
  reasonCode: string;
  reason: string;
}
const RESULT_COLUMNS: Record<JobAction, readonly (keyof ResultRow)[]> = {
  extend: ['key', 'outcome', 'newExpiry', 'reasonCode', 'reason'],
  delete: ['key', 'outcome', 'reasonCode', 'reason'],
  resetHwid: ['key', 'outcome', 'reasonCode', 'reason'],
  edit: ['key', 'outcome', 'reasonCode', 'reason'],
  generate: ['batch', 'keys', 'outcome', 'reasonCode', 'reason'],
  import: ['key', 'outcome', 'reasonCode', 'reason'],
  refresh: ['key', 'outcome', 'reasonCode', 'reason'],
};
/** An item in product words; an extend's expiry is the one the ledger recorded, empty (with the reason) when not read back. */
function resultRow(action: JobAction, item: JobItem & { expiresAt: string | null; expiryStale: boolean }): ResultRow {
  const done = item.state === 'done';
  const unread = action === 'extend' && done && (item.expiryStale || item.expiresAt === null);
  // A lookup's item: its code is what it found, said as the outcome.
  const found = done && (action === 'import' || action === 'refresh') ? lookupOutcome(action, item.code) : null;
  return {
    key: item.target,
    batch: item.target,
    keys: item.size,
    outcome: found ?? (item.state === 'done' ? ITEM_DONE_WORDS[action] : ITEM_OUTCOME_WORDS[item.state]),
    newExpiry: action === 'extend' && done && !unread ? (item.expiresAt ?? '') : '',
    reasonCode: found === null ? (item.code ?? '') : '',
    reason: unread ? EXPIRY_UNREAD : (item.message ?? ''),
  };
}
const notFound = () => fail('NOT_FOUND', JOB_NOT_FOUND);

/** Jobs listed by default, and how many more each "Show older" lists. */
const JOBS_PAGE = 20;

/** The `recent` that lists exactly `more` of the jobs left out (running and interrupted jobs are listed at any age). */
function nextRecent(core: Core, profileId: string, recent: number, listed: readonly { id: string }[], more: number): number {
  const shown = new Set(listed.map((j) => j.id));
  const rows = core.db.jobs(profileId, recent + more + Math.max(0, listed.length - recent));
  let added = 0;
  let next = recent;
  for (const row of rows.slice(recent)) {
    if (added === more) break;
    next++;
    if (!shown.has(row.id)) added++;
  }
  return Math.min(next, JOBS_LIST_MAX);
}

// Jobs belong to a profile: each handler works on the selected profile's jobs, and another profile's job is not found.
export const jobHandlers = (core: Core): Pick<Handlers, Extract<OperationName, `jobs.${string}`>> => ({
  // A job's targets are read from the ledger: the keys queued before the click go in first, so "all matching" right
  // after a generate covers them. Not an empty queue: a generate still under way would hold the start for minutes.
  'jobs.start': needsKey(core, async (input, a) => {
    await core.writer.flushed();
    if (input.action !== 'generate' || input.customer === undefined) return core.jobs.start(a.profile.id, input);
    const { customer, ...job } = input;
    const started = await core.jobs.start(a.profile.id, job);
    if (started.ok) await linkGenerateJob(core, a.profile, started.data.id, customer);
    return started;
  }),

  'jobs.list': needsProfile(core, (input, p) => {
    const recent = input?.recent ?? JOBS_PAGE;
    const jobs = core.jobs.list(p.id, recent);
    const unlisted = core.db.jobTotal(p.id) - jobs.length;
    if (unlisted <= 0) return ok({ jobs, elsewhere: core.jobs.runningElsewhere(p.id) });
    // At JOBS_LIST_MAX no longer list can be asked for: no `next`, so no "Show older" that would list the same.
    const next = nextRecent(core, p.id, recent, jobs, Math.min(JOBS_PAGE, unlisted));
    return ok({ jobs, elsewhere: core.jobs.runningElsewhere(p.id), unlisted, ...(next > recent ? { next } : {}) });
  }),

  'jobs.get': needsProfile(core, ({ jobId }, p) => {
    const s = core.jobs.get(p.id, jobId);
    return s ? ok(s) : notFound();
  }),

  'jobs.items': needsProfile(core, ({ jobId, state, noted, offset, limit }, p) =>
    core.jobs.get(p.id, jobId)
      ? ok(core.db.jobItems(jobId, state, offset, limit, noted === true, core.jobs.claimedUnsent(jobId)))
      : notFound(),
  ),

  'jobs.cancel': needsProfile(core, ({ jobId }, p) => core.jobs.cancel(p.id, jobId)),

  // The ledger writes queued before the resume go in first, before the job's own writes touch the same rows; later
  // ones are not waited for. The job reads as starting meanwhile (Cancel ends it there).
  'jobs.resume': needsProfile(core, ({ jobId, retryUnknown }, p) =>
    core.jobs.resume(p.id, jobId, retryUnknown === true, () => core.writer.flushed()),
  ),

  'jobs.export': needsProfile(core, async ({ jobId, format, what }, p): Promise<Result<{ path: string | null }>> => {
    const job = core.jobs.get(p.id, jobId);
    if (!job) return notFound();
    const keys = what === 'keys';
    if (keys && job.action !== 'generate')
      return fail('INVALID_INPUT', 'Only a generate job has keys of its own to export; export its results instead.');
    // A generate job's keys are read from the ledger: a batch's keys are queued before it counts as done, so the
    // writes queued before now hold every key the job has made (another generate under way does not hold it up).
    if (keys) await core.writer.flushed();
    const stamp = job.createdAt.slice(0, 19).replaceAll(':', '-');
    const path = await core.options.askSavePath(
      keys ? `keydesk-generated-${stamp}.${format}` : `keydesk-job-${job.action}-${stamp}.${format}`,
    );
    if (path === null) return ok({ path: null });
    // Removed from the list while the save dialog was open: nothing to write.
    if (!core.jobs.get(p.id, jobId)) return fail('NOT_FOUND', 'That job was removed from the list meanwhile; nothing was saved.');
    // The rows are read in one snapshot while they are written (a drain at a time); the job is not removed meanwhile.
    const ended = core.jobs.exportBegins(jobId);
    try {
      // A generate job's keys as the ledger has them (its batches may hold up to 1,000,000), or every item's outcome.
      await core.db.withReader(async (db) => {
        if (keys)
          return writeExport(
            path,
            format,
            [...LEDGER_COLUMNS, ...CUSTOMER_COLUMNS],
            withCustomers(db, p.id, db.iterateJobKeys(jobId, p.id)),
            LEDGER_NAMES,
          );
        const columns = RESULT_COLUMNS[job.action];
        // Only this action's columns, in JSON too: no empty "newExpiry" on a delete, no "batch" on an extend.
        const rows = function* (): Generator<Partial<ResultRow>> {
          for (const item of db.iterateJobResults(jobId, p.id, core.jobs.claimedUnsent(jobId))) {
            const row = resultRow(job.action, item);
            yield Object.fromEntries(columns.map((c) => [c, row[c]]));
          }
        };
        return writeExport(path, format, columns, rows());
      });
    } catch (error) {
      return exportFailure(error, path);
    } finally {
      ended();
    }
    return ok({ path });
  }),

  'jobs.forget': needsProfile(core, ({ jobId }, p) => core.jobs.forget(p.id, jobId)),

  'jobs.getCeiling': ({ profileId }) =>
    Promise.resolve(core.profiles.get(profileId) ? ok(core.jobs.ceiling(profileId)) : fail('NOT_FOUND', 'That profile no longer exists.')),

  'jobs.setCeiling': async ({ profileId, ceiling }) =>
    core.profiles.get(profileId) ? ok(await core.jobs.setCeiling(profileId, ceiling)) : fail('NOT_FOUND', 'That profile no longer exists.'),
});
