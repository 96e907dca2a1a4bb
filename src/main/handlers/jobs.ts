import { fail, ok, type Result } from '../../shared/result.ts';
import type { JobItem } from '../../shared/domain.ts';
import type { Core } from '../core.ts';
import { writeExport } from '../export.ts';
import { needsKey, type Handlers } from './types.ts';

const ITEM_COLUMNS: readonly (keyof JobItem)[] = ['seq', 'target', 'size', 'state', 'code', 'message'];

/** The active profile's id; jobs belong to a profile, and another profile's job is not found. */
const activeId = (core: Core): string | null => core.profiles.activeProfileId;
const noProfile = () => Promise.resolve(fail('NOT_FOUND', 'No profile is selected. Choose or add a service first.'));

export const jobHandlers = (
  core: Core,
): Pick<Handlers, 'jobs.start' | 'jobs.list' | 'jobs.get' | 'jobs.items' | 'jobs.cancel' | 'jobs.resume' | 'jobs.export' | 'jobs.getCeiling' | 'jobs.setCeiling'> => ({
  'jobs.start': needsKey(core, (input, a) => core.jobs.start(a.profile.id, input)),

  'jobs.list': () => {
    const id = activeId(core);
    return id === null ? noProfile() : Promise.resolve(ok({ jobs: core.jobs.list(id) }));
  },

  'jobs.get': ({ jobId }) => {
    const id = activeId(core);
    if (id === null) return noProfile();
    const s = core.jobs.get(id, jobId);
    return Promise.resolve(s ? ok(s) : fail('NOT_FOUND', 'That job was not found for this profile.'));
  },

  'jobs.items': ({ jobId, state, offset, limit }) => {
    const id = activeId(core);
    if (id === null) return noProfile();
    if (!core.jobs.get(id, jobId)) return Promise.resolve(fail('NOT_FOUND', 'That job was not found for this profile.'));
    return Promise.resolve(ok(core.db.jobItems(jobId, state, offset, limit)));
  },

  'jobs.cancel': ({ jobId }) => {
    const id = activeId(core);
    return id === null ? noProfile() : Promise.resolve(core.jobs.cancel(id, jobId));
  },

  'jobs.resume': ({ jobId, retryUnknown }) => {
    const id = activeId(core);
    return id === null ? noProfile() : core.jobs.resume(id, jobId, retryUnknown === true);
  },

  'jobs.export': async ({ jobId, format }): Promise<Result<{ path: string | null }>> => {
    const id = activeId(core);
    if (id === null) return noProfile();
    const job = core.jobs.get(id, jobId);
    if (!job) return fail('NOT_FOUND', 'That job was not found for this profile.');
    const path = await core.options.askSavePath(`keydesk-job-${job.action}-${job.createdAt.slice(0, 19).replaceAll(':', '-')}.${format}`);
    if (path === null) return ok({ path: null });
    try {
      await writeExport(path, format, ITEM_COLUMNS, core.db.iterateJobItems(jobId));
    } catch (error) {
      return fail('INTERNAL', `The export could not be written: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
    }
    return ok({ path });
  },

  'jobs.getCeiling': ({ profileId }) =>
    Promise.resolve(core.profiles.get(profileId) ? ok(core.jobs.ceiling(profileId)) : fail('NOT_FOUND', 'That profile no longer exists.')),

  'jobs.setCeiling': ({ profileId, ceiling }) =>
    Promise.resolve(core.profiles.get(profileId) ? ok(core.jobs.setCeiling(profileId, ceiling)) : fail('NOT_FOUND', 'That profile no longer exists.')),
});
