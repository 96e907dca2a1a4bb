// The transport-free half of IPC: parse the input with the contract's schema, run the handler, and always
// answer with a plain Result. Electron's register.ts and the harness's loopback bridge both call this.
import { contract, type OperationName } from '../../shared/contract.ts';
import { inputIssueWords } from '../../shared/input-words.ts';
import { fail, type Result } from '../../shared/result.ts';
import { unexpectedFailure } from '../failures.ts';
import type { Handlers } from '../handlers/types.ts';

type AnyHandler = (input: unknown) => Promise<Result<unknown>>;

export async function dispatch(handlers: Handlers, name: OperationName, raw: unknown): Promise<Result<unknown>> {
  const parsed = contract[name].input.safeParse(raw, { error: inputIssueWords });
  if (!parsed.success) {
    const message = parsed.error.issues
      .slice(0, 5)
      .map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message))
      .join('; ');
    return fail('INVALID_INPUT', message);
  }
  try {
    return await (handlers[name] as AnyHandler)(parsed.data);
  } catch (error) {
    // A handler that throws is a bug: answer in words, keep the details for the log only.
    return unexpectedFailure(name, error);
  }
}
