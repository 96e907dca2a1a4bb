// Seeds execution samples straight into a keydesk.db, in one batched INSERT (a recursive CTE), the way a week or
// months of sampling every 5 s would have left them: for tests of the history at scale.
import { DatabaseSync } from 'node:sqlite';

/**
 * Inserts `n` samples for `profileId`, one every `stepMs` starting at `startMs`, with counts 0, 1, 2, … The file
 * must already have Keydesk's schema (open it once with LocalDb or start a core on it first).
 */
export function seedSamples(dbPath: string, profileId: string, n: number, startMs: number, stepMs = 5_000): void {
  const db = new DatabaseSync(dbPath);
  try {
    db.prepare(
      `WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < ?)
       INSERT INTO samples (profile_id, at, count)
       SELECT ?, strftime('%Y-%m-%dT%H:%M:%fZ', (? + i * ?) / 1000.0, 'unixepoch'), i FROM seq`,
    ).run(n - 1, profileId, startMs, stepMs);
  } finally {
    db.close();
  }
}
