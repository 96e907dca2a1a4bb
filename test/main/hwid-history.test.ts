// A key's HWID history on a real core: what validations, lookups and resets showed of its HWID, the sandbox's own
// reset log for the sandbox profile, and a reset refused for a cooldown with when the next one is allowed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchValues } from '../../src/shared/key-batch.ts';
import { startTestCore, type TestCore } from '../support/core.ts';
import { startSandboxServer, type RunningSandbox } from '../../src/sandbox/server.ts';
import { SandboxStore } from '../../src/sandbox/store.ts';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(async () => {
  await t.close();
});

const history = async (keyValue: string) => {
  await t.core.writer.idle();
  return (await t.must('keys.hwidHistory', { keyValue })).events;
};
const validate = (keyValue: string, hwid: string) =>
  t.must('validation.run', { mode: 'key', keyValue, hwid: { custom: hwid }, dryRun: false });

describe('the sandbox profile', () => {
  it('records bindings, the sandbox log’s reset and a refused machine, newest first', async () => {
    await t.must('profiles.select', { id: 'sandbox' });
    const [value = ''] = batchValues((await t.must('keys.generate', { expire: '2099-01-31', count: 1, isPremium: false })).generated);
    expect(await history(value)).toEqual([]);
    await validate(value, 'HW-FIRST');
    expect((await validate(value, 'HW-OTHER')).outcome).toBe('hwid_mismatch');
    await t.must('keys.resetHwid', { keyValue: value });
    await validate(value, 'HW-SECOND');
    await t.must('keys.lookup', { term: value });
    const events = await history(value);
    const said = events.map((e) => `${e.kind}:${e.hwid ?? '-'}:${e.source}`);
    expect(said).toContain('validated:HW-FIRST:validation');
    expect(said).toContain('mismatch:HW-OTHER:validation');
    expect(said).toContain('bound:HW-FIRST:ledger');
    expect(said).toContain('cleared:-:ledger');
    expect(said).toContain('reset:-:sandbox reset log');
    expect(said).toContain('bound:HW-SECOND:ledger');
    // Newest first: the second binding comes before the reset, which comes before the first binding.
    expect(said.indexOf('bound:HW-SECOND:ledger')).toBeLessThan(said.indexOf('reset:-:sandbox reset log'));
    expect(said.indexOf('reset:-:sandbox reset log')).toBeLessThan(said.indexOf('bound:HW-FIRST:ledger'));
  });
});

describe('a remote service with a reset cooldown', () => {
  let store: SandboxStore;
  let server: RunningSandbox;
  beforeAll(async () => {
    store = new SandboxStore(':memory:');
    const { apiKey } = store.createService('Cool Shop', 'cool-shop');
    server = await startSandboxServer({ store, limits: { hwidResetCooldownMinutes: 60 } });
    const profile = await t.must('profiles.add', { name: 'Cool Shop', baseUrl: server.url, apiKey, serviceIdentifier: 'cool-shop' });
    await t.must('profiles.select', { id: profile.id });
  });
  afterAll(async () => {
    await server.close();
    store.close();
  });

  it('records its own reset, and a refusal with the next allowed time', async () => {
    const [value = ''] = batchValues((await t.must('keys.generate', { expire: '2099-01-31', count: 1, isPremium: false })).generated);
    await t.must('validation.run', { mode: 'key', keyValue: value, hwid: { custom: 'HW-COOL' }, confirmActivation: true });
    await t.must('keys.resetHwid', { keyValue: value });
    await t.must('validation.run', { mode: 'key', keyValue: value, hwid: { custom: 'HW-COOL-2' }, confirmActivation: true });
    const refused = await t.call('keys.resetHwid', { keyValue: value });
    expect(refused).toMatchObject({ ok: false, code: 'COOLDOWN' });
    const events = await history(value);
    const cooldown = events.find((e) => e.kind === 'cooldown');
    expect(cooldown?.nextResetAt).toBeDefined();
    const wait = Date.parse(cooldown?.nextResetAt ?? '') - Date.parse(cooldown?.at ?? '');
    // About the hour the service asked for, less what had passed since the first reset.
    expect(wait).toBeGreaterThan(50 * 60_000);
    expect(wait).toBeLessThanOrEqual(60 * 60_000 + 1_000);
    expect(events.filter((e) => e.kind === 'reset').map((e) => e.source)).toEqual(['reset']);
  });
});
