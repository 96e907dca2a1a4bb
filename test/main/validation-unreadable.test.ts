// A real validation activates and binds the key, so an answer Keydesk cannot read after the service accepted it
// (nested too deep, or not JSON) says the key may be activated, never that validating failed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestCore, type TestCore } from '../support/core.ts';
import { FakeService } from '../support/fake-service.ts';

const fake = new FakeService();
let t: TestCore;

beforeAll(async () => {
  await fake.start();
  t = await startTestCore();
  fake.on('GET', '/api/execution-count', { status: 200, body: { executionCount: 1 } });
  const profile = await t.must('profiles.add', { name: 'Remote', baseUrl: fake.url, apiKey: 'kd_unreadable', serviceIdentifier: 'svc' });
  await t.must('profiles.select', { id: profile.id });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const validate = () =>
  t.call('validation.run', { mode: 'key', keyValue: 'KEY-1', service: 'svc', hwid: { custom: 'HW-1' }, confirmActivation: true });

describe('validation: an accepted answer Keydesk cannot read', () => {
  it('a success nested 100,000 levels deep says the key may be activated', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    fake.on('GET', '/v2_validation', {
      status: 200,
      body: `{"V2_Authentication":"success","Key_Information":{"Notes":"x"},"extra":${deep}}`,
    });
    const r = await validate();
    expect(r).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN' });
    expect(!r.ok && r.message).toBe(
      'The service accepted the request but its answer could not be read: the key may be activated and bound to this HWID: look it up before validating again.',
    );
  });

  it('a success nested 65 levels deep is not read either', async () => {
    let extra: unknown = 'end';
    for (let i = 0; i < 65; i++) extra = { in: extra };
    fake.on('GET', '/v2_validation', { status: 200, body: { V2_Authentication: 'success', Key_Information: { Notes: 'x' }, extra } });
    expect(await validate()).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN' });
  });

  it('a 200 that is not JSON says the key may be activated', async () => {
    fake.on('GET', '/v2_validation', { status: 200, body: 'V2_Authentication=success' });
    const r = await validate();
    expect(r).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN' });
    expect(!r.ok && r.message).toMatch(/the key may be activated/);
  });
});
