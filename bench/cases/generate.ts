// `generate`: 100,000 keys in one request to the sandbox ÷ one prepared INSERT of 100,000 rows of the same width in
// one transaction, both tables growing by 100,000 rows a round, as in real use.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { request } from 'undici';
import { generateKeyValues } from '../../src/sandbox/keygen.ts';
import { createService, startSandbox, work } from '../lib/sandbox.ts';
import { fmt, median, msList } from '../lib/stats.ts';
import { record } from '../lib/table.ts';

/** The baseline: the same 13 columns, the same pragmas, no indexes, values prepared in advance. */
function openPlain(file: string): { insert100k(): number; close(): void } {
  const db = new DatabaseSync(file);
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
  db.exec(`CREATE TABLE plain (id INTEGER PRIMARY KEY, service_id INTEGER, value TEXT, note_id INTEGER, status INTEGER,
    is_premium INTEGER, expires_by_days INTEGER, days_key INTEGER, expires_at INTEGER, hwid TEXT, created_at INTEGER,
    activated_at INTEGER, last_reset_at INTEGER)`);
  const insert = db.prepare(`INSERT INTO plain (service_id, value, note_id, status, is_premium, expires_by_days, days_key,
    expires_at, created_at) VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?)`);
  return {
    insert100k: () => {
      const values = generateKeyValues(100_000);
      const now = Date.now();
      const t0 = performance.now();
      db.exec('BEGIN');
      for (const v of values) insert.run(1, v, 1, 0, 0, null, now, now);
      db.exec('COMMIT');
      return performance.now() - t0;
    },
    close: () => db.close(),
  };
}

export async function benchGenerate(): Promise<void> {
  console.error('generate: 100,000 keys in one request vs one prepared INSERT of 100,000 rows in one transaction');
  const db = join(work, 'generate.db');
  const apiKey = encodeURIComponent(createService(db, 'gen'));
  const sandbox = (await startSandbox(db)).url;
  const plain = openPlain(join(work, 'plain.db'));
  const ours: number[] = [];
  const base: number[] = [];
  const bodies: { status: number; bytes: ArrayBuffer }[] = [];
  for (let round = 0; round < 7; round++) {
    const t0 = performance.now();
    const res = await request(
      `${sandbox}/api/generate-key/get?apiKey=${apiKey}&expire=2099-01-01&count=100000&isPremium=false&note=round-${round}`,
    );
    bodies.push({ status: res.statusCode, bytes: await res.body.arrayBuffer() });
    ours.push(performance.now() - t0);
    base.push(plain.insert100k());
    await new Promise((r) => setTimeout(r, 500)); // both sides idle between rounds
  }
  plain.close();
  // Checked after the timed rounds, so parsing 33 MB of JSON cannot slow the next one down.
  for (const { status, bytes } of bodies) {
    const body = JSON.parse(Buffer.from(bytes).toString('utf8')) as { generatedKeys: unknown[] };
    if (status !== 201 || body.generatedKeys.length !== 100_000) throw new Error(`generate failed: ${status}`);
  }
  console.error(`  rounds (ms): ours ${msList(ours)} / baseline ${msList(base)}`);
  ours.shift(); // round 0 warms both processes' code paths
  base.shift();
  const o = median(ours);
  const b = median(base);
  record(
    'generate 100,000 keys (one request, body received) ÷ plain 100,000-row INSERT',
    fmt(o, 'ms'),
    fmt(b, 'ms'),
    o / b,
    '≤ 3',
    o / b <= 3,
  );
}
