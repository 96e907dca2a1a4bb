// What each service can do (its optional endpoints as last checked) and each key's HWID history, in keydesk.db.
import type { DatabaseSync } from 'node:sqlite';
import {
  OPTIONAL_ENDPOINTS,
  type Capability,
  type CapabilityState,
  type HwidEvent,
  type HwidEventKind,
  type OptionalEndpoint,
  type ServiceCapabilities,
} from '../../shared/domain.ts';

/** The most HWID events one key's history shows: the newest. */
export const HWID_HISTORY_MAX = 200;

/** An event an act recorded (a validation, a reset, a cooldown); the ledger's triggers write the HWID changes. */
export interface NewHwidEvent {
  profileId: string;
  value: string;
  at: string;
  kind: HwidEventKind;
  hwid: string | null;
  nextResetAt?: string | null;
  source: string;
}

const isEndpoint = (e: string): e is OptionalEndpoint => (OPTIONAL_ENDPOINTS as readonly string[]).includes(e);

export class ServiceFacts {
  private readonly db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.db = db;
  }

  capabilities(profileId: string): ServiceCapabilities {
    const rows = this.db
      .prepare('SELECT endpoint, state, checked_at, evidence FROM service_capabilities WHERE profile_id = ?')
      .all(profileId) as { endpoint: string; state: CapabilityState; checked_at: string; evidence: string }[];
    const out: ServiceCapabilities = {};
    for (const r of rows) if (isEndpoint(r.endpoint)) out[r.endpoint] = { state: r.state, checkedAt: r.checked_at, evidence: r.evidence };
    return out;
  }

  /** Records what a check (or a refusal that showed an endpoint absent) found, endpoint by endpoint. */
  setCapabilities(profileId: string, found: ServiceCapabilities): void {
    const put = this.db.prepare(
      `INSERT INTO service_capabilities (profile_id, endpoint, state, checked_at, evidence) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (profile_id, endpoint) DO UPDATE SET state = excluded.state, checked_at = excluded.checked_at, evidence = excluded.evidence`,
    );
    for (const [endpoint, c] of Object.entries(found) as [OptionalEndpoint, Capability][]) {
      put.run(profileId, endpoint, c.state, c.checkedAt, c.evidence);
    }
  }

  forgetCapabilities(profileId: string): void {
    this.db.prepare('DELETE FROM service_capabilities WHERE profile_id = ?').run(profileId);
  }

  recordHwidEvents(events: readonly NewHwidEvent[]): void {
    const put = this.db.prepare(
      'INSERT INTO hwid_history (profile_id, value, at, kind, hwid, next_reset_at, source) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    for (const e of events) put.run(e.profileId, e.value, e.at, e.kind, e.hwid, e.nextResetAt ?? null, e.source);
  }

  /** A key's HWID history, newest first (at most HWID_HISTORY_MAX events). */
  hwidHistory(profileId: string, value: string): HwidEvent[] {
    const rows = this.db
      .prepare(
        `SELECT at, kind, hwid, next_reset_at, source FROM hwid_history WHERE profile_id = ? AND value = ?
         ORDER BY at DESC, id DESC LIMIT ${HWID_HISTORY_MAX}`,
      )
      .all(profileId, value) as { at: string; kind: HwidEventKind; hwid: string | null; next_reset_at: string | null; source: string }[];
    return rows.map((r) => ({ at: r.at, kind: r.kind, hwid: r.hwid, nextResetAt: r.next_reset_at, source: r.source }));
  }
}
