// A key's life after generation: delete, extend, edit, HWID reset. Each reads and writes in one transaction.
import { addDays, LIMITS, MAX_EXPIRES_AT_MS } from '../../shared/rules.ts';
import type { WireKey } from '../../shared/wire.ts';
import { invalid, notFound, WireError } from '../errors.ts';
import { noteIdOf } from './batches.ts';
import { ACTIVE, GENERATED, KEY_COLUMNS, toWireKey, type KeyRow } from './rows.ts';
import { ServiceScoped } from './scoped.ts';

const MINUTE_MS = 60_000;
/** Built once: validation runs this on every call, and a statement is found by its text. */
const KEY_BY_VALUE = `SELECT ${KEY_COLUMNS} FROM keys k JOIN notes n ON n.id = k.note_id WHERE k.value = ? AND k.service_id = ?`;

export class Keys extends ServiceScoped {
  row(serviceId: number, value: string): KeyRow | null {
    return this.db.get<KeyRow>(KEY_BY_VALUE, value, serviceId) ?? null;
  }

  wire(row: KeyRow): WireKey {
    return toWireKey(row, this.services.publicId(row.service_id));
  }

  /** Deletes a key in either state, or (`generatedOnly`) only a generated one. Returns the deleted value. */
  delete(serviceId: number, value: string, generatedOnly: boolean): string {
    const deleted = this.db.transaction(() => {
      const row = this.row(serviceId, value);
      if (!row || (generatedOnly && row.status !== GENERATED)) {
        throw notFound(generatedOnly ? 'No generated (unused) key has that value.' : 'No key has that value.');
      }
      this.db.run('DELETE FROM keys WHERE id = ?', row.id);
      this.db.run('DELETE FROM hwid_resets WHERE key_id = ?', row.id);
      return row.value;
    });
    this.db.wrote(1);
    return deleted;
  }

  /** Adds days: an expiry moves from its current value (even if past); an unactivated days key gets a longer daysKey. */
  extend(serviceId: number, value: string, days: number): WireKey {
    const key = this.db.transaction(() => {
      const row = this.row(serviceId, value);
      if (!row) throw notFound('No key has that value.');
      if (row.expires_at === null) {
        const daysKey = (row.days_key ?? 0) + days;
        if (daysKey > LIMITS.daysMax) throw invalid(`The key would last ${daysKey} days; at most ${LIMITS.daysMax} are allowed.`);
        this.db.run('UPDATE keys SET days_key = ? WHERE id = ?', daysKey, row.id);
        row.days_key = daysKey;
      } else {
        const expiresAt = addDays(row.expires_at, days);
        if (expiresAt > MAX_EXPIRES_AT_MS) throw invalid('The new expiry would fall after 9999-12-31.');
        this.db.run('UPDATE keys SET expires_at = ? WHERE id = ?', expiresAt, row.id);
        row.expires_at = expiresAt;
      }
      return this.wire(row);
    });
    this.db.wrote(1);
    return key;
  }

  /** Clears an active key's HWID, unless a cooldown or the 30-day limit (wire.md) refuses it with COOLDOWN. */
  resetHwid(serviceId: number, value: string, rules: ResetRules): WireKey {
    const key = this.db.transaction(() => {
      const row = this.row(serviceId, value);
      if (!row) throw notFound('No key has that value.');
      if (row.status !== ACTIVE) throw new WireError('CONFLICT', 'That key has not been activated yet, so it has no HWID to reset.');
      const now = this.now();
      const readyAt = Math.max(this.cooldownEnd(row, rules.cooldownMinutes), this.limitEnd(row.id, rules.limit, now));
      if (now < readyAt) {
        const seconds = Math.ceil((readyAt - now) / 1000);
        throw new WireError('COOLDOWN', `This key's HWID was reset recently; try again in ${formatWait(seconds)}.`, {
          retryAfterSeconds: seconds,
        });
      }
      this.db.run('UPDATE keys SET hwid = NULL, last_reset_at = ? WHERE id = ?', now, row.id);
      this.db.run('INSERT INTO hwid_resets (key_id, at) VALUES (?, ?)', row.id, now);
      row.hwid = null;
      row.last_reset_at = now;
      return this.wire(row);
    });
    this.db.wrote(1);
    return key;
  }

  private cooldownEnd(row: KeyRow, minutes: number): number {
    return minutes > 0 && row.last_reset_at !== null ? row.last_reset_at + minutes * MINUTE_MS : 0;
  }

  /** When the key may be reset again under "at most `limit` resets in any 30 days" (0: no limit). */
  private limitEnd(keyId: number, limit: number, now: number): number {
    if (limit <= 0) return 0;
    const times = this.db
      .all<{ at: number }>('SELECT at FROM hwid_resets WHERE key_id = ? AND at > ? ORDER BY at', keyId, now - RESET_WINDOW_MS)
      .map((r) => r.at);
    // Once the oldest `times.length - limit + 1` leave the window, fewer than `limit` remain.
    const leaving = times[times.length - limit];
    return leaving === undefined ? 0 : leaving + RESET_WINDOW_MS;
  }

  /**
   * Changes only the fields given. An active key's term changes through extend (409); key/edit takes an active key
   * and generated-key/edit a generated one, the other state being 404 as if absent.
   */
  edit(serviceId: number, value: string, state: 'active' | 'generated', changes: KeyChanges): WireKey {
    const key = this.db.transaction(() => {
      const row = this.row(serviceId, value);
      const wanted = state === 'active' ? ACTIVE : GENERATED;
      if (!row || row.status !== wanted)
        throw notFound(state === 'active' ? 'No active key has that value.' : 'No generated (unused) key has that value.');
      const termChange = changes.expiresByDaysKey !== undefined || changes.daysKey !== undefined;
      if (termChange && row.status === ACTIVE) {
        throw new WireError('CONFLICT', "An active key's term is changed by extending it, not by edit.");
      }
      if (changes.expiresByDaysKey === false && row.expires_by_days === 1) {
        throw new WireError('CONFLICT', 'A days key cannot become a fixed-date key by edit: there is no expiry date to give it.');
      }
      if (changes.daysKey !== undefined && changes.expiresByDaysKey === undefined && row.expires_by_days === 0) {
        throw new WireError(
          'CONFLICT',
          'That key expires on a fixed date; send expiresByDaysKey: true with daysKey to make it a days key.',
        );
      }
      if (changes.note !== undefined) {
        row.note = changes.note;
        this.db.run('UPDATE keys SET note_id = ? WHERE id = ?', noteIdOf(this.db, serviceId, changes.note), row.id);
      }
      if (changes.isPremium !== undefined) row.is_premium = changes.isPremium ? 1 : 0;
      if (changes.noHwidValidation !== undefined) {
        row.no_hwid_validation = changes.noHwidValidation ? 1 : 0;
        // A key that works on any machine is never bound.
        if (changes.noHwidValidation) row.hwid = null;
      }
      if (changes.expiresByDaysKey === true) {
        row.expires_by_days = 1;
        row.expires_at = null;
      }
      if (changes.daysKey !== undefined) row.days_key = changes.daysKey;
      this.db.run(
        'UPDATE keys SET is_premium = ?, no_hwid_validation = ?, hwid = ?, expires_by_days = ?, expires_at = ?, days_key = ? WHERE id = ?',
        row.is_premium,
        row.no_hwid_validation,
        row.hwid,
        row.expires_by_days,
        row.expires_at,
        row.days_key,
        row.id,
      );
      return this.wire(row);
    });
    this.db.wrote(1);
    return key;
  }
}

/** What may refuse a reset: minutes since the last one, and at most `limit` in any 30 days (0 = off). */
export interface ResetRules {
  cooldownMinutes: number;
  limit: number;
}

/** An edit's fields; undefined = unchanged. */
export interface KeyChanges {
  note?: string;
  isPremium?: boolean;
  expiresByDaysKey?: boolean;
  daysKey?: number;
  noHwidValidation?: boolean;
}

const RESET_WINDOW_MS = 30 * 86_400_000;

function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return s === 0 ? `${m} min` : `${m} min ${s} s`;
}
