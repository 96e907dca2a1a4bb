// Damage said as damage at start: a keydesk.db or sandbox.db with garbage pages, or emptied to 0 bytes, is refused
// in words, moved aside (kept, byte for byte), and the start offers the newest backup or a new start.
import { closeSync, existsSync, openSync, readdirSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { Core } from '../../src/main/core.ts';
import { createHandlers } from '../../src/main/handlers/index.ts';
import { dispatch } from '../../src/main/ipc/dispatch.ts';
import { MemorySecretStore } from '../../src/main/secrets/secret-store.ts';
import { backUp } from '../../src/main/store/backup.ts';
import { LocalDb } from '../../src/main/store/local-db.ts';
import { Startup } from '../../src/main/startup.ts';
import type { StartupStatus } from '../../src/shared/domain.ts';
import { ledgerKey } from '../../bench/lib/ledger-key.ts';
import { tempDir } from '../support/temp-dir.ts';

const startCore = (userDataDir: string) => (restore: string | null) =>
  Core.start({
    userDataDir,
    restore,
    secrets: new MemorySecretStore(),
    version: 'test',
    askSavePath: () => Promise.resolve(null),
    sandboxPort: 0,
  });

/** A keydesk.db of `n` keys for profile 'p', written and closed (its WAL folded in). */
function ledgerOf(userData: string, n: number, prefix = 'KD'): void {
  const db = new LocalDb(join(userData, 'keydesk.db'));
  db.recordKeys(
    'p',
    Array.from({ length: n }, (_, i) => ledgerKey(`${prefix}-${String(i).padStart(6, '0')}`, { note: `customer ${i}` })),
  );
  db.close();
}

/** Overwrites three pages in the middle of `file` with garbage, as a failing disk or a stray write would. */
function damagePages(file: string): void {
  const size = statSync(file).size;
  const page = 4096;
  const at = Math.floor(size / page / 2) * page;
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(3 * page, 0xa5), 0, 3 * page, at);
  closeSync(fd);
}

/** Runs a start: its first verdict (ready or failed), and the core it resolves once one is up. */
async function firstVerdict(startup: Startup, userData: string): Promise<{ status: StartupStatus; core: Promise<Core> }> {
  const verdict = new Promise<StartupStatus>((resolve) => {
    const off = startup.on('app.startup', (s) => {
      if (s.state === 'starting') return;
      off();
      resolve(s);
    });
  });
  const core = startup.run(startCore(userData));
  return { status: await verdict, core };
}

const asideNamed = (userData: string, stem: string): string[] =>
  readdirSync(userData).filter((n) => n.startsWith(`${stem}-damaged-`) && n.endsWith('.db'));

describe('a damaged keydesk.db at start', () => {
  it('is refused, moved aside intact, and restored from its newest backup', async () => {
    const userData = tempDir('keydesk-damaged-ledger-');
    ledgerOf(userData, 3_000);
    const backup = await backUp(join(userData, 'keydesk.db'), userData, new Date('2026-03-01T10:00:00.000Z'));
    ledgerOf(userData, 10, 'LATE');
    const file = join(userData, 'keydesk.db');
    damagePages(file);
    const damaged = readFileSync(file);

    const startup = new Startup();
    const { status, core: started } = await firstVerdict(startup, userData);
    expect(status.state).toBe('failed');
    expect(status.failure).toMatch(
      /^keydesk\.db, Keydesk's record of your keys, is damaged: SQLite found damaged pages in it\. It was moved aside as keydesk-damaged-.+\.db in /,
    );
    expect(status.offer).toEqual({ backup: { name: backup.name, takenAt: '2026-03-01T10:00:00.000Z' }, startAgain: true });
    const [aside] = asideNamed(userData, 'keydesk');
    expect(readFileSync(join(userData, aside ?? '')).equals(damaged)).toBe(true);
    expect(existsSync(file)).toBe(false);

    expect(await dispatch(startup.handlers, 'app.startAgain', { restore: backup.name })).toEqual({ ok: true, data: null });
    const core = await started;
    try {
      expect(await dispatch(startup.handlers, 'app.startup', undefined)).toEqual({ ok: true, data: { state: 'ready', failure: null } });
      expect(core.db.ledgerSize('p')).toBe(3_000);
    } finally {
      await core.close();
    }
  });

  it('of 0 bytes is refused and kept; a new start is empty', async () => {
    const userData = tempDir('keydesk-empty-ledger-');
    writeFileSync(join(userData, 'keydesk.db'), '');
    const startup = new Startup();
    const { status, core } = await firstVerdict(startup, userData);
    expect(status.failure).toContain('is damaged: it is empty (0 bytes). It was moved aside as keydesk-damaged-');
    expect(status.offer).toEqual({ backup: null, startAgain: true });
    expect(asideNamed(userData, 'keydesk').map((n) => statSync(join(userData, n)).size)).toEqual([0]);

    await dispatch(startup.handlers, 'app.startAgain', { restore: null });
    const started = await core;
    try {
      expect(started.db.ledgerSize('p')).toBe(0);
    } finally {
      await started.close();
    }
  });

  it('that is not a SQLite file is refused as such', async () => {
    const userData = tempDir('keydesk-notdb-ledger-');
    writeFileSync(join(userData, 'keydesk.db'), 'x'.repeat(10_000));
    const { status } = await firstVerdict(new Startup(), userData);
    expect(status.failure).toContain('is damaged: it is not a SQLite database.');
  });
});

describe('a damaged sandbox.db at start', () => {
  /** A data folder whose sandbox.db holds a service with many keys, after one clean start and close. */
  async function withSandbox(): Promise<string> {
    const userData = tempDir('keydesk-damaged-sandbox-');
    const core = await startCore(userData)(null);
    const handlers = createHandlers(core);
    for (let i = 0; i < 3; i++) {
      const r = await dispatch(handlers, 'keys.generate', { expire: '2099-12-31', count: 2_000, isPremium: false, note: 'fill' });
      expect(r.ok).toBe(true);
    }
    await core.close();
    return userData;
  }

  it('says the sandbox database is damaged, never that a key is missing', async () => {
    const userData = await withSandbox();
    damagePages(join(userData, 'sandbox.db'));
    const startup = new Startup();
    const { status, core } = await firstVerdict(startup, userData);
    expect(status.state).toBe('failed');
    expect(status.failure).toMatch(
      /^The local sandbox's database, sandbox\.db, is damaged: .+\. It was moved aside as sandbox-damaged-.+\.db; /,
    );
    expect(status.failure).not.toMatch(/API key/);
    expect(status.offer).toEqual({ backup: null, startAgain: true });
    const waiting = await dispatch(startup.handlers, 'keys.lookup', { term: 'KD-NONE' });
    expect(waiting.ok).toBe(false);
    expect(!waiting.ok && waiting.message).toContain('sandbox.db, is damaged');

    await dispatch(startup.handlers, 'app.startAgain', { restore: null });
    const started = await core;
    try {
      expect(started.sandboxState()).toMatchObject({ running: true, error: null });
    } finally {
      await started.close();
    }
  });

  it('emptied to 0 bytes is refused as empty', async () => {
    const userData = await withSandbox();
    writeFileSync(join(userData, 'sandbox.db'), '');
    const { status } = await firstVerdict(new Startup(), userData);
    expect(status.failure).toContain("The local sandbox's database, sandbox.db, is damaged: it is empty (0 bytes).");
    expect(asideNamed(userData, 'sandbox')).toHaveLength(1);
  });

  it('that cannot be opened says why the sandbox is down', async () => {
    const userData = await withSandbox();
    // Whole, but of a schema no Keydesk writes: the sandbox's store refuses it.
    const db = new DatabaseSync(join(userData, 'sandbox.db'));
    db.exec('PRAGMA user_version = 999');
    db.close();
    const core = await startCore(userData)(null);
    try {
      expect(core.sandboxState().running).toBe(false);
      const r = await dispatch(createHandlers(core), 'keys.lookup', { term: 'KD-NONE' });
      expect(!r.ok && r.message).toContain('The local sandbox could not start');
      expect(JSON.stringify(r)).not.toMatch(/No API key/);
    } finally {
      await core.close();
    }
  });
});
