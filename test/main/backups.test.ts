// keydesk.db's backups: one soon after start when none is a day old, none when a fresh one is there, the last seven
// kept; a restore (Help's, at the next start) puts a backup's rows back, keeps the file it replaces, and ends
// the backup's unfinished jobs; a backup the disk has no room for says so, with the folder and the room needed.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync, type backup } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { Core } from '../../src/main/core.ts';
import { dispatch } from '../../src/main/ipc/dispatch.ts';
import { MemorySecretStore } from '../../src/main/secrets/secret-store.ts';
import { BACKUPS_DIR, BackupSchedule, backUp, listBackups, restoreAtNextStart } from '../../src/main/store/backup.ts';
import { LocalDb } from '../../src/main/store/local-db.ts';
import { Startup } from '../../src/main/startup.ts';
import type { StartupStatus } from '../../src/shared/domain.ts';
import { ledgerKey } from '../../bench/lib/ledger-key.ts';
import { sqliteFull } from '../support/disk-full.ts';
import { tempDir } from '../support/temp-dir.ts';

const DAY = 86_400_000;
const T0 = Date.parse('2026-04-01T09:00:00.000Z');

const coreOn = (
  userDataDir: string,
  backups: NonNullable<Parameters<typeof Core.start>[0]['backups']> = {},
  restore: string | null = null,
) =>
  Core.start({
    userDataDir,
    restore,
    secrets: new MemorySecretStore(),
    version: 'test',
    sandboxPort: 0,
    askSavePath: () => Promise.resolve(null),
    backups,
  });

function record(userData: string, prefix: string, n: number): void {
  const db = new LocalDb(join(userData, 'keydesk.db'));
  db.recordKeys(
    'p',
    Array.from({ length: n }, (_, i) => ledgerKey(`${prefix}-${String(i).padStart(5, '0')}`, {})),
  );
  db.close();
}

describe('backups of keydesk.db', () => {
  it('are made soon after start when none exists, holding the rows', async () => {
    const userData = tempDir('keydesk-backup-start-');
    record(userData, 'KD', 500);
    const core = await coreOn(userData, { firstCheckMs: 0, now: () => T0 });
    try {
      await expect.poll(() => listBackups(userData).map((b) => b.takenAt)).toEqual(['2026-04-01T09:00:00.000Z']);
    } finally {
      await core.close();
    }
    const [made] = listBackups(userData);
    const copy = new DatabaseSync(join(userData, BACKUPS_DIR, made?.name ?? ''), { readOnly: true });
    expect(copy.prepare('SELECT count(*) AS n FROM ledger').get()).toEqual({ n: 500 });
    expect(copy.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'delete' });
    copy.close();
  });

  it('wait until the newest is a day old', async () => {
    const userData = tempDir('keydesk-backup-fresh-');
    record(userData, 'KD', 10);
    await backUp(join(userData, 'keydesk.db'), userData, new Date(T0 - DAY + 60_000));
    let now = T0;
    const core = await coreOn(userData, { firstCheckMs: 3_600_000, now: () => now });
    try {
      expect(await core.backups.check()).toBeNull();
      expect(listBackups(userData)).toHaveLength(1);
      now = T0 + 60_000;
      expect(await core.backups.check()).toMatchObject({ takenAt: '2026-04-01T09:01:00.000Z' });
      expect(listBackups(userData)).toHaveLength(2);
    } finally {
      await core.close();
    }
  });

  it('keep the last seven, a day apart', async () => {
    const userData = tempDir('keydesk-backup-seven-');
    record(userData, 'KD', 10);
    let now = T0;
    const schedule = new BackupSchedule({ file: join(userData, 'keydesk.db'), userDataDir: userData, now: () => now });
    for (let day = 0; day < 10; day++) {
      now = T0 + day * DAY;
      expect(await schedule.check()).not.toBeNull();
      expect(await schedule.check()).toBeNull();
    }
    schedule.stop();
    expect(listBackups(userData).map((b) => b.takenAt.slice(0, 10))).toEqual([
      '2026-04-10',
      '2026-04-09',
      '2026-04-08',
      '2026-04-07',
      '2026-04-06',
      '2026-04-05',
      '2026-04-04',
    ]);
    expect(readdirSync(join(userData, BACKUPS_DIR))).toHaveLength(7);
  });

  it('say a full disk with its folder and leave nothing half made', async () => {
    const userData = tempDir('keydesk-backup-full-');
    record(userData, 'KD', 2_000);
    const full = sqliteFull();
    // Fails as SQLite does on a full disk, part of the copy written.
    const copy = ((_source: DatabaseSync, path: string) => {
      writeFileSync(path, 'half a backup');
      return Promise.reject(full);
    }) as typeof backup;
    const core = await coreOn(userData, { firstCheckMs: 3_600_000, now: () => T0, copy });
    const heard: (string | null)[] = [];
    core.on('backup.changed', ({ problem }) => heard.push(problem));
    try {
      expect(await core.backups.backUpNow()).toBeNull();
      const folder = join(userData, BACKUPS_DIR);
      expect(core.backups.problem).toMatch(
        new RegExp(
          `^Keydesk could not back up keydesk\\.db: the disk holding ${folder.replaceAll(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is full: about \\d+ MB more free space is needed there\\.$`,
        ),
      );
      expect(heard).toEqual([core.backups.problem]);
      expect(readdirSync(folder)).toEqual([]);
    } finally {
      await core.close();
    }
  });
});

describe('restoring a backup', () => {
  it("gives a restored job's Activity entry the counts the restore left", async () => {
    const userData = tempDir('keydesk-restore-audit-');
    record(userData, 'KD', 10);
    const made = await backUp(join(userData, 'keydesk.db'), userData, new Date(T0));
    const db = new DatabaseSync(join(userData, BACKUPS_DIR, made.name));
    db.exec(`INSERT INTO jobs (id, profile_id, action, params, state, created_at, total) VALUES ('j1', 'p', 'extend', '{"days":7}', 'running', '2026-04-01', 3);
      INSERT INTO job_items (job_id, seq, target, size, state) VALUES ('j1', 0, 'KD-00001', 1, 'done'), ('j1', 1, 'KD-00002', 1, 'pending'), ('j1', 2, 'KD-00003', 1, 'sent');
      INSERT INTO audit (at, profile_id, profile_name, action, target, outcome, message, job_id, counts)
        VALUES ('2026-04-01', 'p', 'P', 'extend', '3 keys', 'ok', '', 'j1', '{"pending":1,"sent":1,"done":1,"failed":0,"unknown":0}');`);
    db.close();

    restoreAtNextStart(userData, made.name);
    const core = await coreOn(userData, { firstCheckMs: 3_600_000 });
    try {
      const [entry] = core.db.listAudit({ profileId: 'p' }, 0, 10).entries;
      expect(entry?.outcome).toBe('unknown');
      expect(entry?.message).toMatch(/^Interrupted: Keydesk's records were restored from the backup of 2026-04-01T09:00:00.000Z/);
      expect(entry?.job?.counts).toEqual({ pending: 0, sent: 0, done: 1, failed: 0, unknown: 2 });
    } finally {
      await core.close();
    }
  });

  it('restored from Help return their rows and keep the replaced file', async () => {
    const userData = tempDir('keydesk-restore-help-');
    record(userData, 'KD', 1_200);
    const made = await backUp(join(userData, 'keydesk.db'), userData, new Date(T0));
    record(userData, 'LATE', 300);
    // A job the backup holds half done: after a restore it must not send its items again.
    const db = new DatabaseSync(join(userData, BACKUPS_DIR, made.name));
    db.exec(`INSERT INTO jobs (id, profile_id, action, params, state, created_at, total) VALUES ('j1', 'p', 'extend', '{}', 'running', '2026-04-01', 2);
      INSERT INTO job_items (job_id, seq, target, size, state) VALUES ('j1', 0, 'KD-00001', 1, 'done'), ('j1', 1, 'KD-00002', 1, 'pending');
      INSERT INTO jobs (id, profile_id, action, params, state, created_at, total) VALUES ('j2', 'p', 'delete', '{}', 'cancelled', '2026-04-01', 1);
      INSERT INTO job_items (job_id, seq, target, size, state) VALUES ('j2', 0, 'KD-00003', 1, 'pending');`);
    db.close();

    restoreAtNextStart(userData, made.name);
    const core = await coreOn(userData, { firstCheckMs: 3_600_000 });
    try {
      expect(core.db.ledgerSize('p')).toBe(1_200);
      expect(core.db.job('j1')?.state).toBe('interrupted');
      expect(core.db.job('j1')?.reason).toContain('restored from the backup of 2026-04-01T09:00:00.000Z');
      expect(core.db.jobCounts('j1')).toMatchObject({ done: 1, pending: 0, unknown: 1 });
      expect(core.db.job('j2')?.state).toBe('cancelled');
      expect(core.db.jobCounts('j2')).toMatchObject({ pending: 0, unknown: 1 });
    } finally {
      await core.close();
    }
    const replaced = readdirSync(userData).filter((n) => /^keydesk-replaced-.+\.db$/.test(n));
    expect(replaced).toHaveLength(1);
    const old = new DatabaseSync(join(userData, replaced[0] ?? ''), { readOnly: true });
    expect(old.prepare('SELECT count(*) AS n FROM ledger').get()).toEqual({ n: 1_500 });
    old.close();
    // Asked once: the start after does not restore again.
    expect(existsSync(join(userData, BACKUPS_DIR, 'restore-at-next-start'))).toBe(false);
  });

  it('from a start that refused keydesk.db replaces it, keeping it aside', async () => {
    const userData = tempDir('keydesk-restore-refused-');
    record(userData, 'KD', 40);
    const made = await backUp(join(userData, 'keydesk.db'), userData, new Date(T0));
    const db = new DatabaseSync(join(userData, 'keydesk.db'));
    db.exec('PRAGMA user_version = 999');
    db.close();

    const startup = new Startup();
    const failed = new Promise<StartupStatus>((resolve) => startup.on('app.startup', (s) => s.state === 'failed' && resolve(s)));
    const started = startup.run((restore) => coreOn(userData, { firstCheckMs: 3_600_000 }, restore));
    expect((await failed).offer).toEqual({ backup: { name: made.name, takenAt: '2026-04-01T09:00:00.000Z' }, startAgain: false });
    expect(await dispatch(startup.handlers, 'app.startAgain', { restore: made.name })).toEqual({ ok: true, data: null });
    const core = await started;
    try {
      expect(core.db.ledgerSize('p')).toBe(40);
    } finally {
      await core.close();
    }
    const [aside] = readdirSync(userData).filter((n) => /^keydesk-replaced-.+\.db$/.test(n));
    const kept = new DatabaseSync(join(userData, aside ?? ''), { readOnly: true });
    expect(kept.prepare('PRAGMA user_version').get()).toEqual({ user_version: 999 });
    kept.close();
  });
});
