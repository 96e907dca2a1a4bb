// The validation URL keeps the base URL's origin unless the user confirmed another in Profiles, and validation.run
// hands back the validation answer alone, capped. The service is a real sandbox process, reached at 127.0.0.1 as the
// base URL and at localhost (another origin, the same service) as the validation URL. The capped answer comes from a
// loopback page that is no service at all: what a validation URL pointed anywhere would reach.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RAW_ANSWER_MAX_CHARS } from '../../src/main/client/read.ts';
import { ServiceClient } from '../../src/main/client/service-client.ts';
import { startTestCore, type TestCore } from '../support/core.ts';
import { createService, startSandbox, type CreatedService, type SandboxProcess } from '../support/sandbox-process.ts';
import { tempDir } from '../support/temp-dir.ts';

let t: TestCore;
let sandbox: SandboxProcess;
let service: CreatedService;
let direct: ServiceClient;
let page: Server;
let pageOrigin = '';
/** The sandbox under another origin: the same service, on another host name. */
let other = '';

beforeAll(async () => {
  const db = join(tempDir('keydesk-validation-url-'), 'sandbox.db');
  service = createService(db, 'Origin Shop', 'origin-shop');
  sandbox = await startSandbox({ db });
  other = `http://localhost:${sandbox.port}`;
  direct = new ServiceClient({ baseUrl: sandbox.url, validationUrl: `${sandbox.url}/v2_validation`, apiKey: service.apiKey });
  // A page with a validation-shaped answer far over the cap, and a field that is no part of a validation answer.
  page = createServer((req, res) => {
    req.resume();
    const answer = {
      V2_Authentication: 'success',
      Key_Information: { Notes: 'n'.repeat(3 * RAW_ANSWER_MAX_CHARS), Hardware_ID: 'HW-PAGE' },
      pageSecret: 'SECRET-OF-THE-PAGE',
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
  await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
  pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
  t = await startTestCore({ clientOptions: { retryDelaysMs: [] } });
});
afterAll(async () => {
  await t.close();
  page.closeAllConnections();
  await new Promise((r) => page.close(r));
  await sandbox.stop();
});

async function generatedKey(): Promise<string> {
  const r = await direct.generate({ expire: '2099-01-31', count: 1, isPremium: false, note: 'origin' });
  if (!r.ok) throw new Error(r.message);
  return r.data[0]?.value ?? '';
}

const profileInput = { name: 'Origin Shop', apiKey: '', serviceIdentifier: 'origin-shop' };

describe('the validation URL and its origin', () => {
  it('refuses a validation URL on another host without the confirmation', async () => {
    const input = { ...profileInput, apiKey: service.apiKey, baseUrl: sandbox.url, validationUrl: `${other}/v2_validation` };
    const refused = await t.call('profiles.add', input);
    expect(refused).toMatchObject({ ok: false, code: 'NEEDS_CONFIRMATION' });
    expect(!refused.ok && refused.message).toContain(`another host (localhost:${sandbox.port})`);
    // A yes given for some other origin is no yes for this one.
    expect(await t.call('profiles.add', { ...input, confirmValidationOrigin: pageOrigin })).toMatchObject({ code: 'NEEDS_CONFIRMATION' });
    expect((await t.must('profiles.list')).profiles.map((p) => p.name)).not.toContain('Origin Shop');
  });

  it('accepts it with the confirmation, and validates there', async () => {
    const profile = await t.must('profiles.add', {
      ...profileInput,
      apiKey: service.apiKey,
      baseUrl: sandbox.url,
      validationUrl: `${other}/v2_validation`,
      confirmValidationOrigin: other,
    });
    expect(profile).toMatchObject({ validationUrl: `${other}/v2_validation`, validationOriginConfirmed: other });
    await t.must('profiles.select', { id: profile.id });
    const key = await generatedKey();
    const report = await t.must('validation.run', { mode: 'key', keyValue: key, hwid: { custom: 'HW-1' }, confirmActivation: true });
    expect(report).toMatchObject({ outcome: 'success', success: true, hwid: 'HW-1' });
    expect(JSON.parse(report.raw)).toMatchObject({ V2_Authentication: 'success', Registered_ServiceID: 'origin-shop' });
    // A change of the validation URL to yet another host asks again; nothing is saved meanwhile.
    const moved = await t.call('profiles.update', { id: profile.id, validationUrl: `${pageOrigin}/v2_validation` });
    expect(moved).toMatchObject({ ok: false, code: 'NEEDS_CONFIRMATION' });
    expect(t.core.profiles.get(profile.id)?.validationUrl).toBe(`${other}/v2_validation`);
  });

  it('sends nothing to a stored validation host nobody confirmed', async () => {
    const stored = t.core.profiles.list().find((p) => p.name === 'Origin Shop');
    if (!stored) throw new Error('no profile');
    // As a profiles.json written by hand, or by a Keydesk before the confirmation, would hold it.
    t.core.profiles.upsert({ ...stored, validationOriginConfirmed: undefined });
    const key = await generatedKey();
    const r = await t.call('validation.run', { mode: 'key', keyValue: key, hwid: { custom: 'HW-2' }, confirmActivation: true });
    expect(r).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    expect(!r.ok && r.message).toContain(`another host (localhost:${sandbox.port})`);
    // The key was not activated: no validation reached the service.
    const still = await direct.fetchGenerated(key);
    expect(still.ok && still.data.keys.map((k) => k.status)).toEqual(['generated']);
    t.core.profiles.upsert(stored);
  });

  it('hands back the validation answer alone, cut at the cap with words', async () => {
    const stored = t.core.profiles.list().find((p) => p.name === 'Origin Shop');
    if (!stored) throw new Error('no profile');
    await t.must('profiles.update', { id: stored.id, validationUrl: `${pageOrigin}/v2_validation`, confirmValidationOrigin: pageOrigin });
    const report = await t.must('validation.run', { mode: 'key', keyValue: 'ANY-KEY', hwid: { custom: 'HW-3' }, confirmActivation: true });
    expect(report.raw).not.toContain('SECRET-OF-THE-PAGE');
    expect(report.raw.startsWith('{\n  "V2_Authentication": "success",')).toBe(true);
    const [shown, said] = [report.raw.slice(0, RAW_ANSWER_MAX_CHARS), report.raw.slice(RAW_ANSWER_MAX_CHARS)];
    expect(shown).toMatch(/^\{[\s\S]*n{1000}$/);
    expect(said).toMatch(/^\n… cut: the answer is [\d,]+ characters; the first 16,384 are shown\.$/);
  });
});
