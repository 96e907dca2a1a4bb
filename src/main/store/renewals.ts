// Renewals' store room: how many of a profile's live keys expire in each of the coming weeks (from the per-hour
// expiry counts), and the profile's renewal message template.
import type { DatabaseSync } from 'node:sqlite';
import { renewalWeeks, type ExpiryWeek } from '../../shared/renewals.ts';

export class Renewals {
  private readonly db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.db = db;
  }

  /**
   * Live keys expiring per week, this week first (a deleted key needs no renewal): summed from ledger_days' live
   * keys per expiry hour (YYYY-MM-DDTHH, kept by triggers), a week's Monday 00 to its Sunday 23.
   */
  expiryWeeks(profileId: string, nowMs = Date.now()): ExpiryWeek[] {
    const count = this.db.prepare(
      "SELECT coalesce(sum(n), 0) AS n FROM ledger_days WHERE profile_id = ? AND kind = 'e' AND day >= ? AND day <= ?",
    );
    return renewalWeeks(nowMs).map((w) => ({ ...w, count: (count.get(profileId, `${w.from}T00`, `${w.to}T23`) as { n: number }).n }));
  }

  /** The profile's renewal message template, or null for the default. */
  renewalTemplate(profileId: string): string | null {
    const row = this.db.prepare('SELECT template FROM renewal_templates WHERE profile_id = ?').get(profileId) as
      { template: string } | undefined;
    return row?.template ?? null;
  }

  /** Keeps a profile's template (null: back to the default). */
  setRenewalTemplate(profileId: string, template: string | null): void {
    if (template === null) this.db.prepare('DELETE FROM renewal_templates WHERE profile_id = ?').run(profileId);
    else this.db.prepare('INSERT OR REPLACE INTO renewal_templates (profile_id, template) VALUES (?, ?)').run(profileId, template);
  }
}
