// Whether a SQLite file Keydesk keeps (keydesk.db, sandbox.db) is whole, checked before anything opens it at
// start; a damaged one is moved aside under a new name with the time, never deleted.
import { closeSync, existsSync, openSync, readSync, renameSync, statSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

const HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** A time as it goes in a file name: ISO 8601 without colons (Windows refuses them). */
export const fileStamp = (at: Date): string => at.toISOString().replaceAll(':', '-');

/** Why `file` is damaged, in words ("it is empty (0 bytes)"); null when it is whole, or absent (a new one is made). */
export function damageOf(file: string): string | null {
  let size: number;
  try {
    size = statSync(file).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (size === 0) return 'it is empty (0 bytes)';
  const head = Buffer.alloc(HEADER.length);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (!head.equals(HEADER)) return 'it is not a SQLite database';
  let db: DatabaseSync | null = null;
  try {
    db = new DatabaseSync(file, { readOnly: true });
    // quick_check reads every page and index entry's shape (not its contents against the table): see the design page.
    const rows = db.prepare('PRAGMA quick_check').all() as { quick_check: string }[];
    if (rows.length === 1 && rows[0]?.quick_check === 'ok') return null;
    console.error(
      `keydesk: ${file} failed SQLite's quick_check:`,
      rows.slice(0, 10).map((r) => r.quick_check),
    );
    return 'SQLite found damaged pages in it';
  } catch (error) {
    const errcode = (error as { errcode?: unknown }).errcode;
    if (typeof errcode !== 'number' || ((errcode & 0xff) !== 11 && (errcode & 0xff) !== 26)) throw error;
    console.error(`keydesk: ${file} could not be read:`, error);
    return (errcode & 0xff) === 26 ? 'it is not a SQLite database' : 'SQLite found damaged pages in it';
  } finally {
    db?.close();
  }
}

/**
 * Renames `file` (and its -wal and -shm, which hold part of it) to `<name>-<why>-<time><ext>` beside it, so SQLite
 * still opens the copy whole; returns the new name.
 */
export function setAside(file: string, why: 'damaged' | 'replaced', at: Date): string {
  const ext = extname(file);
  const aside = `${basename(file, ext)}-${why}-${fileStamp(at)}${ext}`;
  const to = join(dirname(file), aside);
  renameSync(file, to);
  for (const part of ['-wal', '-shm']) if (existsSync(`${file}${part}`)) renameSync(`${file}${part}`, `${to}${part}`);
  return aside;
}

/** What check.worker.ts answers per file: its damage in words (null: whole), or why it could not be checked. */
export type CheckAnswer = { damage: string | null } | { error: string };
