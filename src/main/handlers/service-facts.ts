// Handlers for what each service can do (its optional endpoints), key edits where it can, and a key's HWID history.
import type { Capability, Key, KeyFields, OptionalEndpoint, ServiceCapabilities } from '../../shared/domain.ts';
import { fail, ok, type Failure, type Result } from '../../shared/result.ts';
import { checkCapabilities, showsAbsent } from '../client/capabilities.ts';
import { editKey } from '../client/edit.ts';
import { readBack } from '../client/read-back.ts';
import type { Core } from '../core.ts';
import { hwidHistoryOf } from '../hwid-history.ts';
import type { StoredProfile } from '../store/profiles-file.ts';
import { audited, needsKey, needsProfile, type Handlers, type KeyChange } from './types.ts';

/** Profiles whose capabilities were checked in this session without being asked (the sandbox's, at first read). */
const checkedThisSession = new WeakMap<Core, Set<string>>();

/** Checks under way, by profile: a read of what a service can do waits for the check a new profile started. */
const inFlight = new Map<string, Promise<Result<ServiceCapabilities>>>();

/** Checks a profile's service with its stored key and records what it found; a failure says why nothing was asked. */
export function checkAndRecord(core: Core, profile: StoredProfile): Promise<Result<ServiceCapabilities>> {
  const running = inFlight.get(profile.id);
  if (running) return running;
  const check = checkNow(core, profile).finally(() => inFlight.delete(profile.id));
  inFlight.set(profile.id, check);
  return check;
}

/** Starts a check without waiting for it; a read of the profile's capabilities waits for it (inFlight). */
export function checkSoon(core: Core, profile: StoredProfile): void {
  checkAndRecord(core, profile).catch((error: unknown) => {
    console.error(`keydesk: what ${profile.name} can do could not be checked:`, error);
  });
}

async function checkNow(core: Core, profile: StoredProfile): Promise<Result<ServiceCapabilities>> {
  const key = await core.readKey(profile);
  if (!key.ok) return key;
  if (key.data === null) return fail('KEYCHAIN_UNAVAILABLE', `No API key is stored for "${profile.name}". Enter it again in Profiles.`);
  const found = await checkCapabilities(
    { baseUrl: profile.baseUrl, validationUrl: profile.validationUrl, apiKey: key.data },
    {
      serviceIdentifier: profile.serviceIdentifier,
      ...(core.options.clientOptions?.dispatcher ? { dispatcher: core.options.clientOptions.dispatcher } : {}),
    },
  );
  await core.writer.run('capabilities', { profileId: profile.id, found });
  return ok(found);
}

/** Records one endpoint as an act found it (a refusal that shows it absent, or an answer that shows it there). */
async function recordFound(core: Core, profileId: string, endpoint: OptionalEndpoint, found: Omit<Capability, 'checkedAt'>): Promise<void> {
  try {
    await core.writer.run('capabilities', { profileId, found: { [endpoint]: { ...found, checkedAt: new Date().toISOString() } } });
  } catch (error) {
    console.error('keydesk: what the service can do could not be recorded:', error);
  }
}

/** An edit the check did not find the endpoint for: said before anything is sent. */
const notFoundWords = (what: string, c: Capability | undefined): Failure =>
  fail(
    'UNSUPPORTED',
    c?.state === 'absent'
      ? `This service has no endpoint to ${what} (${c.evidence}). Check the service again in Profiles if it has changed.`
      : `Keydesk has not found an endpoint to ${what} on this service. Check it in Profiles.`,
  );

const EDITED: KeyChange<{ key: Key | null }> = {
  fields: ['note', 'isPremium', 'expiresAt'],
  after: ({ key }): KeyFields => (key ? { note: key.note, isPremium: key.isPremium, expiresAt: key.expiresAt } : {}),
};

export const serviceFactHandlers = (
  core: Core,
): Pick<Handlers, 'service.capabilities' | 'service.checkCapabilities' | 'keys.edit' | 'keys.hwidHistory'> => ({
  'service.capabilities': async ({ profileId }) => {
    const profile = core.profiles.get(profileId);
    if (!profile) return fail('NOT_FOUND', 'That service is not in Profiles any more.');
    const running = inFlight.get(profileId);
    if (running) await running;
    const checked = checkedThisSession.get(core) ?? new Set<string>();
    checkedThisSession.set(core, checked);
    // The sandbox is Keydesk's own: what it can do follows this version, so it is checked once a session.
    if (profile.kind === 'sandbox' && !checked.has(profile.id)) {
      checked.add(profile.id);
      const r = await checkAndRecord(core, profile);
      if (r.ok) return ok({ capabilities: r.data });
    }
    return ok({ capabilities: core.db.capabilities(profileId) });
  },

  'service.checkCapabilities': async ({ profileId }) => {
    const profile = core.profiles.get(profileId);
    if (!profile) return fail('NOT_FOUND', 'That service is not in Profiles any more.');
    const r = await checkAndRecord(core, profile);
    return r.ok ? ok({ capabilities: r.data }) : r;
  },

  'keys.edit': needsKey(core, async (input, a) => {
    const { keyValue, state, ...fields } = input;
    const endpoint: OptionalEndpoint = state === 'generated' ? 'generatedKeyEdit' : 'keyEdit';
    const known = core.db.capabilities(a.profile.id)[endpoint];
    // wire.md: an optional endpoint is used only where the capability check found it.
    if (known?.state !== 'present') return notFoundWords(state === 'generated' ? 'edit generated keys' : 'edit active keys', known);
    return audited(
      core,
      a.profile,
      'keys.edit',
      keyValue,
      async () => {
        const r = await editKey(a.client, keyValue, state, fields);
        if (!r.ok) {
          if (!showsAbsent(r)) return r;
          const found = {
            state: 'absent' as const,
            evidence: `An edit was refused as no such endpoint: ${(r.detail ?? r.message).slice(0, 160)}`,
          };
          await recordFound(core, a.profile.id, endpoint, found);
          return notFoundWords(state === 'generated' ? 'edit generated keys' : 'edit active keys', { ...found, checkedAt: '' });
        }
        const key = await readBack(a.client, keyValue, r.data);
        if (key) await core.writer.recordKeys(a.profile.id, [key]);
        return ok({ key });
      },
      EDITED,
    );
  }),

  'keys.hwidHistory': needsProfile(core, ({ keyValue }, profile) => ok({ events: hwidHistoryOf(core, profile, keyValue) })),
});
