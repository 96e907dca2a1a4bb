// The transport-free half of IPC: parse the input with the contract's schema, run the handler, answer a Result.
// Electron's register.ts and the harness's loopback bridge both call this.
import { contract, type OperationName } from '../../shared/contract.ts';
import { inputIssueWords, issueSentence } from '../../shared/input-words.ts';
import { fail, type Result } from '../../shared/result.ts';
import { unexpectedFailure } from '../failures.ts';
import { operationWords } from '../../shared/operation-words.ts';
import type { Handlers } from '../handlers/types.ts';

const pathKey = (path: readonly PropertyKey[]): string => path.map(String).join('.');

type AnyHandler = (input: unknown) => Promise<Result<unknown>>;

export async function dispatch(handlers: Handlers, name: OperationName, raw: unknown): Promise<Result<unknown>> {
  // Issues worded here rather than by the schema need their field's label.
  const generic = new Set<string>();
  const parsed = contract[name].input.safeParse(raw, {
    error: (issue) => {
      generic.add(pathKey(issue.path ?? []));
      return inputIssueWords(issue);
    },
  });
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5);
    // Words first, no contract paths ("keyValue: …"); `field` lets a form put the message beside its field.
    const message = issues.map((i) => issueSentence(i, generic.has(pathKey(i.path)))).join(' ');
    const field = issues[0]?.path.filter((p) => typeof p === 'string').join('.');
    return field ? { ...fail('INVALID_INPUT', message), field } : fail('INVALID_INPUT', message);
  }
  try {
    return await (handlers[name] as AnyHandler)(parsed.data);
  } catch (error) {
    // A handler that throws is a bug: answer in words, keep the details for the log only.
    return unexpectedFailure(`“${operationWords(name)}”`, error);
  }
}
