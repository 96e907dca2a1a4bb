// The start as the window meets it: app.startup answers at once, every other operation waits for the core, and a
// start that fails (keydesk.db refused) says why in words, to app.startup and to every operation waiting, and
// offers the newest backup.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { Core } from '../../src/main/core.ts';
import { dispatch } from '../../src/main/ipc/dispatch.ts';
import { MemorySecretStore } from '../../src/main/secrets/secret-store.ts';
import { Startup } from '../../src/main/startup.ts';
import type { StartupStatus } from '../../src/shared/domain.ts';
import { tempDir } from '../support/temp-dir.ts';

const start = (userDataDir: string) => (restore: string | null) =>
  Core.start({
    userDataDir,
    restore,
    secrets: new MemorySecretStore(),
    version: 'test',
    askSavePath: () => Promise.resolve(null),
    sandboxPort: 0,
  });

describe('the start as the window meets it', () => {
  it('answers app.startup at once, holding the rest until the core is up', async () => {
    const startup = new Startup();
    const heard: StartupStatus[] = [];
    startup.on('app.startup', (s) => heard.push(s));
    expect(await dispatch(startup.handlers, 'app.startup', undefined)).toEqual({ ok: true, data: { state: 'starting', failure: null } });
    const waiting = dispatch(startup.handlers, 'app.status', undefined);
    const core = await startup.run(start(tempDir('keydesk-startup-')));
    try {
      expect(await waiting).toMatchObject({ ok: true, data: { version: 'test' } });
      expect(heard).toEqual([{ state: 'ready', failure: null }]);
      expect(await dispatch(startup.handlers, 'app.startup', undefined)).toEqual({ ok: true, data: { state: 'ready', failure: null } });
    } finally {
      await core.close();
    }
  });

  it('says in words that a pre-release keydesk.db was refused, leaving it intact', async () => {
    const userData = tempDir('keydesk-startup-refused-');
    const file = join(userData, 'keydesk.db');
    const old = new DatabaseSync(file);
    old.exec("PRAGMA user_version = 3; CREATE TABLE ledger (value TEXT); INSERT INTO ledger VALUES ('KD-OLD');");
    old.close();
    const bytes = readFileSync(file);
    const words = 'keydesk.db was made by a pre-release Keydesk (schema 3): move it aside to start fresh.';

    const startup = new Startup();
    const waiting = dispatch(startup.handlers, 'ledger.query', {
      filter: {},
      sort: { field: 'value', dir: 'asc' },
      offset: 0,
      limit: 5,
    });
    void startup.run(start(userData));
    expect(await waiting).toMatchObject({ ok: false, code: 'INTERNAL', message: `Keydesk could not start: ${words}` });
    expect(await dispatch(startup.handlers, 'app.startup', undefined)).toEqual({
      ok: true,
      data: { state: 'failed', failure: words, offer: { backup: null, startAgain: false } },
    });
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });
});
