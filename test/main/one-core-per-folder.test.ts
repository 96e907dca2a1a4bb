// One core per data folder: a second start on a folder in use is refused in one sentence naming the folder (to
// app.startup too) and touches nothing there; the first keeps working on its own key. Once it closes, a start succeeds.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { Core } from '../../src/main/core.ts';
import { dispatch } from '../../src/main/ipc/dispatch.ts';
import { MemorySecretStore } from '../../src/main/secrets/secret-store.ts';
import { Startup } from '../../src/main/startup.ts';
import { startTestCore } from '../support/core.ts';

const startOn = (userDataDir: string) => () =>
  Core.start({
    userDataDir,
    secrets: new MemorySecretStore(),
    version: 'second',
    askSavePath: () => Promise.resolve(null),
    sandboxPort: 0,
  });

describe('a second core on a data folder in use', () => {
  it('is refused in words naming the folder, leaving the first one working', async () => {
    const first = await startTestCore();
    try {
      await first.must('keys.generate', { expire: '2099-12-31', count: 1, isPremium: false, note: 'before' });
      const profiles = readFileSync(join(first.userData, 'profiles.json'));
      const words = `Another Keydesk is using ${first.userData}. Close it, or start this one with another data folder.`;

      // A failed start waits on its screen for the user (a new start or a restore): it is read, not awaited.
      const startup = new Startup();
      void startup.run(startOn(first.userData));
      await vi.waitFor(async () => {
        expect(await dispatch(startup.handlers, 'app.startup', undefined)).toMatchObject({
          ok: true,
          data: { state: 'failed', failure: words },
        });
      });

      // Nothing there was touched: the profiles as they were, the sandbox's key not rotated under the first core.
      expect(readFileSync(join(first.userData, 'profiles.json')).equals(profiles)).toBe(true);
      const after = await first.call('keys.generate', { expire: '2099-12-31', count: 1, isPremium: false, note: 'after' });
      expect(after).toMatchObject({ ok: true, data: { generated: { count: 1 } } });
    } finally {
      await first.close();
    }
  });

  it('starts once the first core has closed', async () => {
    const first = await startTestCore();
    await first.close();
    const second = await startOn(first.userData)();
    await second.close();
  });
});
