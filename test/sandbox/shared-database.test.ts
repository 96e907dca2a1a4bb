// Two sandbox processes on one database file (the standalone sandbox and the app's embedded one can share it):
// every key validated at the same moment from both, with two HWIDs, binds to exactly one of them.
import { join } from 'node:path';
import { Pool } from 'undici';
import { describe, expect, it } from 'vitest';
import { SandboxStore } from '../../src/sandbox/store.ts';
import { DETAIL_FULL, DETAIL_HEADER, type ValidationBody } from '../../src/shared/wire.ts';
import { qs, send } from '../support/http.ts';
import { createService, startSandbox } from '../support/sandbox-process.ts';
import { tempDir } from '../support/temp-dir.ts';

const KEYS = 400;

describe('two processes on one database', () => {
  it(`bind each of ${KEYS} keys exactly once, validated from both at once`, async () => {
    const db = join(tempDir(), 'shared.db');
    const { apiKey, identifier } = createService(db, 'Shared');
    const a = await startSandbox({ db });
    const b = await startSandbox({ db });
    const pools = [new Pool(a.url, { connections: 16 }), new Pool(b.url, { connections: 16 })];
    try {
      const gen = await send(a.url, {
        path: `/api/generate-key/get?${qs({ apiKey, expire: '2099-01-01', count: KEYS, isPremium: false, note: 'race' })}`,
        headers: { [DETAIL_HEADER]: DETAIL_FULL },
      });
      expect(gen.status).toBe(201);
      const values = (gen.json.generatedKeys as { value: string }[]).map((k) => k.value);

      const validate = async (side: 0 | 1, key: string): Promise<ValidationBody> => {
        const pool = pools[side];
        if (!pool) throw new Error('no pool');
        const res = await pool.request({
          method: 'GET',
          path: `/v2_validation?${qs({ key, service: identifier, hwid: side === 0 ? 'HWID-A' : 'HWID-B' })}`,
        });
        expect(res.statusCode).toBe(200);
        return (await res.body.json()) as ValidationBody;
      };
      // Both sides at the same moment for every key.
      const outcomes = await Promise.all(values.map(async (key) => Promise.all([validate(0, key), validate(1, key)])));

      let bothSucceeded = 0;
      for (const [fromA, fromB] of outcomes) {
        const successes = [fromA, fromB].filter((v) => v.V2_Authentication === 'success').length;
        if (successes !== 1) bothSucceeded++;
        expect([fromA.V2_Authentication, fromB.V2_Authentication].sort()).toEqual(['hwid_mismatch', 'success']);
      }
      expect(bothSucceeded).toBe(0);

      // And the database agrees with the answers: each key is bound to the HWID that got success.
      for (const [i, key] of values.entries()) {
        const winner = outcomes[i]?.[0]?.V2_Authentication === 'success' ? 'HWID-A' : 'HWID-B';
        const fetched = await send(b.url, { path: `/api/key/fetch?${qs({ apiKey, fetch: key })}` });
        expect((fetched.json.key as { hwid: string }).hwid).toBe(winner);
      }
    } finally {
      await Promise.all(pools.map((p) => p.close()));
      await a.stop();
      await b.stop();
    }
  });

  it('stops a rotated apiKey at its next request in a running sandbox', async () => {
    const db = join(tempDir(), 'rotate.db');
    const { apiKey, identifier } = createService(db, 'Rotated');
    const sandbox = await startSandbox({ db });
    const pool = new Pool(sandbox.url, { connections: 4 });
    const push = async (key: string): Promise<number> => {
      const res = await pool.request({ method: 'POST', path: `/api/push-execution-count?${qs({ apiKey: key })}` });
      await res.body.dump();
      return res.statusCode;
    };
    try {
      // Several at once, so the running sandbox has the old key in its cache, and looks it up within one turn.
      expect(await Promise.all([push(apiKey), push(apiKey), push(apiKey)])).toEqual([200, 200, 200]);
      // The app's embedded sandbox: another connection, in another process, on the same file.
      const other = new SandboxStore(db);
      let rotated: string;
      try {
        rotated = other.rotateApiKey(identifier);
      } finally {
        other.close();
      }
      expect(await push(apiKey)).toBe(401);
      expect(await Promise.all([push(rotated), push(rotated)])).toEqual([200, 200]);
      expect(await push(apiKey)).toBe(401);
    } finally {
      await pool.close();
      await sandbox.stop();
    }
  });
});
