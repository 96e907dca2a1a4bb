// The data folder's lock: one holder at a time, refused in words naming the folder; a lock whose process is gone (or
// whose pid now names a later process) is taken over, and a start clearing a stale lock late never removes a fresh one.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { FolderLock, LOCK_FILE, takeOver } from '../../src/main/folder-lock.ts';
import { ROOT } from '../support/sandbox-process.ts';
import { tempDir } from '../support/temp-dir.ts';

const refusal = (dir: string) => `Another Keydesk is using ${dir}. Close it, or start this one with another data folder.`;
/** A pid no process has now: a child that has exited and been collected. */
const deadPid = (): number => spawnSync(process.execPath, ['-e', '']).pid;
const holder = (pid: number, start: string | null = null) => JSON.stringify({ pid, start, token: 'left-behind' });

/** A folder holding a lock by `content`, as a Keydesk that stopped without removing it would leave. */
function folderLockedBy(content: string): { dir: string; file: string } {
  const dir = tempDir('keydesk-lock-');
  const file = join(dir, LOCK_FILE);
  writeFileSync(file, content);
  return { dir, file };
}

describe('the data folder lock', () => {
  it('refuses a second take of a held folder, naming the folder', () => {
    const dir = tempDir('keydesk-lock-');
    const lock = FolderLock.take(dir);
    try {
      expect(() => FolderLock.take(dir)).toThrow(refusal(dir));
    } finally {
      lock.release();
    }
  });

  it('frees the folder on release, leaving no file behind', () => {
    const dir = tempDir('keydesk-lock-');
    FolderLock.take(dir).release();
    expect(readdirSync(dir)).toEqual([]);
    FolderLock.take(dir).release();
  });

  it('takes over a lock whose process is not running', () => {
    const stale = holder(deadPid());
    const { dir, file } = folderLockedBy(stale);
    const lock = FolderLock.take(dir);
    try {
      expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ pid: process.pid });
      expect(readdirSync(dir)).toEqual([LOCK_FILE]);
    } finally {
      lock.release();
    }
  });

  it.runIf(process.platform === 'linux')('takes over a lock whose pid now names a later process', () => {
    const { dir, file } = folderLockedBy(holder(process.pid, 'an earlier boot 12345'));
    const lock = FolderLock.take(dir);
    try {
      expect(JSON.parse(readFileSync(file, 'utf8'))).not.toMatchObject({ start: 'an earlier boot 12345' });
    } finally {
      lock.release();
    }
  });

  it('takes over a lock file that names no holder', () => {
    const { dir } = folderLockedBy('');
    FolderLock.take(dir).release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('keeps the new lock when a late start clears the stale one', () => {
    const stale = holder(deadPid());
    const { dir, file } = folderLockedBy(stale);
    const lock = FolderLock.take(dir);
    try {
      const fresh = readFileSync(file, 'utf8');
      // Another start read the stale lock before this one took it over, and clears it only now.
      takeOver(file, stale, holder(process.pid));
      expect(readFileSync(file, 'utf8')).toBe(fresh);
      expect(() => FolderLock.take(dir)).toThrow(refusal(dir));
      expect(readdirSync(dir)).toEqual([LOCK_FILE]);
    } finally {
      lock.release();
    }
  });

  it('ignores a claim left by a start that died clearing it', () => {
    const stale = holder(deadPid());
    const { dir, file } = folderLockedBy(stale);
    writeFileSync(`${file}.${createHash('sha256').update(stale).digest('hex').slice(0, 16)}`, holder(deadPid()));
    FolderLock.take(dir).release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('leaves in place a lock another start took over', () => {
    const dir = tempDir('keydesk-lock-');
    const file = join(dir, LOCK_FILE);
    const lock = FolderLock.take(dir);
    writeFileSync(file, holder(process.pid, 'the start that took it over'));
    lock.release();
    expect(readFileSync(file, 'utf8')).toBe(holder(process.pid, 'the start that took it over'));
  });

  it('refuses a folder another process holds, until its exit removes the lock', async () => {
    const dir = tempDir('keydesk-lock-');
    // Takes the lock, says so, and holds it until its stdin ends; then exits without releasing it itself.
    const script = `
      import { writeSync } from 'node:fs';
      import { FolderLock } from ${JSON.stringify(join(ROOT, 'src/main/folder-lock.ts'))};
      FolderLock.take(${JSON.stringify(dir)});
      writeSync(1, 'held\\n');
      process.stdin.on('data', () => undefined).on('end', () => process.exit(0));`;
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', '--input-type=module', '-e', script], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const first = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
    expect(first.value).toBe('held');
    expect(() => FolderLock.take(dir)).toThrow(refusal(dir));
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
    FolderLock.take(dir).release();
  });
});
