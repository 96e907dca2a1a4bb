// A bounded WAL under a long mixed load: checkpoints run on write volume and when idle, off the request path,
// so the -wal file stays small while the load runs and shrinks to (almost) nothing once it stops.
// Bounded by count, not by time: exactly REQUESTS requests, however long a loaded machine takes to send them.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'undici';
import { describe, expect, it } from 'vitest';
import { DETAIL_FULL, DETAIL_HEADER } from '../../src/shared/wire.ts';
import { qs, send } from '../support/http.ts';
import { createService, startSandbox } from '../support/sandbox-process.ts';
import { tempDir } from '../support/temp-dir.ts';

const REQUESTS = 10_000;
const MiB = 1024 * 1024;

const walBytes = (db: string): number => {
  try {
    return statSync(`${db}-wal`).size;
  } catch {
    return 0;
  }
};

describe('the WAL', () => {
  it(`stays ≤ 64 MiB through ${REQUESTS.toLocaleString('en-US')} writes, then shrinks to ≤ 4 MiB`, async () => {
    const db = join(tempDir(), 'wal.db');
    const { apiKey, identifier } = createService(db, 'Wal');
    const sandbox = await startSandbox({ db });
    const pool = new Pool(sandbox.url, { connections: 16 });
    const detail = { [DETAIL_HEADER]: DETAIL_FULL };
    try {
      const gen = await send(sandbox.url, {
        path: `/api/generate-key/get?${qs({ apiKey, expire: '2099-01-01', count: 200, isPremium: false, note: 'wal' })}`,
        headers: detail,
      });
      const keys = (gen.json.generatedKeys as { value: string }[]).map((k) => k.value);
      await send(sandbox.url, {
        method: 'POST',
        path: '/api/keyless/add',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ apiKey, hwid: 'LISTED' }),
      });

      // The mix: pushes, extends, HWID resets followed by a validation that binds again, keyless validations.
      const request = (i: number): { method: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: string } => {
        const key = keys[i % keys.length] ?? '';
        switch (i % 5) {
          case 0:
            return { method: 'POST', path: `/api/push-execution-count?${qs({ apiKey })}` };
          case 1:
            return { method: 'POST', path: `/api/key/expand-expiration?${qs({ apiKey, keyValue: key, days: 1 })}` };
          case 2:
            return {
              method: 'POST',
              path: '/api/reset-hwid',
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify({ apiKey, keyValue: key }),
            };
          case 3:
            return { method: 'GET', path: `/v2_validation?${qs({ key, service: identifier, hwid: `H-${i}` })}` };
          default:
            return { method: 'GET', path: `/v2_validation?${qs({ key: 'keyless', service: identifier, hwid: 'LISTED' })}` };
        }
      };
      // Activate every key first, so resets apply.
      for (const key of keys) await send(sandbox.url, { path: `/v2_validation?${qs({ key, service: identifier, hwid: 'FIRST' })}` });

      let maxWal = 0;
      const sampler = setInterval(() => {
        maxWal = Math.max(maxWal, walBytes(db));
      }, 50);
      let next = 0;
      let sent = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (next < REQUESTS) {
            const res = await pool.request(request(next++));
            await res.body.dump();
            expect(res.statusCode).toBeLessThan(500);
            sent++;
          }
        }),
      );
      clearInterval(sampler);
      maxWal = Math.max(maxWal, walBytes(db));
      expect(sent).toBe(REQUESTS);
      expect(maxWal, `largest -wal seen: ${(maxWal / MiB).toFixed(1)} MiB`).toBeLessThanOrEqual(64 * MiB);

      // Once writes pause, the WAL is checkpointed and truncated: within a few seconds, ≤ 4 MiB.
      const settleBy = Date.now() + 15_000;
      while (walBytes(db) > 4 * MiB && Date.now() < settleBy) await new Promise((r) => setTimeout(r, 200));
      expect(walBytes(db)).toBeLessThanOrEqual(4 * MiB);
    } finally {
      await pool.close();
      await sandbox.stop();
    }
  }, 300_000);
});
