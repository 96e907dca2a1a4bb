// The preload bridge the store calls, faked per test and typed by the contract: what main would answer.
import type { KeydeskBridge, OperationName, OperationResult } from '../../src/shared/contract.ts';
import { OPERATION_NAMES } from '../../src/shared/operations.ts';

export type Impl = { [N in OperationName]?: (input: unknown) => Promise<OperationResult<N>> };
export const impl: Impl = {};
export const calls: { name: OperationName; input: unknown }[] = [];

const bridge = Object.fromEntries(
  OPERATION_NAMES.map((name) => [
    name,
    (input: unknown) => {
      calls.push({ name, input });
      const fn = impl[name];
      return fn ? fn(input) : Promise.resolve({ ok: false, code: 'UNSUPPORTED', message: `${name} not faked` });
    },
  ]),
) as unknown as KeydeskBridge;
Object.assign(window, { keydesk: { ...bridge, on: () => () => undefined } });

export function resetBridge(): void {
  for (const k of Object.keys(impl)) Reflect.deleteProperty(impl, k);
  calls.length = 0;
}
