// What every slice of the store shares: the one way to call main (connectivity, a profile switch dropping
// stale answers), the one request helper (a RequestState kept for the caller), toasts and profile activation.
import type { OperationInput, OperationName, OperationOutput } from '../../../shared/contract.ts';
import type { ErrorCode, Failure, Result } from '../../../shared/result.ts';
import { call } from '../lib/api.ts';
import { fmt, NOUNS } from '../lib/format.ts';
import { operationWords } from '../lib/words.ts';
import { EXECUTIONS_INITIAL } from './executions.ts';
import { FACTS_INITIAL } from './facts.ts';
import { INTEGRATION_INITIAL } from './integration.ts';
import { JOBS_INITIAL } from './jobs.ts';
import { OVERVIEW_INITIAL } from './overview.ts';
import { KEYS_INITIAL } from './keys.ts';
import { DEFAULT_LEDGER_SORT } from './ledger.ts';
import { failed, LOADING, moment, READY } from './request.ts';
import { SERVICE_INITIAL } from './service.ts';
import type { Answer, KeydeskState, RequestKey, StoreContext } from './types.ts';
import { UI_INITIAL } from './ui.ts';

const OFFLINE_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['NETWORK', 'TIMEOUT']);
/** Failures only an answering service gives (main's own checks never use these): the service is back. */
const ANSWERED_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'API_KEY_MISSING',
  'API_KEY_INVALID',
  'METHOD_NOT_ALLOWED',
  'HOST_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'URI_TOO_LONG',
  'UNSUPPORTED_MEDIA_TYPE',
  'COOLDOWN',
  'RATE_LIMITED',
  'HTTP_ERROR',
  'BAD_RESPONSE',
]);
/** How long after a failed call the service is asked again while it counts as unreachable. */
export const OFFLINE_PROBE_MS = 2_000;
/** Operations main answers alone: their success says nothing of the service, so they never clear the offline banner. */
const LOCAL_OPERATIONS: ReadonlySet<OperationName> = new Set<OperationName>([
  'app.status',
  'profiles.list',
  'profiles.select',
  'profiles.remove',
  'executions.history',
  'keys.export',
  'ledger.query',
  'ledger.export',
  'ledger.cutShort',
  'ledger.dismissCutShort',
  'hwid.read',
  'audit.list',
  'audit.export',
  'jobs.list',
  'jobs.get',
  'jobs.items',
  'jobs.cancel',
  'jobs.export',
  'jobs.forget',
  'jobs.getCeiling',
  'jobs.setCeiling',
  'settings.get',
  'settings.set',
  'settings.setSandboxPort',
  'settings.openDataFolder',
  'service.capabilities',
  'keys.hwidHistory',
]);

/** Changes sent to a service: answered after a profile switch, a toast naming that profile says how it went (not a dry run). */
const CHANGES: ReadonlySet<OperationName> = new Set<OperationName>([
  'executions.push',
  'keys.generate',
  'keys.delete',
  'keys.extend',
  'keys.resetHwid',
  'keys.edit',
  'keyless.add',
  'keyless.delete',
  'validation.run',
  'jobs.forget',
]);
const isChange = (name: OperationName, input: unknown): boolean =>
  CHANGES.has(name) && !(name === 'validation.run' && (input as OperationInput<'validation.run'>).dryRun === true);
/** What a change was about, as its toast names it: the key and days of an extend, the HWID of a keyless entry. */
function changeTarget(name: OperationName, input: unknown): string {
  const i = (input ?? {}) as { keyValue?: string; hwid?: unknown; days?: number; count?: number };
  const parts: string[] = [];
  if (typeof i.keyValue === 'string') parts.push(i.keyValue);
  if (name.startsWith('keyless.') && typeof i.hwid === 'string') parts.push(`HWID ${i.hwid}`);
  if (name === 'keys.extend' && typeof i.days === 'number') parts.push(fmt.count(i.days, NOUNS.day));
  if (name === 'keys.generate' && typeof i.count === 'number') parts.push(fmt.count(i.count, NOUNS.key));
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}
/** The toast for a change answered after a profile switch: "On Acme Remote: Extend a key (K, 100 days) — done." */
export function outcomeElsewhere(
  profile: string,
  name: OperationName,
  input: unknown,
  r: Result<unknown>,
): { kind: 'success' | 'error'; text: string } {
  const what = `On ${profile}: ${operationWords(name)}${changeTarget(name, input)}`;
  if (r.ok) {
    if (name === 'validation.run') {
      const v = r.data as OperationOutput<'validation.run'>;
      return v.success
        ? { kind: 'success', text: `${what} — valid: the machine was let in.` }
        : { kind: 'error', text: `${what} — refused: ${v.message}` };
    }
    return { kind: 'success', text: `${what} — done.` };
  }
  if (r.code === 'OUTCOME_UNKNOWN')
    return { kind: 'error', text: `${what} — may or may not have taken effect: the service did not confirm it. Check before retrying.` };
  if (r.keydeskGone)
    return {
      kind: 'error',
      text: `${what} — may or may not have taken effect: Keydesk stopped answering before it said. Check before retrying.`,
    };
  return { kind: 'error', text: `${what} — failed: ${r.message}` };
}

/** Everything shown, selected or failed for one profile, as each slice starts it: what a profile switch puts back. */
const profileData = (): Partial<KeydeskState> => ({
  ...UI_INITIAL,
  ...EXECUTIONS_INITIAL,
  ...KEYS_INITIAL,
  ...SERVICE_INITIAL,
  ...INTEGRATION_INITIAL,
  ...JOBS_INITIAL,
  ...OVERVIEW_INITIAL,
  ...FACTS_INITIAL,
});

export function createStoreContext(set: StoreContext['set'], get: StoreContext['get']): StoreContext {
  /** Bumps on every profile switch; an answer that arrives for an earlier profile is dropped. */
  let profileEpoch = 0;
  let probing: ReturnType<typeof setTimeout> | null = null;
  /** Numbers the calls to the service in the order they start. */
  let callSeq = 0;
  /** The latest-started call the service answered: an older call failing late says nothing about now. */
  let answeredSeq = 0;

  /** Calls main, tracking whether the service answers; null if the profile changed meanwhile (changes still get a toast). */
  async function run<N extends OperationName>(name: N, input: OperationInput<N>): Promise<Answer<OperationOutput<N>> | null> {
    const epoch = profileEpoch;
    const seq = ++callSeq;
    const fromId = get().activeProfileId;
    const from = get().profiles.find((p) => p.id === fromId)?.name ?? 'the service used before';
    const r = await call(name, input);
    if (epoch !== profileEpoch) {
      if (isChange(name, input)) {
        const said = outcomeElsewhere(from, name, input, r);
        get().notify(said.kind, said.text);
      }
      return null;
    }
    if (r.ok) {
      if (!LOCAL_OPERATIONS.has(name)) answered(seq);
      return { data: r.data };
    }
    // Keydesk's own core did not answer (not the service): the window says that instead (ui.ts keydeskGone).
    if (r.keydeskGone) return { failure: r };
    if (OFFLINE_CODES.has(r.code)) {
      if (seq > answeredSeq) goOffline(r);
    } else if (ANSWERED_CODES.has(r.code))
      answered(seq); // it answered, if only to refuse
    else if (r.code === 'OUTCOME_UNKNOWN' && !get().unknownOutcomes.includes(name))
      set({ unknownOutcomes: [...get().unknownOutcomes, name] });
    return { failure: r };
  }
  /** The same, for calls about profiles or this machine rather than the active service: never dropped. */
  async function runGlobal<N extends OperationName>(name: N, input: OperationInput<N>): Promise<Answer<OperationOutput<N>>> {
    const r = await call(name, input);
    return r.ok ? { data: r.data } : { failure: r };
  }
  function stopProbing() {
    if (probing !== null) clearTimeout(probing);
    probing = null;
  }
  /** The service answered: it is online, and no change sent before is left without an answer since. */
  function answered(seq: number) {
    answeredSeq = Math.max(answeredSeq, seq);
    set({ serviceAnswered: moment() });
    if (!get().online) goOnline();
    // "Could not reach the service" is no longer so.
    get().dismissResolved('offline');
    if (get().unknownOutcomes.length > 0) set({ unknownOutcomes: [] });
  }
  function goOnline() {
    stopProbing();
    set({ online: true, offlineReason: null });
  }
  /** The profile epoch of the probe out now, if any: a second one would only double the reads. */
  let probeOut: number | null = null;
  /** A light read of the service, and again every OFFLINE_PROBE_MS while it does not answer. */
  async function probe() {
    const epoch = profileEpoch;
    stopProbing();
    if (get().online || probeOut === epoch) return;
    probeOut = epoch;
    const r = await run('executions.get', undefined);
    if (probeOut === epoch) probeOut = null;
    if (epoch !== profileEpoch || !r) return; // another profile: its own notice, its own probe
    // A reading of the count: a poll's read still out is no longer what the count waits on (store/executions.ts).
    if ('data' in r)
      set({
        countRequest: READY,
        executionCount: r.data.executionCount,
        sampledAt: r.data.sampledAt,
        countBeforePush: false,
        countEarlier: false,
        countAskedAt: null,
      });
    else if (!get().online && probing === null) probing = setTimeout(() => void probe(), OFFLINE_PROBE_MS);
  }
  function goOffline(reason: Failure) {
    set({ online: false, offlineReason: reason });
    // Again and again while the service is away, so what waits on it comes back within seconds of its return.
    if (probing === null && probeOut !== profileEpoch) probing = setTimeout(() => void probe(), OFFLINE_PROBE_MS);
  }
  /** Reads the search and the selected key again after a change the service did not describe. */
  async function refreshAfterChange(keyValue: string) {
    const term = get().lookupTerm;
    if (term !== '') await get().runLookup(term, get().lookupResult?.page ?? 0);
    const fresh = get().lookupResult;
    const found = fresh && [...fresh.active, ...fresh.generated].find((k) => k.value === keyValue);
    if (found && get().selectedKey?.value === keyValue) set({ selectedKey: found });
  }
  const toastOk = (text: string) => get().notify('success', text);
  const saved: StoreContext['saved'] = (operation, r) => {
    if (!r.ok) {
      get().notifyFailure(operation, r);
      return null;
    }
    if (r.data.path) toastOk(`Saved to ${r.data.path}.`);
    return r.data.path;
  };
  /** Makes a profile the active one: nothing shown, selected or failed for another profile remains. */
  const activate = (id: string | null) => {
    const from = get().activeProfileId;
    if (from === id) return;
    profileEpoch++;
    stopProbing();
    // Toasts too: they would be about the wrong service. The profile's default filter and sort come in the same change,
    // so lib/place.ts can restore its kept ones before the ledger is read again.
    set({ activeProfileId: id, ...profileData(), toasts: [], ledgerFilter: {}, ledgerSort: DEFAULT_LEDGER_SORT });
    get().clearLedger();
    get().switchProfileDrafts(from, id);
  };

  /** Bumps per request key; an answer for an older request under `latest` is dropped. */
  const generations = new Map<RequestKey, number>();
  /** Per key, the generation of the answer last shown: a background answer older than it is dropped. */
  const applied = new Map<RequestKey, number>();
  const requestWith: StoreContext['requestWith'] = async (work, key, done, options = {}) => {
    const generation = (generations.get(key) ?? 0) + 1;
    generations.set(key, generation);
    const marked = options.background && get()[key].status !== 'idle' ? {} : { [key]: LOADING };
    set({ ...marked, ...options.before } as Partial<KeydeskState>);
    const r = await work();
    if (!r || (options.latest && generations.get(key) !== generation)) return null;
    // A poll sent during an outage that fails after a newer one answered is not how things stand now.
    if (options.background && generation < (applied.get(key) ?? 0)) return null;
    applied.set(key, generation);
    if ('failure' in r) {
      set({ [key]: failed(r.failure), ...options.onFailure } as Partial<KeydeskState>);
      if (options.toast) {
        if (options.operation) get().notifyFailure(options.operation, r.failure);
        else get().notify('error', r.failure.message);
      }
      return null;
    }
    set({ [key]: READY, ...done(r.data) } as Partial<KeydeskState>);
    return r;
  };
  const request: StoreContext['request'] = (name, input, key, done, options = {}) =>
    requestWith(() => (options.global ? runGlobal(name, input) : run(name, input)), key, done, { operation: name, ...options });
  return { set, get, run, runGlobal, request, requestWith, toastOk, saved, activate, refreshAfterChange, probeService: () => void probe() };
}
