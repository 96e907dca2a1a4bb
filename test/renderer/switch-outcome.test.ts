// A change sent to one service whose answer comes after the person switched to another: no view shows
// that profile any more, so its outcome is said in a toast naming the profile and the operation, and nothing of it
// is written into the now active profile's views. Reads answered late are still dropped, silently.
import { beforeEach, describe, expect, it } from 'vitest';
import type { OperationName, OperationResult } from '../../src/shared/contract.ts';
import type { Profile } from '../../src/shared/domain.ts';
import { fake, key, readyStore, remoteProfile, sandboxProfile, useKeydesk } from '../support/fake-bridge.ts';

const state = () => useKeydesk.getState();

const acme: Profile = { ...remoteProfile, name: 'Acme Remote' };

/** An answer main gives only when the test says so. */
function held<N extends OperationName>(name: N): (answer: OperationResult<N>) => void {
  let answer: (r: OperationResult<N>) => void = () => undefined;
  fake.impl[name] = (() =>
    new Promise<OperationResult<N>>((resolve) => {
      answer = resolve;
    })) as never;
  return (r) => {
    answer(r);
  };
}

/** Switches from Acme Remote to the Local sandbox, then shows a search and an open key there, as a person would. */
async function switchToSandbox() {
  fake.impl['profiles.select'] = () => Promise.resolve({ ok: true, data: sandboxProfile });
  await state().selectProfile('sandbox');
  expect(state().activeProfileId).toBe('sandbox');
  const local = key('K-1', 'active', { expire: '2030-01-01' });
  useKeydesk.setState({
    lookupTerm: 'K-1',
    lookupResult: { active: [local], generated: [], page: 0, totals: { active: 1, generated: 0 } },
    selectedKey: local,
  });
}

/** What the sandbox's views show: none of it may change when Acme's answer lands. */
const sandboxView = () => {
  const s = state();
  return {
    activeProfileId: s.activeProfileId,
    lookupResult: s.lookupResult,
    selectedKey: s.selectedKey,
    selectedRead: s.selectedRead,
    keyChanges: s.keyChanges,
    keyActionRequest: s.keyActionRequest,
    keyActionKind: s.keyActionKind,
    executionCount: s.executionCount,
    unknownOutcomes: s.unknownOutcomes,
    online: s.online,
    keyless: s.keyless,
    lastGenerated: s.lastGenerated,
    deletedHere: s.deletedHere,
  };
};

beforeEach(() => {
  readyStore([sandboxProfile, acme]);
  useKeydesk.setState({ activeProfileId: acme.id });
  useKeydesk.setState({ selectedKey: key('K-1', 'active') });
});

describe('a change answered after a profile switch', () => {
  it('says it was done and on which profile, leaving views alone', async () => {
    const answer = held('keys.extend');
    const extending = state().extendKey('K-1', 100);
    await switchToSandbox();
    const before = sandboxView();
    answer({ ok: true, data: { key: key('K-1', 'active', { expire: '2031-04-11' }) } });
    expect(await extending).toBe(false);
    expect(state().toasts.at(-1)).toMatchObject({ kind: 'success', text: 'On Acme Remote: Extend a key (K-1, 100 days) — done.' });
    expect(sandboxView()).toEqual(before);
    expect(state().selectedKey?.expire).toBe('2030-01-01');
  });

  it('says it failed, with the service’s reason', async () => {
    const answer = held('keys.extend');
    const extending = state().extendKey('K-1', 100);
    await switchToSandbox();
    const before = sandboxView();
    answer({ ok: false, code: 'NOT_FOUND', message: 'The service has no such key.' });
    await extending;
    expect(state().toasts.at(-1)).toMatchObject({
      kind: 'error',
      text: 'On Acme Remote: Extend a key (K-1, 100 days) — failed: The service has no such key.',
    });
    expect(sandboxView()).toEqual(before);
  });

  it('says a lost answer may or may not have taken effect', async () => {
    const answer = held('keys.extend');
    const extending = state().extendKey('K-1', 100);
    await switchToSandbox();
    const before = sandboxView();
    answer({
      ok: false,
      code: 'OUTCOME_UNKNOWN',
      message: 'The service did not confirm the outcome: it may or may not have taken effect. Check before retrying.',
    });
    await extending;
    expect(state().toasts.at(-1)).toMatchObject({
      kind: 'error',
      text: 'On Acme Remote: Extend a key (K-1, 100 days) — may or may not have taken effect: the service did not confirm it. Check before retrying.',
    });
    expect(sandboxView()).toEqual(before);
    expect(state().unknownOutcomes).toEqual([]);
  });

  it.each([
    ['Push an execution', 'executions.push', () => state().pushExecution(), { executionCount: 7, sampledAt: '2026-01-01T00:00:00.000Z' }],
    ["Reset a key's HWID (K-1)", 'keys.resetHwid', () => state().resetHwid('K-1'), { key: null }],
    ['Delete a key (K-1)', 'keys.delete', () => state().deleteKey(key('K-1', 'active')), { deletedKey: 'K-1' }],
    ['Add a keyless entry (HWID HW-1)', 'keyless.add', () => state().addKeyless({ hwid: 'HW-1' }), { entry: { hwid: 'HW-1' } }],
    ['Delete a keyless entry (HWID HW-1)', 'keyless.delete', () => state().deleteKeyless('HW-1'), null],
    [
      'Generate keys (3 keys)',
      'keys.generate',
      () => state().generate({ expire: '2099-01-01', count: 3, isPremium: false, note: '' }),
      { generated: { count: 3 } },
    ],
  ] as const)('says “%s — done.” for a change of that kind', async (words, name, act, data) => {
    const answer = held(name);
    const acting = act();
    await switchToSandbox();
    const before = sandboxView();
    answer({ ok: true, data } as never);
    await acting;
    expect(state().toasts.at(-1)).toMatchObject({ kind: 'success', text: `On Acme Remote: ${words} — done.` });
    expect(sandboxView()).toEqual(before);
  });

  it('says how a real validation went, and nothing of a dry run', async () => {
    const report = { outcome: 'invalid_key', success: false, message: 'The key is bound to another machine.', dryRun: false, hwid: 'HW-B' };
    let answer = held('validation.run');
    let validating = state().runValidation({ mode: 'key', keyValue: 'K-1', hwid: { custom: 'HW-B' }, confirmActivation: true });
    await switchToSandbox();
    answer({ ok: true, data: report } as never);
    await validating;
    expect(state().toasts.at(-1)).toMatchObject({
      kind: 'error',
      text: 'On Acme Remote: Validate (K-1) — refused: The key is bound to another machine.',
    });
    expect(state().validation).toBeNull();

    useKeydesk.setState({ activeProfileId: acme.id });
    answer = held('validation.run');
    validating = state().runValidation({ mode: 'key', keyValue: 'K-1', hwid: { custom: 'HW-B' }, dryRun: true });
    await switchToSandbox();
    const toasts = state().toasts;
    answer({ ok: true, data: { ...report, dryRun: true } } as never);
    await validating;
    expect(state().toasts).toBe(toasts);
  });

  it('drops a read answered after the switch without a word', async () => {
    const answer = held('keyless.lookup');
    const looking = state().lookupKeyless('HW');
    await switchToSandbox();
    const toasts = state().toasts;
    answer({ ok: true, data: { entries: [], total: 0 } });
    await looking;
    expect(state().toasts).toBe(toasts);
    expect(state().keyless).toBeNull();
  });
});
