// What the active service can do, as the capability check last found it, in words for the views that offer an
// action needing an optional endpoint (wire.md, "Seen in vendors' code").
import { useEffect } from 'react';
import type { Capability, OptionalEndpoint } from '../../../shared/domain.ts';
import { useKeydesk } from '../store/index.ts';

export const ENDPOINT_WORDS: Readonly<Record<OptionalEndpoint, string>> = {
  keyEdit: 'Edit active keys',
  generatedKeyEdit: 'Edit generated keys (and any-machine keys)',
  publicReset: "End users' own HWID reset",
};

export const STATE_WORDS: Readonly<Record<Capability['state'], string>> = {
  present: 'Yes',
  absent: 'No',
  unknown: 'Unknown',
};

/** The active profile's capability for `endpoint` (undefined: never checked), read from main once per profile. */
export function useCapability(endpoint: OptionalEndpoint): Capability | undefined {
  const profileId = useKeydesk((s) => s.activeProfileId);
  const known = useKeydesk((s) => (profileId ? s.capabilities[profileId] : undefined));
  const load = useKeydesk((s) => s.loadCapabilities);
  useEffect(() => {
    if (profileId && known === undefined) void load(profileId);
  }, [profileId, known, load]);
  return known?.[endpoint];
}

/** Whether an action needing the endpoint is offered: not where the service was found without it. */
export const offered = (c: Capability | undefined): boolean => c?.state !== 'absent';

/** The word beside an action whose endpoint may not be there; null where the check found it. */
export function mayRefuse(c: Capability | undefined): string | null {
  if (c?.state === 'present') return null;
  return c === undefined
    ? 'Not checked yet: the service may refuse this (Profiles → Check this service).'
    : 'The check could not tell whether the service has this: it may refuse it.';
}
