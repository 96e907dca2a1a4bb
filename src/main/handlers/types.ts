// The handler type and the guards and audit wrapper every handler room shares.
import type { OperationName, OperationResult, ParsedInput } from '../../shared/contract.ts';
import type { Failure, Result } from '../../shared/result.ts';
import type { ActiveProfile, Core } from '../core.ts';
import { unexpectedFailure } from '../failures.ts';
import { operationWords } from '../../shared/operation-words.ts';
import type { StoredProfile } from '../store/profiles-file.ts';
import type { KeyFields } from '../../shared/domain.ts';

export type Handler<N extends OperationName> = (input: ParsedInput<N>) => Promise<OperationResult<N>>;
/** Every operation of the contract, handled: a missing one does not compile. */
export type Handlers = { [N in OperationName]: Handler<N> };

/** A handler over local data that needs a selected profile but no key; without one, it answers why. */
export const needsProfile =
  <I, R extends Result<unknown>>(core: Core, run: (input: I, profile: StoredProfile) => R | Promise<R>) =>
  (input: I): Promise<R | Failure> => {
    const profile = core.requireProfile();
    return Promise.resolve('ok' in profile ? profile : run(input, profile));
  };

/** A handler that calls the selected profile's service, needing its stored key; without either, it answers why. */
export const needsKey =
  <I, R extends Result<unknown>>(core: Core, run: (input: I, active: ActiveProfile) => Promise<R>) =>
  async (input: I): Promise<R | Failure> => {
    const active = await core.requireClient();
    return 'ok' in active ? active : run(input, active);
  };

/** What Activity says of an act begun and not settled: still waiting, or Keydesk stopped before it ended. */
export const SENT_NO_ANSWER = 'Sent; no answer was recorded. It may or may not have taken effect.';

/** The fields of its key an act changes: read from the ledger as its entry is written, and from its answer after. */
export interface KeyChange<T> {
  fields: readonly (keyof KeyFields)[];
  after: (data: T) => KeyFields;
}

/**
 * Runs a mutating operation, audited: its entry is written first, as unknown, then settled with the outcome, so a
 * crash mid-act leaves "unknown", never nothing. The target is never a secret, the message never raw exception text.
 */
export async function audited<T>(
  core: Core,
  profile: Pick<StoredProfile, 'id' | 'name'>,
  action: OperationName,
  target: string,
  run: () => Promise<Result<T>>,
  change?: KeyChange<T>,
): Promise<Result<T>> {
  const entry = { profileId: profile.id, profileName: profile.name, action, target };
  // The outcome stands whatever the audit log could record: an act done, reported as failed, would be sent again.
  const unwritten = (error: unknown): null => {
    console.error(`keydesk: the audit entry for ${action} (${target}) could not be written:`, error);
    return null;
  };
  const first = { ...entry, outcome: 'unknown' as const, message: SENT_NO_ANSWER, ...(change ? { before: change.fields } : {}) };
  const id = await core.writer.run('audit', { entry: first }).catch(unwritten);
  let result: Result<T>;
  try {
    result = await run();
  } catch (error) {
    result = unexpectedFailure(`“${operationWords(action)}”`, error);
  }
  // Sent with no answer: Activity must not call it failed, since it may have taken effect.
  const outcome = result.ok ? 'ok' : result.code === 'OUTCOME_UNKNOWN' ? 'unknown' : 'failed';
  const message = result.ok ? '' : result.message;
  // Sent with no answer, the fields after it were never read: an empty reading says so.
  const after = !change || outcome === 'failed' ? {} : { after: result.ok ? change.after(result.data) : {} };
  await (
    id === null
      ? core.writer.run('audit', { entry: { ...entry, outcome, message } })
      : core.writer.run('settleAudit', { id, outcome, message, ...after })
  ).catch(unwritten);
  return result;
}
