import type { OperationName, OperationResult, ParsedInput } from '../../shared/contract.ts';
import { fail, type Result } from '../../shared/result.ts';
import type { Core } from '../core.ts';
import type { StoredProfile } from '../store/profiles-file.ts';

export type Handler<N extends OperationName> = (input: ParsedInput<N>) => Promise<OperationResult<N>>;
/** Every operation of the contract, handled: a missing one does not compile. */
export type Handlers = { [N in OperationName]: Handler<N> };

/**
 * Runs a mutating operation and records it in the audit log: when, which profile, what, on what, and how it
 * ended. The target is a key value, HWID or profile name, never a secret.
 */
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
    result = fail('INTERNAL', `Keydesk failed to ${action}: ${(error as Error).message}`);
  }
  core.db.audit({
    profileId: profile.id,
    profileName: profile.name,
    action,
    target,
    outcome: result.ok ? 'ok' : 'failed',
    message: result.ok ? '' : result.message,
  });
  return result;
}
