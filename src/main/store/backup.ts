// keydesk.db's backups in <user data>/backups: SQLite's online backup, off main's thread, within a minute of
// start when the newest is a day old (or there is none), then daily; the last seven kept. A restore is applied
// at a start, before anything opens keydesk.db.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { backup, DatabaseSync } from 'node:sqlite';
import type { BackupInfo, JobState } from '../../shared/domain.ts';
import { diskFullWords, isDiskFull } from '../failures.ts';
import { damageOf, fileStamp, setAside } from './integrity.ts';
import { jobEndAudit, jobItemCounts } from './job-audit.ts';

export const BACKUPS_DIR = 'backups';
export const BACKUPS_KEPT = 7;
const DAY_MS = 86_400_000;
/** Written by Help › Restore: the backup the next start puts in place. */
const RESTORE_MARKER = 'restore-at-next-start';
const NAME = /^keydesk-(\d{4}-\d\d-\d\dT\d\d)-(\d\d)-(\d\d\.\d{3}Z)\.db$/;
/**
 * The whole file in one step, run on node's thread pool so main is not held: a backup in many steps starts over
 * each time the writer thread commits between them, and may never end (docs/design/local-store.md).
 */
const PAGES_PER_STEP = 2_147_483_647;

/** keydesk.db's backups, newest first. */
export function listBackups(userDataDir: string): BackupInfo[] {
  let names: string[];
  try {
    names = readdirSync(join(userDataDir, BACKUPS_DIR));
  } catch {
    return [];
  }
  return names
    .flatMap((name) => {
      const m = NAME.exec(name);
      return m ? [{ name, takenAt: `${m[1] ?? ''}:${m[2] ?? ''}:${m[3] ?? ''}` }] : [];
    })
    .sort((a, b) => (a.takenAt < b.takenAt ? 1 : -1));
}

/** Copies keydesk.db at `file` into a new backup taken `at`, then keeps the newest BACKUPS_KEPT. */
export async function backUp(file: string, userDataDir: string, at: Date, copy: typeof backup = backup): Promise<BackupInfo> {
  const dir = join(userDataDir, BACKUPS_DIR);
  mkdirSync(dir, { recursive: true });
  for (const left of readdirSync(dir)) if (left.endsWith('.partial')) removeDb(join(dir, left));
  const name = `keydesk-${fileStamp(at)}.db`;
  // Named apart until whole: a backup cut short is never listed.
  const partial = join(dir, `${name}.partial`);
  const source = new DatabaseSync(file, { readOnly: true });
  try {
    await copy(source, partial, { rate: PAGES_PER_STEP });
    // One self-contained file (no -wal beside it once opened), to copy or restore as it is.
    const made = new DatabaseSync(partial);
    made.exec('PRAGMA journal_mode = DELETE');
    made.close();
    renameSync(partial, join(dir, name));
  } catch (error) {
    removeDb(partial);
    throw error;
  } finally {
    source.close();
  }
  for (const old of listBackups(userDataDir).slice(BACKUPS_KEPT)) removeDb(join(dir, old.name));
  return { name, takenAt: at.toISOString() };
}

const removeDb = (path: string): void => {
  for (const part of ['', '-wal', '-shm', '-journal']) rmSync(`${path}${part}`, { force: true });
};

/** Why a backup failed, in words: a full disk names the folder and the room a backup of keydesk.db needs. */
export function backupFailureWords(error: unknown, file: string, userDataDir: string): string {
  if (!isDiskFull(error)) return "Keydesk could not back up keydesk.db. The reason is in Keydesk's log.";
  const size = (part: string): number => (existsSync(`${file}${part}`) ? statSync(`${file}${part}`).size : 0);
  return `Keydesk could not back up keydesk.db: ${diskFullWords(join(userDataDir, BACKUPS_DIR), size('') + size('-wal'))}.`;
}

export interface BackupScheduleOptions {
  /** keydesk.db. */
  file: string;
  userDataDir: string;
  now?: () => number;
  /** How long after start the first look is (default 30 s), then how often (default hourly). */
  firstCheckMs?: number;
  checkEveryMs?: number;
  /** Tests: a copy that fails as a full disk would. */
  copy?: typeof backup;
  /** Told after each try: why it failed, in words, or null when the backup was made. */
  onOutcome?: (problem: string | null) => void;
}

/** Backs keydesk.db up when the newest backup is a day old, looking soon after start and then hourly. */
export class BackupSchedule {
  /** Why the last backup failed, in words; null once one succeeds. */
  problem: string | null = null;
  private readonly options: BackupScheduleOptions;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<BackupInfo | null> | null = null;
  private stopped = false;

  constructor(options: BackupScheduleOptions) {
    this.options = options;
  }

  start(): void {
    this.arm(this.options.firstCheckMs ?? 30_000);
  }

  private arm(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.check().finally(() => {
        this.arm(this.options.checkEveryMs ?? 3_600_000);
      });
    }, ms);
    this.timer.unref();
  }

  /** Makes a backup when none is younger than a day (or the newest is dated ahead of the clock); null when none was due. */
  check(): Promise<BackupInfo | null> {
    const newest = listBackups(this.options.userDataDir)[0];
    const age = this.now() - (newest ? Date.parse(newest.takenAt) : Number.NEGATIVE_INFINITY);
    return age >= 0 && age < DAY_MS ? Promise.resolve(null) : this.backUpNow();
  }

  /** Makes a backup now (one at a time); resolves it, or null when it failed (`problem` says why). */
  backUpNow(): Promise<BackupInfo | null> {
    if (this.running) return this.running;
    if (this.stopped) return Promise.resolve(null);
    const { file, userDataDir, copy } = this.options;
    const run = backUp(file, userDataDir, new Date(this.now()), copy).then(
      (made) => {
        this.problem = null;
        this.options.onOutcome?.(null);
        return made;
      },
      (error: unknown) => {
        console.error('keydesk: the backup of keydesk.db failed:', error);
        this.problem = backupFailureWords(error, file, userDataDir);
        this.options.onOutcome?.(this.problem);
        return null;
      },
    );
    this.running = run;
    void run.finally(() => {
      if (this.running === run) this.running = null;
    });
    return run;
  }

  /** No more backups. One under way is not waited for: quitting cuts it short, and the next backup clears what it left. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}

/** A backup that cannot be put in place, in words: not there, or damaged itself. */
export class RestoreRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefused';
  }
}

/** Help › Restore: the next start replaces keydesk.db with backup `name` (the running Keydesk holds the file now). */
export function restoreAtNextStart(userDataDir: string, name: string): void {
  writeFileSync(join(userDataDir, BACKUPS_DIR, RESTORE_MARKER), name);
}

/** The backup Help › Restore asked for, taken off the list: it is applied once. */
export function takeRestoreRequest(userDataDir: string): string | null {
  const marker = join(userDataDir, BACKUPS_DIR, RESTORE_MARKER);
  if (!existsSync(marker)) return null;
  const name = readFileSync(marker, 'utf8').trim();
  rmSync(marker);
  return name;
}

/**
 * Puts backup `name` in place of keydesk.db (kept beside it as keydesk-replaced-<time>.db), before anything opens
 * it. The backup's open job items become unknown: what was sent after it was taken is not known, so a resume must
 * not send it again. Returns the words for what was done.
 */
export function restoreBackup(userDataDir: string, name: string, at: Date): string {
  const backupInfo = listBackups(userDataDir).find((b) => b.name === name);
  if (!backupInfo) throw new RestoreRefused(`it is not in ${join(userDataDir, BACKUPS_DIR)}`);
  const source = join(userDataDir, BACKUPS_DIR, name);
  const damage = damageOf(source);
  if (damage !== null) throw new RestoreRefused(`it is damaged too (${damage})`);
  const file = join(userDataDir, 'keydesk.db');
  const restoring = `${file}.restoring`;
  removeDb(restoring);
  try {
    copyFileSync(source, restoring);
    endOpenJobs(restoring, `Keydesk's records were restored from the backup of ${backupInfo.takenAt}`, at);
  } catch (error) {
    removeDb(restoring);
    throw error;
  }
  const aside = existsSync(file) ? setAside(file, 'replaced', at) : null;
  renameSync(restoring, file);
  return `keydesk.db was restored from the backup of ${backupInfo.takenAt}${aside === null ? '' : `; the file it replaced is kept as ${aside}`}.`;
}

/** The copy's open job items made unknown, and its running jobs interrupted, saying why (`why`). */
function endOpenJobs(file: string, why: string, at: Date): void {
  const reason = `${why}: what this job sent after that is not known here, so its items left are unknown. Check them before sending them again.`;
  const db = new DatabaseSync(file);
  try {
    // Jobs first, while their open items still say which they are.
    const open = "state = 'running' OR id IN (SELECT job_id FROM job_items WHERE state IN ('pending', 'sent'))";
    const ended = db.prepare(`SELECT id FROM jobs WHERE ${open}`).all() as { id: string }[];
    db.prepare(
      `UPDATE jobs SET state = CASE state WHEN 'running' THEN 'interrupted' ELSE state END, reason = ?1,
         finished_at = coalesce(finished_at, ?2) WHERE ${open}`,
    ).run(reason, at.toISOString());
    db.prepare("UPDATE job_items SET state = 'unknown', message = ?1 WHERE state IN ('pending', 'sent')").run(reason);
    // Their Activity entries say the counts and end the restore left (an older backup has none until migrated).
    if (db.prepare("SELECT 1 FROM pragma_table_info('audit') WHERE name = 'job_id'").get() === undefined) return;
    const setAudit = db.prepare('UPDATE audit SET outcome = ?, message = ?, counts = ? WHERE job_id = ?');
    for (const { id } of ended) {
      const { state } = db.prepare('SELECT state FROM jobs WHERE id = ?').get(id) as { state: JobState };
      const audit = jobEndAudit(
        state,
        reason,
        jobItemCounts((sql) => db.prepare(sql), id),
      );
      setAudit.run(audit.outcome, audit.message, JSON.stringify(audit.counts), id);
    }
  } finally {
    db.close();
  }
}
