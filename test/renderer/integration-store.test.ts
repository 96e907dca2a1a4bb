// The Integration slice with a fake bridge typed by the contract: the test key it asks for, its status on
// demand, answers that arrive after a profile switch, and the sandbox's state as main reports it.
import { beforeEach, describe, expect, it } from 'vitest';
import type { OperationResult } from '../../src/shared/contract.ts';
import type { Key } from '../../src/shared/domain.ts';
import { emit, fake, freshStore, key as baseKey, useKeydesk } from '../support/fake-bridge.ts';
import { toKeyBatch } from '../../src/shared/key-batch.ts';

const key = (value: string, status: Key['status'] = 'generated', hwid: string | null = null): Key =>
  baseKey(value, status, { note: 'integration test', hwid });

beforeEach(() => {
  freshStore({ activeProfileId: 'sandbox' });
});

describe('the integration slice', () => {
  it('generates one test key for the active profile, 30 days out', async () => {
    fake.impl['keys.generate'] = () => Promise.resolve({ ok: true, data: { generated: toKeyBatch([key('K1')]) } });
    await useKeydesk.getState().generateTestKey('sandbox');
    const input = fake.calls[0]?.input as { expire: string; count: number; isPremium: boolean; note: string };
    expect(fake.calls.map((c) => c.name)).toEqual(['keys.generate']);
    expect(input).toMatchObject({ count: 1, isPremium: false, note: 'integration test' });
    const days = (Date.parse(`${input.expire}T00:00:00Z`) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(28);
    expect(days).toBeLessThan(31);
    expect(useKeydesk.getState()).toMatchObject({
      testKey: { profileId: 'sandbox', key: { value: 'K1' } },
      testKeyRequest: { status: 'ready', error: null },
    });
  });

  it('drops a key that arrives after the user switched to another profile', async () => {
    let answer: (r: OperationResult<'keys.generate'>) => void = () => undefined;
    fake.impl['keys.generate'] = () => new Promise((r) => (answer = r));
    const pending = useKeydesk.getState().generateTestKey('sandbox');
    useKeydesk.setState({ activeProfileId: 'remote' });
    answer({ ok: true, data: { generated: toKeyBatch([key('K1')]) } });
    await pending;
    expect(useKeydesk.getState()).toMatchObject({ testKey: null });
  });

  it('keeps a refused generation as a failure, with no key', async () => {
    fake.impl['keys.generate'] = () => Promise.resolve({ ok: false, code: 'API_KEY_INVALID', message: 'The apiKey was refused.' });
    await useKeydesk.getState().generateTestKey('sandbox');
    expect(useKeydesk.getState()).toMatchObject({
      testKey: null,
      testKeyRequest: { status: 'error', error: { code: 'API_KEY_INVALID', message: 'The apiKey was refused.' } },
    });
  });

  it('refreshes the key from the service, or says it is gone', async () => {
    useKeydesk.setState({ testKey: { profileId: 'sandbox', key: key('K1') } });
    fake.impl['keys.lookup'] = () => Promise.resolve({ ok: true, data: { active: [key('K1', 'active', 'machine-1')], generated: [] } });
    await useKeydesk.getState().refreshTestKey();
    expect(fake.calls.at(-1)).toEqual({ name: 'keys.lookup', input: { term: 'K1' } });
    expect(useKeydesk.getState().testKey?.key).toMatchObject({ status: 'active', hwid: 'machine-1' });
    fake.impl['keys.lookup'] = () => Promise.resolve({ ok: true, data: { active: [key('K10', 'active')], generated: [] } });
    await useKeydesk.getState().refreshTestKey();
    expect(useKeydesk.getState().testKeyRequest).toMatchObject({ status: 'error', error: { code: 'NOT_FOUND' } });
  });

  it("reads the sandbox's state, follows its changes, and stops following when told", async () => {
    fake.impl['app.status'] = () =>
      Promise.resolve({
        ok: true,
        data: {
          version: '1',
          platform: 'linux',
          sandbox: { url: 'http://127.0.0.1:9', running: true, error: null },
          secretStorage: 'os-keychain',
          activeProfileId: 'sandbox',
        },
      } as OperationResult<'app.status'>);
    const stop = useKeydesk.getState().watchSandbox();
    await expect.poll(() => useKeydesk.getState().sandboxState).toEqual({ url: 'http://127.0.0.1:9', running: true, error: null });
    emit('sandbox.stateChanged', { url: null, running: false, error: 'The port is in use.' });
    expect(useKeydesk.getState().sandboxState).toEqual({ url: null, running: false, error: 'The port is in use.' });
    stop();
    emit('sandbox.stateChanged', { url: 'http://127.0.0.1:10', running: true, error: null });
    expect(useKeydesk.getState().sandboxState).toMatchObject({ running: false });
  });
});
