// A key's life after generation: delete, extend, HWID reset. Each reads and writes in one transaction.
import { addDays, LIMITS, MAX_EXPIRES_AT_MS } from '../../shared/rules.ts';
import type { WireKey } from '../../shared/wire.ts';
import { invalid, notFound, WireError } from '../errors.ts';
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

  resetHwid(serviceId: number, value: string, cooldownMinutes: number): WireKey {
    const key = this.db.transaction(() => {
      const row = this.row(serviceId, value);
      if (!row) throw notFound('No key has that value.');
      if (row.status !== ACTIVE) throw new WireError('CONFLICT', 'That key has not been activated yet, so it has no HWID to reset.');
      const now = this.now();
      if (cooldownMinutes > 0 && row.last_reset_at !== null) {
        const readyAt = row.last_reset_at + cooldownMinutes * MINUTE_MS;
        if (now < readyAt) {
          const seconds = Math.ceil((readyAt - now) / 1000);
          throw new WireError('COOLDOWN', `This key's HWID was reset recently; try again in ${formatWait(seconds)}.`, {
            retryAfterSeconds: seconds,
          });
        }
      }
      this.db.run('UPDATE keys SET hwid = NULL, last_reset_at = ? WHERE id = ?', now, row.id);
      row.hwid = null;
      row.last_reset_at = now;
      return this.wire(row);
    });
    this.db.wrote(1);
    return key;
  }
}

function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return s === 0 ? `${m} min` : `${m} min ${s} s`;
}
