// Renewals' store room: how many of a profile's keys expire in each of the coming weeks (read from the expiry
// index alone), and the profile's renewal message template.
import type { DatabaseSync } from 'node:sqlite';
import { renewalWeeks, type ExpiryWeek } from '../../shared/renewals.ts';
import { endOfUtcDay } from '../../shared/rules.ts';

export class Renewals {
  private readonly db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.db = db;
  }

  /**
   * Live keys expiring per week, this week first (a deleted key needs no renewal): one range count each over the
   * expiry index, which holds the status, so no row is read.
   */
  expiryWeeks(profileId: string, nowMs = Date.now()): ExpiryWeek[] {
    const count = this.db.prepare(
      "SELECT count(*) AS n FROM ledger WHERE profile_id = ? AND expires_at >= ? AND expires_at <= ? AND +status <> 'deleted'",
    );
    return renewalWeeks(nowMs).map((w) => ({
      ...w,
      count: (count.get(profileId, w.from, new Date(endOfUtcDay(w.to)).toISOString()) as { n: number }).n,
    }));
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
