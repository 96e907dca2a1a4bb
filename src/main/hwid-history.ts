// A key's HWID history: what the ledger saw change and what acts recorded (keydesk.db), and for the sandbox
// profile the sandbox's own log of resets (sandbox.db's hwid_resets, read without writing).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { HwidEvent } from '../shared/domain.ts';
import { SANDBOX_DB_FILE } from '../sandbox/paths.ts';
import type { Core } from './core.ts';
import type { NewHwidEvent } from './store/local-db.ts';

/** Records what an act saw of a key's HWID; never fails the act (the history is a record, not its outcome). */
export async function recordHwidEvent(core: Core, event: NewHwidEvent): Promise<void> {
  try {
    await core.writer.run('hwidEvents', { events: [event] });
  } catch (error) {
    console.error(`keydesk: the HWID history of ${event.value} could not be written:`, error);
  }
}

/** The resets the sandbox logged for a key, newest first; none when its database or log is not there. */
export function sandboxResets(userDataDir: string, keyValue: string): HwidEvent[] {
  const file = join(userDataDir, SANDBOX_DB_FILE);
  if (!existsSync(file)) return [];
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(file, { readOnly: true, timeout: 1_000 });
    const log = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'hwid_resets'").get();
    if (log === undefined) return [];
    const rows = db
      .prepare('SELECT r.at FROM hwid_resets r JOIN keys k ON k.id = r.key_id WHERE k.value = ? ORDER BY r.at DESC LIMIT 200')
      .all(keyValue) as { at: number }[];
    return rows.map((r) => ({
      at: new Date(r.at).toISOString(),
      kind: 'reset',
      hwid: null,
      nextResetAt: null,
      source: 'sandbox reset log',
    }));
  } catch (error) {
    console.error('keydesk: the sandbox reset log could not be read:', error);
    return [];
  } finally {
    db?.close();
  }
}

/** Newest first: the ledger's and the acts' events, with the sandbox's resets for the sandbox profile. */
export function hwidHistoryOf(core: Core, profile: { id: string; kind: string }, keyValue: string): HwidEvent[] {
  const own = core.db.hwidHistory(profile.id, keyValue);
  if (profile.kind !== 'sandbox') return own;
  const all = [...own, ...sandboxResets(core.options.userDataDir, keyValue)];
  return all.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
}
