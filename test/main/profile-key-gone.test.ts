// Keys kept for this session only (no keychain) are gone after a restart: Profiles must not still list the key's
// hint as stored, or offer to keep it, while Overview and Jobs say no apiKey is stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestCore, type TestCore } from '../support/core.ts';
import { startRemoteSandbox, type RemoteSandbox } from '../support/remote-sandbox.ts';
import { tempDir } from '../support/temp-dir.ts';

let remote: RemoteSandbox;
let restarted: TestCore;
let id: string;
beforeAll(async () => {
  remote = await startRemoteSandbox({ name: 'Two', identifier: 'two' });
  const userDataDir = tempDir('keydesk-userdata-');
  const first = await startTestCore({ userDataDir });
  id = (await first.must('profiles.add', { name: 'Two', baseUrl: remote.url, apiKey: remote.apiKey })).id;
  const listed = (await first.must('profiles.list')).profiles.find((p) => p.id === id);
  expect(listed).toMatchObject({ hasKey: true, keyHint: `…${remote.apiKey.slice(-4)}`, storage: 'session-only' });
  await first.close();
  // The same userData, a new session-only store: as after quitting and starting Keydesk again with no keychain.
  restarted = await startTestCore({ userDataDir });
});
afterAll(async () => {
  await restarted.close();
  await remote.close();
});

describe('a remote profile whose session-only apiKey is gone after a restart', () => {
  it("is listed with no key, not with its old key's hint", async () => {
    const listed = (await restarted.must('profiles.list')).profiles.find((p) => p.id === id);
    expect(listed).toMatchObject({ name: 'Two', hasKey: false, keyHint: null, storage: 'session-only' });
  });

  it('is listed with its key again once the key is entered again', async () => {
    await restarted.must('profiles.update', { id, apiKey: remote.apiKey });
    const listed = (await restarted.must('profiles.list')).profiles.find((p) => p.id === id);
    expect(listed).toMatchObject({ hasKey: true, keyHint: `…${remote.apiKey.slice(-4)}` });
  });
});
