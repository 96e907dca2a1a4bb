// Handlers for service profiles: list, add, edit, remove, select.
import { fail, ok, type Result } from '../../shared/result.ts';
import { ROUTES } from '../../shared/wire.ts';
import { keyHint, normalizeServiceBase, unconfirmedValidationHost } from '../client/urls.ts';
import { SANDBOX_PROFILE_ID, type Core } from '../core.ts';
import type { JobSummary, Profile } from '../../shared/domain.ts';
import { jobTitle } from '../../shared/job-words.ts';
import type { StoredProfile } from '../store/profiles-file.ts';
import { checkSoon } from './service-facts.ts';
import { audited, type Handlers } from './types.ts';

/** A job main still runs (or is getting ready to run), in the words the renderer's job lines use. */
function runningJobWords(job: JobSummary): string {
  const what = jobTitle(job);
  if (job.startingSince !== undefined) return `${what}, getting ready to send`;
  return `${what}, ${job.counts.done.toLocaleString('en-US')} of ${job.total.toLocaleString('en-US')} done`;
}

/** A profile as shown; a session-only key lost to a restart is no key. The keychain is not read per listing (it may ask or hang). */
async function presented(core: Core, p: StoredProfile): Promise<Profile> {
  const profile = core.toProfile(p);
  if (!profile.hasKey || core.secretStorage !== 'session-only') return profile;
  const key = await core.readKey(p);
  return key.ok && key.data === null ? { ...profile, hasKey: false, keyHint: null } : profile;
}

const defaultValidationUrl = (baseUrl: string): string => `${new URL(baseUrl).origin}${ROUTES.validate.path}`;

/**
 * What the profile records of a validation URL on another host than the base URL's: the origin the user confirmed
 * (`confirmed`, as typed in Profiles, or kept from before), or a refusal; nothing when it is on the base URL's origin.
 */
function validationOrigin(baseUrl: string, validationUrl: string, confirmed: string | undefined): Result<string | undefined> {
  const host = unconfirmedValidationHost({ baseUrl, validationUrl, validationOriginConfirmed: confirmed });
  if (host !== null) {
    return fail(
      'NEEDS_CONFIRMATION',
      `The validation URL is on another host (${host}) than the base URL (${new URL(baseUrl).host}). Confirm that host to use it. Nothing was saved.`,
    );
  }
  const origin = new URL(validationUrl).origin;
  return ok(origin === new URL(baseUrl).origin ? undefined : origin);
}

/** The check the official client makes at creation: the key must read the execution count. */
async function checkKey(core: Core, baseUrl: string, validationUrl: string, apiKey: string): Promise<Result<null>> {
  const r = await core.probeClient(baseUrl, validationUrl, apiKey).executionCount();
  if (r.ok) return ok(null);
  const refused = r.code === 'API_KEY_INVALID' || r.code === 'API_KEY_MISSING';
  return { ...r, message: `${refused ? 'The service refused this API key.' : r.message} Nothing was saved.` };
}

export const profileHandlers = (
  core: Core,
): Pick<Handlers, 'profiles.list' | 'profiles.add' | 'profiles.update' | 'profiles.remove' | 'profiles.select'> => ({
  'profiles.list': async () => {
    const profiles = await Promise.all(core.profiles.list().map((p) => presented(core, p)));
    // What removing one stops showing, for its Remove dialog.
    const local = profiles.map((p) => ({ ...p, local: { ledgerKeys: core.db.ledgerSize(p.id), jobs: core.db.jobTotal(p.id) } }));
    return ok({ profiles: local, activeProfileId: core.profiles.activeProfileId });
  },

  'profiles.add': async (entered) => {
    const input = { ...entered, baseUrl: normalizeServiceBase(entered.baseUrl) };
    const validationUrl = input.validationUrl ?? defaultValidationUrl(input.baseUrl);
    const id = core.newProfileId();
    return audited(core, { id, name: input.name }, 'profiles.add', input.name, async () => {
      const origin = validationOrigin(input.baseUrl, validationUrl, input.confirmValidationOrigin);
      if (!origin.ok) return origin;
      const checked = await checkKey(core, input.baseUrl, validationUrl, input.apiKey);
      if (!checked.ok) return checked;
      const stored = await core.storeKey({ id, name: input.name }, input.apiKey);
      if (!stored.ok) return { ...stored, message: `${stored.message} Nothing was saved.` };
      const profile: StoredProfile = {
        id,
        name: input.name,
        kind: 'remote',
        baseUrl: input.baseUrl,
        validationUrl,
        validationOriginConfirmed: origin.data,
        serviceIdentifier: input.serviceIdentifier ?? null,
        keyHint: keyHint(input.apiKey),
      };
      core.profiles.upsert(profile);
      // What the service can do is learnt beside the add, not before its answer: Profiles shows it when it comes.
      checkSoon(core, profile);
      return ok(core.toProfile(profile));
    });
  },

  'profiles.update': async (entered) => {
    const input = entered.baseUrl === undefined ? entered : { ...entered, baseUrl: normalizeServiceBase(entered.baseUrl) };
    const current = core.profiles.get(input.id);
    if (!current) return fail('NOT_FOUND', 'That profile does not exist.');
    if (current.kind === 'sandbox' && (input.baseUrl !== undefined || input.apiKey !== undefined)) {
      return fail('INVALID_INPUT', 'The local sandbox profile keeps its own address and key.');
    }
    return audited(core, current, 'profiles.update', input.name ?? current.name, async () => {
      // A stored key never goes to a new origin, or a compromised renderer could point profiles at itself to collect keys.
      if (input.baseUrl !== undefined && input.apiKey === undefined && new URL(input.baseUrl).origin !== new URL(current.baseUrl).origin) {
        return fail(
          'API_KEY_MISSING',
          `Type the API key again to move "${current.name}" to ${new URL(input.baseUrl).origin}: Keydesk never sends a stored key to a new address. Nothing was saved.`,
        );
      }
      const baseUrl = input.baseUrl ?? current.baseUrl;
      const validationUrl = input.validationUrl ?? (input.baseUrl !== undefined ? defaultValidationUrl(baseUrl) : current.validationUrl);
      const origin = validationOrigin(baseUrl, validationUrl, input.confirmValidationOrigin ?? current.validationOriginConfirmed);
      if (!origin.ok) return origin;
      if (input.baseUrl !== undefined || input.apiKey !== undefined) {
        const stored = input.apiKey === undefined ? await core.readKey(current) : ok(input.apiKey);
        if (!stored.ok) return stored;
        if (stored.data === null) return fail('KEYCHAIN_UNAVAILABLE', 'No API key is stored for this profile; enter it again.');
        const checked = await checkKey(core, baseUrl, validationUrl, stored.data);
        if (!checked.ok) return checked;
        if (input.apiKey !== undefined) {
          const saved = await core.storeKey(current, input.apiKey);
          if (!saved.ok) return { ...saved, message: `${saved.message} Nothing was saved.` };
        }
      }
      const next: StoredProfile = {
        ...current,
        name: input.name ?? current.name,
        baseUrl,
        validationUrl,
        validationOriginConfirmed: origin.data,
        serviceIdentifier: input.serviceIdentifier === undefined ? current.serviceIdentifier : input.serviceIdentifier,
        keyHint: input.apiKey !== undefined ? keyHint(input.apiKey) : current.keyHint,
      };
      core.profiles.upsert(next);
      core.forgetClient(current.id);
      // Another address may be another service, with other endpoints.
      if (baseUrl !== current.baseUrl) checkSoon(core, next);
      return ok(await presented(core, next));
    });
  },

  'profiles.remove': async ({ id }) => {
    const current = core.profiles.get(id);
    if (!current) return fail('NOT_FOUND', 'That profile does not exist.');
    if (id === SANDBOX_PROFILE_ID) return fail('INVALID_INPUT', 'The local sandbox profile cannot be removed.');
    // A live job uses this profile's apiKey: removing the profile would leave it running where nobody can cancel it.
    const live = core.jobs.list(id).find((j) => j.finishedAt === null);
    if (live) {
      return fail(
        'CONFLICT',
        `A job is running for this profile: ${runningJobWords(live)}. Cancel it first, or wait for it to end. The profile was kept.`,
      );
    }
    return audited(core, current, 'profiles.remove', current.name, async () => {
      const deleted = await core.deleteKey(current);
      if (!deleted.ok) return { ...deleted, message: `${deleted.message} The profile was kept.` };
      core.profiles.remove(id);
      core.forgetClient(id);
      return ok(null);
    });
  },

  'profiles.select': ({ id }) => {
    const profile = core.profiles.get(id);
    if (!profile) return Promise.resolve(fail('NOT_FOUND', 'That profile does not exist.'));
    core.profiles.setActive(id);
    return presented(core, profile).then(ok);
  },
});
