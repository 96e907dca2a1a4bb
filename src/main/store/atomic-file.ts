// Writes a small file atomically: a temporary file beside it, flushed to disk, then renamed over it, so a crash
// leaves the old file or the new, never half of one.
import { randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Replaces `path` with `text`; a failed write (disk full, a read-only folder) throws and leaves no temporary file. */
export function writeFileAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${randomUUID()}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    try {
      writeFileSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (error) {
    rmSync(tmp, { force: true });
    // Named, so a full disk's words can say where (failures.ts); a write by descriptor carries no path.
    if (typeof error === 'object' && error !== null && !('path' in error)) Object.assign(error, { path: tmp });
    throw error;
  }
  syncDirectory(dirname(path));
}

/** The rename itself is durable only once the directory is flushed (POSIX); Windows has no such call. */
function syncDirectory(dir: string): void {
  if (process.platform === 'win32') return;
  let fd: number | null = null;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // A filesystem that cannot flush a directory still has the renamed file.
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
