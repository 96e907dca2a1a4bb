// The IPC wrapper: the sender check comes first, then the contract's schema; a handler runs only for a
// trusted sender with valid input, and every answer is a Result, never a throw.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { Handlers } from '../../src/main/handlers/types.ts';
import { registerIpc, trustedSender } from '../../src/main/ipc/register.ts';
import { OPERATION_NAMES, operationChannel, type OperationName } from '../../src/shared/operations.ts';
import type { Result } from '../../src/shared/result.ts';
import { invalidInput } from '../support/arbitraries.ts';

type Listener = (event: unknown, raw: unknown) => Promise<Result<unknown>>;

function setup() {
  const listeners = new Map<string, Listener>();
  const calls: OperationName[] = [];
  const handlers = Object.fromEntries(
    OPERATION_NAMES.map((n) => [
      n,
      vi.fn(() => {
        calls.push(n);
        return Promise.resolve({ ok: true, data: null });
      }),
    ]),
  ) as unknown as Handlers;
  const mainFrame = { url: 'keydesk://app/index.html', detached: false };
  const isTrusted = trustedSender(
    () => mainFrame as never,
    (url) => url.startsWith('keydesk://app/'),
  );
  const logged: string[] = [];
  registerIpc({ handle: (channel: string, fn: Listener) => listeners.set(channel, fn) } as never, handlers, isTrusted, (line) =>
    logged.push(line),
  );
  const invoke = (name: OperationName, raw: unknown, frame: unknown = mainFrame) => {
    const fn = listeners.get(operationChannel(name));
    if (!fn) throw new Error(`no listener for ${name}`);
    return fn({ senderFrame: frame }, raw);
  };
  return { listeners, calls, mainFrame, invoke, logged };
}

describe('ipc register', () => {
  it('registers exactly one channel per contract operation', () => {
    const { listeners } = setup();
    expect([...listeners.keys()].sort()).toEqual(OPERATION_NAMES.map(operationChannel).sort());
  });

  it('refuses untrusted senders with zero handler calls', async () => {
    const { invoke, calls, mainFrame } = setup();
    const others = [
      null, // no frame (navigated away or destroyed)
      { ...mainFrame, detached: true }, // a detached frame
      { url: 'keydesk://app/index.html', detached: false }, // another frame at our URL (a subframe, another window)
      { url: 'https://evil.example/', detached: false },
    ];
    for (const frame of others) {
      for (const name of OPERATION_NAMES) {
        expect(await invoke(name, undefined, frame)).toEqual({
          ok: false,
          code: 'FORBIDDEN',
          message: "This request did not come from Keydesk's own window.",
        });
      }
    }
    mainFrame.url = 'https://evil.example/';
    expect(await invoke('app.status', undefined)).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    expect(calls).toEqual([]);
  });

  it('logs each refused sender once, never a trusted one', async () => {
    const { invoke, logged } = setup();
    const evil = { url: 'https://evil.example/', detached: false };
    for (let i = 0; i < 5; i++) {
      await invoke('app.status', undefined, evil);
      await invoke('keys.extend', { keyValue: 'K', days: 1 }, evil);
      await invoke('app.status', undefined, null);
    }
    await invoke('app.status', undefined, { url: 'https://other.example/', detached: false });
    await invoke('app.status', undefined);
    expect(logged).toEqual([
      "keydesk: refused IPC on keydesk:op:app.status from https://evil.example/: not Keydesk's own window (further requests from it are refused silently).",
      "keydesk: refused IPC on keydesk:op:app.status from (no frame): not Keydesk's own window (further requests from it are refused silently).",
      "keydesk: refused IPC on keydesk:op:app.status from https://other.example/: not Keydesk's own window (further requests from it are refused silently).",
    ]);
  });

  it('passes a trusted sender with valid input to the handler', async () => {
    const { invoke, calls } = setup();
    expect(await invoke('app.status', undefined)).toEqual({ ok: true, data: null });
    expect(await invoke('keys.extend', { keyValue: 'K', days: 2 })).toEqual({ ok: true, data: null });
    expect(calls).toEqual(['app.status', 'keys.extend']);
  });

  it('answers invalid inputs with INVALID_INPUT, never calling a handler', async () => {
    const { invoke, calls } = setup();
    const invalid = fc.oneof(
      invalidInput,
      fc.record({
        keyValue: fc.oneof(fc.integer(), fc.constant(''), fc.string({ minLength: 257, maxLength: 300 })),
        days: fc.oneof(fc.constant(0), fc.constant(1.5), fc.string()),
      }),
    );
    let checked = 0;
    for (const name of OPERATION_NAMES) {
      await fc.assert(
        fc.asyncProperty(invalid, async (raw) => {
          const r = await invoke(name, raw);
          expect(r.ok).toBe(false);
          if (!r.ok) {
            expect(r.code).toBe('INVALID_INPUT');
            expect(r.message.length).toBeGreaterThan(0);
          }
          checked++;
        }),
        { numRuns: 200 },
      );
    }
    expect(checked).toBe(200 * OPERATION_NAMES.length);
    expect(calls).toEqual([]);
  });
});
