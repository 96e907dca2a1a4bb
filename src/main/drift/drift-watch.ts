// The drift watch: read-only requests to a remote service (execution count, a key Keydesk knows, an identifier)
// whose answers' shapes are compared with the last ones seen and wire.md's; a change is said once, in Activity.
import type { DriftChange, DriftStatus } from '../../shared/domain.ts';
import { fail, ok, type Result } from '../../shared/result.ts';
import type { RouteName } from '../../shared/wire.ts';
import { redact } from '../client/urls.ts';
import type { Core } from '../core.ts';
import type { DriftRecord, StoredProfile } from '../store/profiles-file.ts';
import { CHECK_WORDS, diffShapes, sameShape, shapeOf, unreadable, type DriftCheck } from './shapes.ts';

const DAY_MS = 86_400_000;
/** Raw answers kept and shown, each cut to this many characters. */
const ANSWER_MAX_CHARS = 4_000;

const EMPTY: DriftStatus = { checkedAt: null, changes: [], changedAt: null, unreadable: [], unanswered: [] };

export function driftStatus(core: Core, profileId: string): DriftStatus {
  const record = core.profiles.drift(profileId);
  if (record === null) return EMPTY;
  const { checkedAt, changes, changedAt, unreadable: cannotRead, unanswered } = record;
  return { checkedAt, changes, changedAt, unreadable: cannotRead, unanswered };
}

/** The reads to make: a known active key is looked up, else a generated one, else no key at all. */
function reads(core: Core, profile: StoredProfile): { check: DriftCheck; route: RouteName; params: Record<string, string> }[] {
  const list: { check: DriftCheck; route: RouteName; params: Record<string, string> }[] = [
    { check: 'executionCount', route: 'executionCount', params: {} },
  ];
  const active = core.db.ledgerValues(profile.id, { status: 'active' }, 1).values[0];
  const generated = active === undefined ? core.db.ledgerValues(profile.id, { status: 'generated' }, 1).values[0] : undefined;
  if (active !== undefined) list.push({ check: 'keyLookup', route: 'fetchKey', params: { fetch: active } });
  else if (generated !== undefined) list.push({ check: 'generatedKeyLookup', route: 'fetchGeneratedKey', params: { fetch: generated } });
  // A free identifier answers as well as a taken one: its shape is what is watched.
  list.push({
    check: 'identifierCheck',
    route: 'identifierCheck',
    params: { identifier: profile.serviceIdentifier ?? 'keydesk-drift-check' },
  });
  return list;
}

/** Checks one remote profile now: compares, stores what it saw, and writes one Activity entry when something changed. */
export async function checkDrift(core: Core, profileId: string, now: () => Date = () => new Date()): Promise<Result<DriftStatus>> {
  const profile = core.profiles.get(profileId);
  if (!profile) return fail('NOT_FOUND', 'That profile does not exist.');
  if (profile.kind !== 'remote')
    return fail('INVALID_INPUT', 'The local sandbox does not change under Keydesk: only remote services are watched.');
  const apiKey = await core.readKey(profile);
  if (!apiKey.ok) return apiKey;
  if (apiKey.data === null) return fail('KEYCHAIN_UNAVAILABLE', `No API key is stored for "${profile.name}". Enter it again in Profiles.`);
  const key = apiKey.data;
  const client = core.probeClient(profile.baseUrl, profile.validationUrl, key);
  const before = core.profiles.drift(profileId);
  const record: DriftRecord = {
    checkedAt: now().toISOString(),
    changedAt: before?.changedAt ?? null,
    changes: before?.changes ?? [],
    unreadable: [],
    unanswered: [],
    shapes: { ...before?.shapes },
    answers: { ...before?.answers },
  };
  const found: DriftChange[] = [];
  for (const { check, route, params } of reads(core, profile)) {
    const r = await client.send(route, params, (body) => body);
    if (!r.ok) {
      record.unanswered.push(`${CHECK_WORDS[check]}: ${r.message}`);
      continue;
    }
    const shape = shapeOf(r.data);
    // Never an apiKey in what is kept or shown, even if a service echoed it whole, encoded or in part.
    const text = redact(JSON.stringify(r.data), [key]).slice(0, ANSWER_MAX_CHARS);
    const last = before?.shapes[check];
    if (last !== undefined) {
      const diff = diffShapes(last, shape);
      if (!sameShape(diff)) found.push({ read: CHECK_WORDS[check], ...diff, before: before?.answers[check] ?? '', after: text });
    }
    record.shapes[check] = shape;
    record.answers[check] = text;
    record.unreadable.push(...unreadable(check, shape));
  }
  if (found.length > 0) {
    record.changes = found;
    record.changedAt = record.checkedAt;
  }
  core.profiles.setDrift(profileId, record);
  if (found.length > 0) await say(core, profile, found, record.unreadable);
  return ok(driftStatus(core, profileId));
}

/** The one Activity entry for a change: what changed, what Keydesk can no longer read, and both raw answers. */
async function say(core: Core, profile: StoredProfile, changes: DriftChange[], cannotRead: string[]): Promise<void> {
  const list = (label: string, items: string[]) => (items.length > 0 ? ` ${label}: ${items.join(', ')}.` : '');
  const parts = changes.map(
    (c) =>
      `The answer to ${c.read} changed.${list('Fields gained', c.gained)}${list('Fields lost', c.lost)}${list('Types changed', c.retyped)}` +
      ` Before: ${c.before} After: ${c.after}`,
  );
  const tail = cannotRead.length > 0 ? ` Keydesk goes on by its tolerance rules but can no longer read ${cannotRead.join('; ')}.` : '';
  const entry = {
    profileId: profile.id,
    profileName: profile.name,
    action: 'drift.check' as const,
    target: 'answer shapes',
    outcome: 'ok' as const,
    message: `${parts.join(' ')}${tail}`,
  };
  await core.writer.run('audit', { entry }).catch((error: unknown) => {
    console.error('keydesk: the activity entry for a change in answers could not be written:', error);
  });
}

/** While Keydesk runs: each remote profile with a key is checked at most once a day. Returns a stop function. */
export function watchDrift(core: Core, everyMs = 3_600_000): () => void {
  let stopped = false;
  let running = false;
  const tick = async (): Promise<void> => {
    if (running || stopped) return;
    running = true;
    try {
      for (const p of core.profiles.list()) {
        if (p.kind !== 'remote' || p.keyHint === null) continue;
        const last = core.profiles.drift(p.id)?.checkedAt;
        if (last !== undefined && last !== null && Date.now() - Date.parse(last) < DAY_MS) continue;
        await checkDrift(core, p.id).catch((error: unknown) => {
          console.error(`keydesk: the change watch of profile ${p.id} failed:`, error);
        });
      }
    } finally {
      running = false;
    }
  };
  const first = setTimeout(() => void tick(), 60_000);
  const timer = setInterval(() => void tick(), everyMs);
  first.unref();
  timer.unref();
  return () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(timer);
  };
}
