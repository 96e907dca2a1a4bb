// A full disk is said as a full disk, naming the folder where it is known: a ledger write and a job's write
// (SQLite's own SQLITE_FULL, from a connection allowed no more pages), a profiles.json write and an export
// (ENOSPC, injected at the file system), and the sandbox's database. Never "internal error" or "a bug".
import type * as Fs from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { exportFailure, unexpectedFailure } from '../../src/main/failures.ts';
import { dispatch } from '../../src/main/ipc/dispatch.ts';
import { JobCommands } from '../../src/main/store/writer-commands.ts';
import { failureWords } from '../../src/main/store/writer-words.ts';
import { SandboxStore } from '../../src/sandbox/store.ts';
import { startSandboxServer } from '../../src/sandbox/server.ts';
import { qs, send } from '../support/http.ts';
import { startTestCore } from '../support/core.ts';
import { sqliteFull } from '../support/disk-full.ts';
import { tempDir } from '../support/temp-dir.ts';

const fsFails = vi.hoisted(() => ({ on: false }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof Fs>();
  const writeFileSync: typeof fs.writeFileSync = (...args) => {
    if (fsFails.on)
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
    fs.writeFileSync(...args);
  };
  return { ...fs, default: { ...fs, writeFileSync }, writeFileSync };
});

describe('a full disk', () => {
  it('in a ledger write names the folder of keydesk.db', () => {
    const full = sqliteFull();
    expect(full.errcode & 0xff).toBe(13);
    const words = failureWords({ payload: { kind: 'keys' }, size: 20, failed: 20, firstError: full.errcode }, '/data/Keydesk');
    expect(words).toBe(
      '20 keys could not be recorded in the ledger: the disk holding /data/Keydesk is full. The service has them: look them up in Keys to bring them into the ledger.',
    );
  });

  it("in a job's write names a full disk and its folder", async () => {
    const commands = new JobCommands('/data/Keydesk/keydesk.db');
    const refused = commands.post(
      () => undefined,
      (command) => ({ command, kind: 'ceiling', profileId: 'p', ceiling: 1 }),
    );
    const full = sqliteFull();
    commands.answer({ command: 1, ok: false, message: full.message, errcode: full.errcode });
    const error = await refused.catch((e: unknown) => e);
    expect(unexpectedFailure("recording this job's answers", error).message).toBe(
      "Keydesk could not finish recording this job's answers: the disk holding /data/Keydesk is full. Free some space and try again.",
    );
  });

  it('in a profiles.json write says so with the folder', async () => {
    const t = await startTestCore();
    try {
      fsFails.on = true;
      const r = await dispatch(t.handlers, 'profiles.select', { id: 'sandbox' });
      fsFails.on = false;
      expect(r).toMatchObject({
        ok: false,
        message: `Keydesk could not finish “Switch service”: the disk holding ${t.userData} is full. Free some space and try again.`,
      });
      expect(JSON.stringify(r)).not.toMatch(/internal error|report it/);
    } finally {
      fsFails.on = false;
      await t.close();
    }
  });

  it('in an export names the folder chosen', () => {
    const error = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    const path = join(tempDir('keydesk-export-full-'), 'keys.csv');
    expect(exportFailure(error, path).message).toBe(
      `The export could not be written: the disk holding ${dirname(path)} is full. Choose another place and try again.`,
    );
  });

  it("in the sandbox's database is a full disk, not a bug", async () => {
    const store = new SandboxStore(join(tempDir('keydesk-sandbox-full-'), 'sandbox.db'));
    const { apiKey } = store.createService('Full', 'full');
    const sandbox = await startSandboxServer({ store, onInternalError: () => undefined });
    try {
      const pages = Number(store.inspect('PRAGMA page_count')[0]?.page_count);
      store.db.exec(`PRAGMA max_page_count = ${String(pages + 2)}`);
      const r = await send(sandbox.url, {
        path: `/api/generate-key/get?${qs({ apiKey, expire: '2099-12-31', count: 5_000, isPremium: false, note: 'full' })}`,
      });
      expect(r.status).toBe(500);
      expect(r.json.message).toBe('The sandbox could not save this: the disk holding its database is full. Free some space and try again.');
    } finally {
      await sandbox.close();
      store.close();
    }
  });
});
