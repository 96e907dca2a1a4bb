// The handler type and the guards and audit wrapper every handler room shares.
import type { OperationName, OperationResult, ParsedInput } from '../../shared/contract.ts';
import type { Failure, Result } from '../../shared/result.ts';
import type { ActiveProfile, Core } from '../core.ts';
import { unexpectedFailure } from '../failures.ts';
import { operationWords } from '../../shared/operation-words.ts';
import type { StoredProfile } from '../store/profiles-file.ts';

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

/** Runs a mutating operation and audits it; the target is never a secret, the message never raw exception text. */
export async function audited<T>(
  core: Core,
  profile: Pick<StoredProfile, 'id' | 'name'>,
  action: OperationName,
  target: string,
  run: () => Promise<Result<T>>,
): Promise<Result<T>> {
  let result: Result<T>;
  try {
    result = await run();
  } catch (error) {
    result = unexpectedFailure(`“${operationWords(action)}”`, error);
  }
  try {
    await core.writer.run('audit', {
      entry: {
        profileId: profile.id,
        profileName: profile.name,
        action,
        target,
        // Sent with no answer: Activity must not call it failed, since it may have taken effect.
        outcome: result.ok ? 'ok' : result.code === 'OUTCOME_UNKNOWN' ? 'unknown' : 'failed',
        message: result.ok ? '' : result.message,
      },
    });
  } catch (error) {
    // The outcome stands whatever the audit log could record: an act done, reported as failed, would be sent again.
    console.error(`keydesk: the audit entry for ${action} (${target}) could not be written:`, error);
  }
  return result;
}
