// Durability: no acknowledged write is ever lost, and no batch is ever half written.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Pool } from 'undici';
import { describe, expect, it } from 'vitest';
import { DETAIL_FULL, DETAIL_HEADER } from '../../src/shared/wire.ts';
import { qs, send } from '../support/http.ts';
import { createService, startSandbox } from '../support/sandbox-process.ts';
import { tempDir } from '../support/temp-dir.ts';

describe('durability', () => {
  it('2,000 concurrent pushes raise the count by exactly 2,000', async () => {
    const db = join(tempDir(), 'pushes.db');
    const { apiKey } = createService(db, 'Pushes');
    const sandbox = await startSandbox({ db });
    const pool = new Pool(sandbox.url, { connections: 64 });
    try {
      const path = `/api/push-execution-count?${qs({ apiKey })}`;
      const before = (await send(sandbox.url, { path: `/api/execution-count?${qs({ apiKey })}` })).json.executionCount as number;
      const totals = await Promise.all(
        Array.from({ length: 2_000 }, async () => {
          const res = await pool.request({ method: 'POST', path, headers: { [DETAIL_HEADER]: DETAIL_FULL } });
          expect(res.statusCode).toBe(200);
          return ((await res.body.json()) as { executionCount: number }).executionCount;
        }),
      );
      expect(new Set(totals).size).toBe(2_000);
      expect(Math.min(...totals)).toBe(before + 1);
      expect(Math.max(...totals)).toBe(before + 2_000);
      const after = await send(sandbox.url, { path: `/api/execution-count?${qs({ apiKey })}` });
      expect(after.json.executionCount).toBe(before + 2_000);
    } finally {
      await pool.close();
      await sandbox.stop();
    }
  });

  it('a SIGKILL mid-generate leaves all or none of the batch', async () => {
    const db = join(tempDir(), 'kill.db');
    const { apiKey } = createService(db, 'Kill', 'kill');
    const acknowledged: string[] = [];
    const inFlight: string[] = [];
    const outcomes: ('all' | 'none')[] = [];
    const generate = (url: string, note: string) =>
      send(url, { path: `/api/generate-key/get?${qs({ apiKey, expire: '2099-12-31', count: 20_000, isPremium: false, note })}` });

    for (let round = 0; round < 10; round++) {
      const sandbox = await startSandbox({ db });
      const ackNote = `ack-${round}`;
      const t0 = performance.now();
      const ack = await generate(sandbox.url, ackNote);
      expect(ack.status).toBe(201);
      acknowledged.push(ackNote);
      const duration = performance.now() - t0;

      const note = `inflight-${round}`;
      inFlight.push(note);
      const pending = generate(sandbox.url, note).then(
        (res) => res.status,
        () => 'aborted' as const,
      );
      await new Promise((r) => setTimeout(r, Math.random() * duration * 1.2));
      sandbox.child.kill('SIGKILL');
      const answered = await pending;
      expect(await sandbox.stop()).toBeNull();
      if (answered === 201) acknowledged.push(note);

      const check = new DatabaseSync(db);
      try {
        expect(check.prepare('PRAGMA integrity_check').all()).toEqual([{ integrity_check: 'ok' }]);
        const counts = new Map(
          (
            check.prepare('SELECT n.text AS note, count(*) AS n FROM keys k JOIN notes n ON n.id = k.note_id GROUP BY n.text').all() as {
              note: string;
              n: number;
            }[]
          ).map((r) => [r.note, r.n]),
        );
        for (const a of acknowledged) expect(counts.get(a), a).toBe(20_000);
        const got = counts.get(note) ?? 0;
        expect([0, 20_000], note).toContain(got);
        outcomes.push(got === 20_000 ? 'all' : 'none');
        const total = (check.prepare('SELECT count(*) AS n FROM keys').get() as { n: number }).n;
        expect(total % 20_000).toBe(0);
      } finally {
        check.close();
      }
    }
    expect(outcomes).toHaveLength(10);
    // The report says how the kills fell; both outcomes are legal, a half batch never is.
    console.info(
      `SIGKILL rounds: ${outcomes.filter((o) => o === 'all').length} committed, ${outcomes.filter((o) => o === 'none').length} rolled back`,
    );
  }, 180_000);
});
