// The keyless list and validation, which activates and binds as the real service does; the deciding read and
// the binding write share one transaction, so two processes never bind one key to two HWIDs.
import { addDays, MAX_EXPIRES_AT_MS } from '../../shared/rules.ts';
import type { ValidationBody, ValidationOutcome, WireKeylessEntry } from '../../shared/wire.ts';
import { notFound, WireError } from '../errors.ts';
import type { Db } from './db.ts';
import type { Keys } from './lifecycle.ts';
import { GENERATED, iso, KEYLESS_COLUMNS, toKeyless, type KeylessRow, type KeyRow } from './rows.ts';
import { ServiceScoped } from './scoped.ts';
import type { Services } from './services.ts';

interface Found {
  keyless: boolean;
  premium: boolean;
  expiresAt: number | null;
}

/** What one validation decides from a key's row: the answer, and the write (if any) that goes with it. */
interface Decision {
  outcome: ValidationOutcome;
  found: Found | null;
  notes: string;
  write: { sql: string; params: (string | number | null)[] } | null;
}

export class Validation extends ServiceScoped {
  private readonly keys: Keys;

  constructor(db: Db, services: Services, keys: Keys, now: () => number) {
    super(db, services, now);
    this.keys = keys;
  }

  // ---- the keyless list ---------------------------------------------------------------------------------

  private keylessRow(serviceId: number, hwid: string): KeylessRow | null {
    return this.db.get<KeylessRow>(`SELECT ${KEYLESS_COLUMNS} FROM keyless WHERE service_id = ? AND hwid = ?`, serviceId, hwid) ?? null;
  }

  addKeyless(serviceId: number, hwid: string, isPremium: boolean, days: number | null): WireKeylessEntry {
    const now = this.now();
    const expiresAt = days === null ? null : addDays(now, days);
    const entry = this.db.transaction(() => {
      if (this.keylessRow(serviceId, hwid)) throw new WireError('CONFLICT', 'A keyless entry for that HWID exists already.');
      const row = this.db.get<KeylessRow>(
        `INSERT INTO keyless (service_id, hwid, is_premium, expires_at, created_at) VALUES (?, ?, ?, ?, ?) RETURNING ${KEYLESS_COLUMNS}`,
        serviceId,
        hwid,
        isPremium ? 1 : 0,
        expiresAt,
        now,
      );
      if (!row) throw new Error('INSERT … RETURNING gave no row.');
      return toKeyless(row);
    });
    this.db.wrote(1);
    return entry;
  }

  deleteKeyless(serviceId: number, hwid: string): void {
    const r = this.db.transaction(() => this.db.run('DELETE FROM keyless WHERE service_id = ? AND hwid = ?', serviceId, hwid));
    if (r.changes === 0) throw notFound('That HWID is not on the keyless list.');
    this.db.wrote(1);
  }

  // ---- validation ---------------------------------------------------------------------------------------

  /** What a protected app sees when it validates: activates and binds as the real service does, unless `dryRun`. */
  validate(serviceIdentifier: string, key: string, hwid: string, dryRun: boolean, keylessKey: string): ValidationBody {
    const now = this.now();
    const service = this.services.byIdentifier(serviceIdentifier);
    if (!service) return validationBody('invalid_service', null, hwid, null, 'No service has that identifier.');
    const registered = { identifier: service.identifier, owner: service.ownerSecretId };

    if (key === keylessKey) {
      const entry = this.keylessRow(service.id, hwid);
      if (!entry) return validationBody('not_whitelisted', registered, hwid, null, 'This HWID is not on the keyless list.');
      const found = { keyless: true, premium: entry.is_premium === 1, expiresAt: entry.expires_at };
      if (entry.expires_at !== null && now > entry.expires_at) {
        return validationBody(
          'not_whitelisted',
          registered,
          hwid,
          found,
          `This HWID's keyless access expired on ${iso(entry.expires_at)}.`,
        );
      }
      if (!dryRun) {
        this.db.run('UPDATE keyless SET last_used_at = ? WHERE id = ?', now, entry.id);
        this.db.wrote(1);
      }
      return validationBody('success', registered, hwid, found, '');
    }

    const row = this.keys.row(service.id, key);
    if (!row) return validationBody('invalid_key', registered, hwid, null, 'No key of this service has that value.');
    let decision = decide(row, hwid, now);
    if (decision.write !== null && !dryRun) {
      // Decide again under the write lock: a bind another process made since the read wins (hwid_mismatch here).
      decision = this.db.transaction(() => {
        const current = this.keys.row(service.id, key);
        if (!current)
          return { outcome: 'invalid_key', found: null, notes: 'No key of this service has that value.', write: null } satisfies Decision;
        const again = decide(current, hwid, now);
        if (again.write !== null) this.db.run(again.write.sql, ...again.write.params);
        return again;
      });
      this.db.wrote(1);
    }
    return validationBody(decision.outcome, registered, hwid, decision.found, decision.notes);
  }
}

/** The outcome of validating `row` with `hwid` at `now`, and the write a real (not dry) run makes. */
function decide(row: KeyRow, hwid: string, now: number): Decision {
  const found = { keyless: false, premium: row.is_premium === 1, expiresAt: row.expires_at };
  if (row.expires_at !== null && now > row.expires_at) {
    return { outcome: 'expired', found, notes: `The key expired on ${iso(row.expires_at)}.`, write: null };
  }
  // A key that works on any machine activates on first use but is never bound.
  const anyMachine = row.no_hwid_validation === 1;
  if (row.status === GENERATED) {
    const expiresAt = row.expires_at ?? Math.min(addDays(now, row.days_key ?? 0), MAX_EXPIRES_AT_MS);
    return {
      outcome: 'success',
      found: { ...found, expiresAt },
      notes: row.note,
      write: {
        sql: 'UPDATE keys SET status = 1, hwid = ?, activated_at = ?, expires_at = ? WHERE id = ?',
        params: [anyMachine ? null : hwid, now, expiresAt, row.id],
      },
    };
  }
  if (anyMachine) return { outcome: 'success', found, notes: row.note, write: null };
  if (row.hwid === null) {
    return { outcome: 'success', found, notes: row.note, write: { sql: 'UPDATE keys SET hwid = ? WHERE id = ?', params: [hwid, row.id] } };
  }
  if (row.hwid !== hwid) return { outcome: 'hwid_mismatch', found, notes: 'The key is bound to another HWID.', write: null };
  return { outcome: 'success', found, notes: row.note, write: null };
}

const OUTCOME_MESSAGES: Record<ValidationOutcome, string> = {
  success: 'The key is valid.',
  invalid_service: 'Unknown service.',
  invalid_key: 'Unknown key.',
  expired: 'The key has expired.',
  hwid_mismatch: 'The key is bound to another device.',
  not_whitelisted: 'This device is not authorized without a key.',
};

function validationBody(
  outcome: ValidationOutcome,
  registered: { identifier: string; owner: string } | null,
  hwid: string,
  found: Found | null,
  notes: string,
): ValidationBody {
  return {
    success: outcome === 'success',
    message: outcome === 'success' && found?.keyless ? 'This device is authorized without a key.' : OUTCOME_MESSAGES[outcome],
    OwnerSecretID: registered?.owner ?? null,
    V2_Authentication: outcome,
    Authentication: outcome,
    Registered_ServiceID: registered?.identifier ?? null,
    Key_Information: {
      // Only a success grants anything: a client that reads Premium_Mode alone must not let anyone in.
      NoKey_Requirement: outcome === 'success' && found !== null && found.keyless,
      Hardware_ID: hwid,
      Premium_Mode: outcome === 'success' && found !== null && found.premium,
      Notes: notes,
      expiresAt: found ? iso(found.expiresAt) : null,
    },
  };
}
