// One Keydesk per data folder: a lock file taken before anything in the folder is opened. Two cores on one folder
// would resume each other's jobs (keys extended twice) and overwrite each other's profiles.
import { createHash, randomUUID } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const LOCK_FILE = 'keydesk.lock';

/** A lock's content: the holding process, its start (told apart from a later process given the same pid), one take. */
interface Holder {
  pid: number;
  start: string | null;
  token: string;
}

const held = new Set<FolderLock>();

export class FolderLock {
  private readonly file: string;
  private readonly mine: string;

  private constructor(file: string, mine: string) {
    this.file = file;
    this.mine = mine;
  }

  /** Takes `dir`'s lock; throws in words when a running Keydesk holds it. A dead holder's lock is taken over. */
  static take(dir: string): FolderLock {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, LOCK_FILE);
    const holder: Holder = { pid: process.pid, start: startOf(process.pid), token: randomUUID() };
    const mine = JSON.stringify(holder);
    // Each turn takes the lock, finds it held, or clears a dead holder's; a start racing this one may cost a turn.
    for (let turn = 0; turn < 5; turn++) {
      if (create(file, mine)) {
        if (held.size === 0) process.once('exit', releaseAll);
        const lock = new FolderLock(file, mine);
        held.add(lock);
        return lock;
      }
      const seen = contentOf(file);
      if (seen === null) continue;
      if (runs(seen)) break;
      takeOver(file, seen, mine);
    }
    throw new Error(`Another Keydesk is using ${dir}. Close it, or start this one with another data folder.`);
  }

  release(): void {
    if (!held.delete(this)) return;
    if (held.size === 0) process.off('exit', releaseAll);
    try {
      // Only our own: a start that took this lock over (this process thought gone) keeps its own.
      if (contentOf(this.file) === this.mine) rmSync(this.file, { force: true });
    } catch (error) {
      console.error(`keydesk: the lock ${this.file} could not be removed:`, error);
    }
  }
}

function releaseAll(): void {
  for (const lock of held) lock.release();
}

/**
 * Removes the dead holder's lock `seen` from `file`, unless another start does first: only the start holding the
 * claim named after `seen` removes it, and only while the file still holds `seen`, so a fresh lock is never removed.
 */
export function takeOver(file: string, seen: string, mine: string): void {
  const claim = `${file}.${createHash('sha256').update(seen).digest('hex').slice(0, 16)}`;
  if (!create(claim, mine)) {
    // Another start is clearing it now; or it died doing so, and its claim is cleared the same way.
    const claimer = contentOf(claim);
    if (claimer !== null && !runs(claimer)) takeOver(claim, claimer, mine);
    return;
  }
  try {
    if (contentOf(file) === seen) rmSync(file, { force: true });
  } finally {
    rmSync(claim, { force: true });
  }
}

/** Creates `file` holding `content`, or answers false when it exists. Linked from a full file: never seen half-written. */
function create(file: string, content: string): boolean {
  const temp = `${file}.${randomUUID()}.tmp`;
  writeFileSync(temp, content);
  try {
    linkSync(temp, file);
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    // No hard links on this file system (FAT): created in place.
    try {
      writeFileSync(file, content, { flag: 'wx' });
      return true;
    } catch (inPlace) {
      if (errorCode(inPlace) === 'EEXIST') return false;
      throw inPlace;
    }
  } finally {
    rmSync(temp, { force: true });
  }
}

function contentOf(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}

/** Whether a lock's holder still runs: its pid is there and, where the OS tells a process's start, it is that process. */
function runs(content: string): boolean {
  let holder: Partial<Holder>;
  try {
    holder = JSON.parse(content) as Partial<Holder>;
  } catch {
    return false;
  }
  const { pid, start } = holder;
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it runs, as another user.
    if (errorCode(error) !== 'EPERM') return false;
  }
  const now = startOf(pid);
  return typeof start !== 'string' || now === null || now === start;
}

/** A process's start on Linux (boot and clock ticks, from /proc); null elsewhere, where the pid alone decides. */
function startOf(pid: number): string | null {
  if (process.platform !== 'linux') return null;
  try {
    const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // A zombie has exited; its parent has not collected it yet.
    if (fields[0] === 'Z') return 'exited';
    return `${readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()} ${fields[19] ?? ''}`;
  } catch {
    return null;
  }
}

function errorCode(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}
