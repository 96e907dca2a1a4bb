// A bulk HWID reset, and a bulk delete, into a service that stops answering mid-job: the items sent with no answer
// are unknown, and one of them did take effect (the service applied the first request it held; the rest it lost).
// All keys must not state the HWID, or the status, seen before as fact: the rows of the unknown items are marked
// "not read back", the All keys exports say so (hwidNotReadBack, statusNotReadBack) for exactly those rows, and a
// later full description of the key (a lookup) clears the mark. Against the real sandbox, behind a server that holds.
import { readFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LedgerRow } from '../../src/shared/domain.ts';
import { batchValues } from '../../src/shared/key-batch.ts';
import { ROUTES } from '../../src/shared/wire.ts';
import { startTestCore, type TestCore } from '../support/core.ts';
import { startRelay, type Relay } from '../support/relay.ts';
import { startRemoteSandbox, type RemoteSandbox } from '../support/remote-sandbox.ts';

const IDENTIFIER = 'frozen-acts';
let t: TestCore;
let remote: RemoteSandbox;
let relay: Relay;
/** The route that freezes, after how many of its requests pass; held: the requests taken while frozen. */
let freezeRoute: string | null = null;
let freezeAfter = Number.POSITIVE_INFINITY;
let seen = 0;
let frozen = false;
const held: { key: string; pass: () => void }[] = [];

beforeAll(async () => {
  remote = await startRemoteSandbox({ name: 'Frozen Acts', identifier: IDENTIFIER });
  relay = await startRelay(remote.url, ({ url, body }, pass) => {
    if (url.pathname === freezeRoute && ++seen > freezeAfter) frozen = true;
    if (frozen && url.pathname === freezeRoute) {
      const { keyValue = '' } = JSON.parse(body || '{}') as { keyValue?: string };
      held.push({
        key: keyValue,
        pass: () => {
          pass();
        },
      });
    } else pass();
  });
  const base = relay.url;
  // A short wait for an answer (the client's own option), so "no answer" comes within the test's time.
  t = await startTestCore({ clientOptions: { timeouts: { connectMs: 5_000, headersMs: 1_000, bodyMs: 1_000 }, retryDelaysMs: [] } });
  const profile = await t.must('profiles.add', {
    name: 'Frozen Acts',
    baseUrl: base,
    apiKey: remote.apiKey,
    serviceIdentifier: IDENTIFIER,
  });
  await t.must('profiles.select', { id: profile.id });
  await t.core.jobs.setCeiling(profile.id, 2);
});
afterAll(async () => {
  await t.close();
  await relay.close();
  await remote.close();
});

const onService = (value: string): { hwid: string | null } | undefined =>
  remote.store.inspect('SELECT hwid FROM keys WHERE value = ?', value)[0] as { hwid: string | null } | undefined;
const sort = { field: 'value', dir: 'asc' } as const;

/** `count` keys made, activated by a customer on HWIDs of their own, and looked up so the ledger shows them so. */
async function activeKeys(count: number, note: string): Promise<Map<string, string>> {
  const keys = batchValues((await t.must('keys.generate', { expire: '2099-01-31', count, isPremium: false, note })).generated);
  const hwids = new Map(keys.map((v, i) => [v, `HW-${note.replaceAll(' ', '-')}-${i}`]));
  for (const [v, hwid] of hwids)
    expect(remote.store.validate(IDENTIFIER, v, hwid, false, 'not-the-keyless-key').V2_Authentication).toBe('success');
  for (const v of keys) await t.must('keys.lookup', { term: v });
  await t.core.writer.idle();
  const rows = (await t.must('ledger.query', { filter: { text: note }, sort, offset: 0, limit: 100 })).rows;
  expect(rows.map((r) => [r.status, r.hwid])).toEqual([...keys].sort().map((v) => ['active', hwids.get(v)]));
  return hwids;
}

/** Runs a job on `keys` whose route freezes after `passFirst` requests; the first request held is applied, the rest lost. */
async function frozenJob(
  route: string,
  passFirst: number,
  start: () => Promise<{ id: string }>,
): Promise<{ unknown: string[]; done: string[]; applied: string; lost: string[] }> {
  freezeRoute = route;
  freezeAfter = passFirst;
  seen = 0;
  frozen = false;
  const job = await start();
  await expect
    .poll(async () => (await t.must('jobs.get', { jobId: job.id })).counts.unknown, { timeout: 60_000 })
    .toBeGreaterThanOrEqual(2);
  freezeAfter = Number.POSITIVE_INFINITY;
  frozen = false;
  const [first, ...rest] = held.splice(0);
  if (!first) throw new Error('nothing was held');
  first.pass();
  await t.core.jobs.settled(job.id);
  await relay.settled();
  await t.core.writer.idle();
  const { items } = await t.must('jobs.items', { jobId: job.id, offset: 0, limit: 100 });
  const unknown = items
    .filter((i) => i.state === 'unknown')
    .map((i) => i.target)
    .sort();
  const done = items
    .filter((i) => i.state === 'done')
    .map((i) => i.target)
    .sort();
  expect(unknown.length + done.length).toBe(items.length);
  // Every request held got no answer: unknown, whether the service applied it (the first) or lost it.
  expect(unknown).toEqual(expect.arrayContaining([first.key, ...rest.map((h) => h.key)]));
  return { unknown, done, applied: first.key, lost: rest.map((h) => h.key) };
}

/** The All keys exports (CSV and JSON) of a filter: per row, its value and the columns asked for. */
async function exported(note: string, columns: string[]): Promise<{ csv: string[][]; json: unknown[][] }> {
  const csv = await t.must('ledger.export', { filter: { text: note }, sort, format: 'csv' });
  const [header = '', ...lines] = readFileSync(csv.path ?? '', 'utf8')
    .trim()
    .split('\n');
  const names = header.split(',');
  const at = (c: string): number => names.indexOf(c);
  const json = await t.must('ledger.export', { filter: { text: note }, sort, format: 'json' });
  const rows = JSON.parse(readFileSync(json.path ?? '', 'utf8')) as Record<string, unknown>[];
  return {
    csv: lines.map((l) => l.split(',')).map((c) => ['value', ...columns].map((n) => c[at(n)] ?? `(no ${n})`)),
    json: rows.map((r) => ['value', ...columns].map((n) => (n in r ? r[n] : `(no ${n})`))),
  };
}

const rowsOf = async (note: string): Promise<LedgerRow[]> =>
  (await t.must('ledger.query', { filter: { text: note }, sort, offset: 0, limit: 100 })).rows;

describe('a bulk HWID reset whose service stops answering mid-job', () => {
  it("marks unknown resets' HWIDs not read back until described again", async () => {
    const note = 'reset batch';
    const hwids = await activeKeys(10, note);
    const keys = [...hwids.keys()];
    const { unknown, done, applied, lost } = await frozenJob(ROUTES.resetHwid.path, 3, () =>
      t.must('jobs.start', { action: 'resetHwid', target: { keyValues: keys } }),
    );
    // The service cleared the HWID of the one it applied: the ledger's HWID for it would be false as fact.
    expect(onService(applied)?.hwid).toBeNull();
    for (const v of lost) expect(onService(v)?.hwid).toBe(hwids.get(v));

    const rows = await rowsOf(note);
    expect(rows).toHaveLength(10);
    for (const r of rows) {
      if (unknown.includes(r.value)) expect(r).toMatchObject({ status: 'active', hwid: hwids.get(r.value), hwidStale: true });
      else {
        expect(done).toContain(r.value);
        expect(r.hwid).toBeNull();
        expect(r.hwidStale).toBeUndefined();
      }
      // Nothing else is said to be stale.
      expect(r.expiryStale).toBeUndefined();
      expect(r.statusStale).toBeUndefined();
    }
    const files = await exported(note, ['hwid', 'hwidNotReadBack']);
    expect(files.csv).toEqual(rows.map((r) => [r.value, r.hwid ?? '', String(unknown.includes(r.value))]));
    expect(files.json).toEqual(rows.map((r) => [r.value, r.hwid, unknown.includes(r.value)]));

    // A lookup describes the key again: the mark goes, and the HWID is the service's (cleared, or still bound).
    const [kept = ''] = lost;
    await t.must('keys.lookup', { term: applied });
    await t.must('keys.lookup', { term: kept });
    await t.core.writer.idle();
    const again = new Map((await rowsOf(note)).map((r) => [r.value, r]));
    expect(again.get(applied)?.hwid).toBeNull();
    expect(again.get(applied)?.hwidStale).toBeUndefined();
    expect(again.get(kept)).toMatchObject({ hwid: hwids.get(kept) });
    expect(again.get(kept)?.hwidStale).toBeUndefined();
  });
});

describe('a bulk delete whose service stops answering mid-job', () => {
  it("marks unknown deletes' status not read back until a lookup finds it", async () => {
    const note = 'delete batch';
    const hwids = await activeKeys(8, note);
    const keys = [...hwids.keys()];
    const { unknown, done, applied, lost } = await frozenJob(ROUTES.deleteKey.path, 3, () =>
      t.must('jobs.start', { action: 'delete', target: { keyValues: keys } }),
    );
    // The service deleted the one it applied: the ledger's "active" for it would be false as fact.
    expect(onService(applied)).toBeUndefined();
    for (const v of lost) expect(onService(v)).toBeDefined();

    const rows = await rowsOf(note);
    expect(rows).toHaveLength(8);
    for (const r of rows) {
      if (unknown.includes(r.value)) expect(r).toMatchObject({ status: 'active', statusStale: true });
      else {
        expect(done).toContain(r.value);
        expect(r.status).toBe('deleted');
        expect(r.statusStale).toBeUndefined();
      }
      expect(r.hwidStale).toBeUndefined();
    }
    const files = await exported(note, ['status', 'statusNotReadBack']);
    expect(files.csv).toEqual(rows.map((r) => [r.value, r.status, String(unknown.includes(r.value))]));
    expect(files.json).toEqual(rows.map((r) => [r.value, r.status, unknown.includes(r.value)]));

    // A key the service still holds is described again by a lookup: active, as a fact now. The one it deleted is
    // found nowhere, in either list: it no longer exists, so its row reads deleted, no longer marked.
    const [kept = '', ...others] = lost;
    await t.must('keys.lookup', { term: kept });
    await t.must('keys.lookup', { term: applied });
    await t.core.writer.idle();
    const again = new Map((await rowsOf(note)).map((r) => [r.value, r]));
    expect(again.get(kept)?.status).toBe('active');
    expect(again.get(kept)?.statusStale).toBeUndefined();
    expect(again.get(applied)?.status).toBe('deleted');
    expect(again.get(applied)?.statusStale).toBeUndefined();
    // Only the key looked up: the other unknown ones no lookup named stay marked.
    for (const v of others) expect(again.get(v), v).toMatchObject({ status: 'active', statusStale: true });
  });
});

describe('an act on one key whose service does not answer', () => {
  it('marks the field each unanswered single act changes, as bulk does', async () => {
    const note = 'single batch';
    const hwids = await activeKeys(3, note);
    const [extended = '', reset = '', deleted = ''] = hwids.keys();
    const acts = [
      { route: ROUTES.expandExpiration.path, act: () => t.call('keys.extend', { keyValue: extended, days: 5 }) },
      { route: ROUTES.resetHwid.path, act: () => t.call('keys.resetHwid', { keyValue: reset }) },
      { route: ROUTES.deleteKey.path, act: () => t.call('keys.delete', { keyValue: deleted, state: 'active' }) },
    ];
    for (const { route, act } of acts) {
      // Every request of the route is held, and lost: the client's wait ends with no answer.
      freezeRoute = route;
      freezeAfter = 0;
      seen = 0;
      frozen = false;
      expect(await act()).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN' });
      held.splice(0);
    }
    freezeRoute = null;
    frozen = false;
    await t.core.writer.idle();
    const rows = new Map((await rowsOf(note)).map((r) => [r.value, r]));
    const marks = (v: string): string[] => (['expiryStale', 'hwidStale', 'statusStale'] as const).filter((m) => rows.get(v)?.[m] === true);
    expect(marks(extended)).toEqual(['expiryStale']);
    expect(marks(reset)).toEqual(['hwidStale']);
    expect(marks(deleted)).toEqual(['statusStale']);
    expect(rows.get(reset)?.hwid).toBe(hwids.get(reset));
    expect(rows.get(deleted)?.status).toBe('active');
  });

  it('calls an unanswered extend unknown even when its mark fails', async () => {
    const note = 'single refused';
    const [key = ''] = (await activeKeys(1, note)).keys();
    freezeRoute = ROUTES.expandExpiration.path;
    freezeAfter = 0;
    seen = 0;
    frozen = false;
    // The file refuses the mark (as a full disk would): still unknown, never a failure that invites a second extend.
    const outside = new DatabaseSync(join(t.userData, 'keydesk.db'));
    outside.exec(
      "CREATE TRIGGER refuse_mark BEFORE UPDATE OF expiry_stale ON ledger WHEN NEW.expiry_stale <> 0 BEGIN SELECT RAISE(ABORT, 'refused'); END",
    );
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const r = await t.call('keys.extend', { keyValue: key, days: 5 });
      expect(r).toMatchObject({ ok: false, code: 'OUTCOME_UNKNOWN' });
      expect(r.ok ? '' : r.message).toMatch(/may or may not have taken effect/i);
      expect(logged.mock.calls.map((c) => String(c[0])).join('\n')).toMatch(/could not be marked/);
    } finally {
      logged.mockRestore();
      outside.exec('DROP TRIGGER refuse_mark');
      outside.close();
      held.splice(0);
      freezeRoute = null;
      frozen = false;
    }
  });
});
