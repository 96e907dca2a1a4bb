// An upgrade's failure as the worker posts it and as a person reads it. A module of its own: the worker thread
// imports it, and upgrade.ts must stay in main's own bundle (it finds the worker's file beside itself), which a
// shared import would move into a chunk.

/** SQLite's primary result codes the upgrade words for a person (sqlite.org/rescode.html). */
const SQLITE_IOERR = 10;
const SQLITE_FULL = 13;

/** What the worker posts of an upgrade's failure: its words, and SQLite's result code when SQLite raised it. */
export function upgradeFailureOf(error: unknown): { message: string; errcode: number | null } {
  const message = error instanceof Error ? error.message : String(error);
  const errcode = error instanceof Error && 'errcode' in error && typeof error.errcode === 'number' ? error.errcode : null;
  return { message, errcode };
}

/**
 * Why the upgrade failed, as the window and the error box say it: a full disk and a failed write name what the
 * person can do; anything else gives SQLite's words. The upgrade is one transaction, so nothing was changed.
 */
export function upgradeFailureWords(failure: { message: string; errcode: number | null }): string {
  const primary = failure.errcode === null ? null : failure.errcode & 0xff;
  if (primary === SQLITE_FULL) {
    return "There is not enough free disk space to upgrade Keydesk's local records (keydesk.db): the upgrade writes a new copy of them beside the old one. Free some disk space and start Keydesk again. Nothing was changed.";
  }
  if (primary === SQLITE_IOERR) {
    return `Keydesk could not write its local records (keydesk.db) to disk while upgrading them (${sentence(failure.message)}) Check the disk, then start Keydesk again. Nothing was changed.`;
  }
  return `Keydesk could not upgrade its local records (keydesk.db): ${sentence(failure.message)} Nothing was changed.`;
}

/** `text` ending in a full stop (SQLite's messages have none). */
function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
