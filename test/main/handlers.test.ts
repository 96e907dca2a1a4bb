// Every operation through dispatch (the path IPC and the harness take), on a real core: the embedded sandbox,
// a second sandbox standing in for a remote service, the local store in a temporary userData.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_PROFILE_ID, type Core } from '../../src/main/core.ts';
import { MemorySecretStore } from '../../src/main/secrets/secret-store.ts';
import type { JobSummary, Key, LedgerRow } from '../../src/shared/domain.ts';
import { LEDGER_COUNT_CAP } from '../../src/shared/rules.ts';
import { startTestCore, type TestCore } from '../support/core.ts';
import { listFiles } from '../support/files.ts';
import { startRemoteSandbox, type RemoteSandbox } from '../support/remote-sandbox.ts';
import { tempDir } from '../support/temp-dir.ts';
import { batchValues, keysOf } from '../../src/shared/key-batch.ts';

let t: TestCore;
let core: Core;
let userData: string;
let remote: RemoteSandbox;
const exportsDir = tempDir('keydesk-exports-');
const secrets = new MemorySecretStore();

const call: TestCore['call'] = (name, input) => t.call(name, input);
const must: TestCore['must'] = (name, input) => t.must(name, input);

beforeAll(async () => {
  t = await startTestCore({ secrets, askSavePath: (name) => Promise.resolve(join(exportsDir, name)) });
  ({ core, userData } = t);
  remote = await startRemoteSandbox();
});
afterAll(async () => {
  await t.close();
  await remote.close();
});

describe('first start', () => {
  it('runs the embedded sandbox with a ready Local sandbox profile', async () => {
    const status = await must('app.status');
    expect(status).toMatchObject({ version: '0.0.0-test', secretStorage: 'session-only', activeProfileId: SANDBOX_PROFILE_ID });
    expect(status.sandbox.running).toBe(true);
    expect(status.sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const { profiles } = await must('profiles.list');
    expect(profiles).toEqual([
      expect.objectContaining({
        id: 'sandbox',
        name: 'Local sandbox',
        kind: 'sandbox',
        hasKey: true,
        storage: 'session-only',
        serviceIdentifier: 'demo',
      }),
    ]);
    expect(profiles[0]?.keyHint).toMatch(/^….{4}$/);
  });
});

describe('the sandbox profile, end to end', () => {
  let keys: Key[];

  it('generates keys and records them in the ledger', async () => {
    keys = keysOf((await must('keys.generate', { expire: '2099-06-30', count: 3, isPremium: true, note: 'Spring batch' })).generated);
    expect(keys).toHaveLength(3);
    const query = { filter: { text: 'spring' }, sort: { field: 'value' as const, dir: 'asc' as const }, offset: 0, limit: 10 };
    // The ledger writer records them off main's thread: until it has, the answer says how many are still coming.
    const first = await must('ledger.query', query);
    expect((first.total ?? 0) + (first.recording ?? 0)).toBeGreaterThanOrEqual(3);
    await core.writer.idle();
    const ledger = await must('ledger.query', query);
    expect(ledger.recording).toBeUndefined();
    expect(ledger.total).toBe(3);
    expect(ledger.rows.map((r) => r.value)).toEqual(keys.map((k) => k.value).sort());
  });

  it('looks up by note across active and generated', async () => {
    const found = await must('keys.lookup', { term: 'SPRING' });
    expect(found.active).toEqual([]);
    expect(found.generated.map((k) => k.value).sort()).toEqual(keys.map((k) => k.value).sort());
  });

  it('previews validation as a dry run: the key stays generated', async () => {
    const report = await must('validation.run', { mode: 'key', keyValue: keys[0]?.value, hwid: { custom: 'HW-PREVIEW' } });
    expect(report).toMatchObject({ outcome: 'success', dryRun: true, hwid: 'HW-PREVIEW', premium: true, notes: 'Spring batch' });
    expect((await must('keys.fetchGenerated', { term: keys[0]?.value ?? '' })).total).toBe(1);
  });

  it("validates for real when asked (activates and binds), with this machine's HWID", async () => {
    const report = await must('validation.run', {
      mode: 'key',
      keyValue: keys[0]?.value,
      hwid: { method: 'machine-id-raw' },
      dryRun: false,
    });
    expect(report.outcome).toBe('success');
    expect(report.dryRun).toBe(false);
    const active = await must('keys.fetchActive', { term: report.hwid });
    expect(active.keys.map((k) => k.value)).toEqual([keys[0]?.value]);
    // What a validation learned goes to the ledger writer, not awaited by the answer.
    await core.writer.idle();
    const row = (await must('ledger.query', { filter: { status: 'active' }, sort: { field: 'value', dir: 'asc' }, offset: 0, limit: 5 }))
      .rows;
    expect(row.map((r) => r.value)).toEqual([keys[0]?.value]);
  });

  it('extends, resets the HWID and deletes, keeping the ledger current', async () => {
    const extended = await must('keys.extend', { keyValue: keys[0]?.value ?? '', days: 10 });
    expect(extended.key?.expiresAt).toBe('2099-07-10T23:59:59.999Z');
    const reset = await must('keys.resetHwid', { keyValue: keys[0]?.value ?? '' });
    expect(reset.key).toMatchObject({ hwid: null, status: 'active' });
    expect(reset.key?.lastResetAt).not.toBeNull();
    expect(await must('keys.delete', { keyValue: keys[1]?.value ?? '', state: 'generated' })).toEqual({ deletedKey: keys[1]?.value });
    const deleted = await must('ledger.query', {
      filter: { status: 'deleted' },
      sort: { field: 'value', dir: 'asc' },
      offset: 0,
      limit: 5,
    });
    expect(deleted.rows.map((r) => r.value)).toEqual([keys[1]?.value]);
    const gone = await call('keys.delete', { keyValue: keys[1]?.value ?? '' });
    expect(gone).toMatchObject({ ok: false, code: 'NOT_FOUND' });
  });

  it('counts executions, samples them, and keeps the history', async () => {
    const sampled: { count: number; at: string }[] = [];
    const off = core.on('executions.sampled', (s) => sampled.push({ count: s.count, at: s.at }));
    const before = await must('executions.get');
    const pushed = await must('executions.push');
    expect(pushed.executionCount).toBe(before.executionCount + 1);
    // The push's answer is a reading of the count: it says when, and that time is its sample's.
    expect(pushed.sampledAt).not.toBeNull();
    expect(Date.parse(pushed.sampledAt ?? '')).toBeGreaterThanOrEqual(Date.parse(before.sampledAt));
    const after = await must('executions.get');
    off();
    expect(after.executionCount).toBe(before.executionCount + 1);
    expect(sampled).toEqual([
      { count: before.executionCount, at: before.sampledAt },
      { count: pushed.executionCount, at: pushed.sampledAt },
      { count: after.executionCount, at: after.sampledAt },
    ]);
    const history = await must('executions.history', { range: '1h' });
    expect(history.buckets.map((s) => s.max)).toEqual([before.executionCount, pushed.executionCount, after.executionCount]);
    expect(history.buckets[1]?.at).toBe(pushed.sampledAt);
    // With it, the count last read: what the window shows (as earlier) until a read answers.
    expect(history.latest).toEqual({ count: after.executionCount, at: after.sampledAt });
  });

  it('checks identifiers and manages keyless entries', async () => {
    expect(await must('identifier.check', { identifier: 'demo' })).toEqual({ exists: true, service: 'Demo' });
    expect(await must('identifier.check', { identifier: 'nobody-here' })).toEqual({ exists: false, service: null });
    const { entry } = await must('keyless.add', { hwid: 'HW-KEYLESS-1', isPremium: true });
    expect(entry).toMatchObject({ hwid: 'HW-KEYLESS-1', isPremium: true, expiresAt: null });
    expect((await must('keyless.lookup', { term: 'KEYLESS' })).total).toBe(1);
    const v = await must('validation.run', { mode: 'keyless', hwid: { custom: 'HW-KEYLESS-1' } });
    expect(v).toMatchObject({ outcome: 'success', keyless: true });
    expect(await must('keyless.delete', { hwid: 'HW-KEYLESS-1' })).toBeNull();
    expect(await must('keyless.lookup', { term: 'KEYLESS' })).toEqual({ entries: [], total: 0 });
  });

  it("reads this machine's HWID under every method, saying why one is unavailable", async () => {
    const { readings } = await must('hwid.read');
    expect(readings.map((r) => r.method)).toEqual(['machine-id-hashed', 'machine-id-raw', 'windows-smbios-uuid', 'mac-base64']);
    expect(readings[0]?.value).toMatch(/^[0-9a-f]{64}$/);
    const smbios = readings[2];
    if (process.platform !== 'win32')
      expect(smbios).toMatchObject({ value: null, unavailableReason: expect.stringMatching(/Windows only/) as unknown });
  });
});

describe('bulk jobs', () => {
  const settled = async (jobId: string): Promise<JobSummary> => {
    await core.jobs.settled(jobId);
    return must('jobs.get', { jobId });
  };

  it('extends many keys as a job with progress and per-key outcomes', async () => {
    const keys = keysOf((await must('keys.generate', { expire: '2099-01-01', count: 6, isPremium: false, note: 'bulk extend' })).generated);
    const progress: JobSummary[] = [];
    const off = core.on('jobs.progress', (p) => progress.push(p));
    const values = [...keys.map((k) => k.value), 'NOT-A-KEY'];
    const started = await must('jobs.start', { action: 'extend', target: { keyValues: values }, days: 2 });
    expect(started).toMatchObject({ state: 'running', total: 7, action: 'extend', days: 2, profileId: SANDBOX_PROFILE_ID });
    const job = await settled(started.id);
    off();
    expect(job).toMatchObject({ state: 'finished', counts: { done: 6, failed: 1, unknown: 0, pending: 0, sent: 0 } });
    const items = await must('jobs.items', { jobId: job.id, offset: 0, limit: 100 });
    expect(items.items.map((i) => i.state)).toEqual(['done', 'done', 'done', 'done', 'done', 'done', 'failed']);
    expect(items.items[6]).toMatchObject({ target: 'NOT-A-KEY', code: 'NOT_FOUND' });
    expect(progress.at(-1)).toMatchObject({ id: job.id, state: 'finished', counts: { done: 6, failed: 1 } });
    // The ledger learned the new expiry of each key.
    const ledger = await must('ledger.query', {
      filter: { text: 'bulk extend' },
      sort: { field: 'value', dir: 'asc' },
      offset: 0,
      limit: 10,
    });
    expect(ledger.rows.every((r) => r.expiresAt?.startsWith('2099-01-03'))).toBe(true);
  });

  it('runs over a ledger filter main resolves, no keys crossing the bridge', async () => {
    await must('keys.generate', { expire: '2099-01-01', count: 25, isPremium: false, note: 'bulk by filter' });
    const started = await must('jobs.start', { action: 'delete', target: { filter: { text: 'bulk by filter' } } });
    expect(started.total).toBe(25);
    expect(await settled(started.id)).toMatchObject({ state: 'finished', counts: { done: 25 } });
    expect((await must('keys.fetchGenerated', { term: 'bulk by filter' })).total).toBe(0);
    const deleted = await must('ledger.query', {
      filter: { text: 'bulk by filter', status: 'deleted' },
      sort: { field: 'value', dir: 'asc' },
      offset: 0,
      limit: 100,
    });
    expect(deleted.total).toBe(25);
  });

  it('outlives whoever started it: a reload finds, follows and cancels it', async () => {
    const made = await must('jobs.start', {
      action: 'generate',
      count: 400,
      expire: '2099-01-01',
      isPremium: false,
      note: 'bulk reattach',
    });
    expect((await settled(made.id)).counts.done).toBe(400);
    await must('jobs.setCeiling', { profileId: SANDBOX_PROFILE_ID, ceiling: 1 });
    try {
      // The first "renderer" starts the job and is gone (a reload): nothing awaits the job.
      const started = await must('jobs.start', { action: 'delete', target: { filter: { text: 'bulk reattach' } } });
      // The reloaded renderer asks what is running, and hears its progress.
      const listed = (await must('jobs.list')).jobs.find((j) => j.id === started.id);
      expect(listed?.state).toBe('running');
      const seen: JobSummary[] = [];
      const off = core.on('jobs.progress', (p) => {
        if (p.id === started.id) seen.push(p);
      });
      while ((seen.at(-1)?.counts.done ?? 0) < 3) await new Promise((r) => setTimeout(r, 5));
      const cancelled = await must('jobs.cancel', { jobId: started.id });
      expect(cancelled.state).toBe('cancelled');
      const job = await settled(started.id);
      off();
      expect(job.state).toBe('cancelled');
      expect(job.counts.sent).toBe(0);
      expect(job.counts.pending).toBeGreaterThan(0);
      // The service still holds what the job did not send, and perhaps the delete the cancel cut off (unknown).
      const held = (await must('keys.fetchGenerated', { term: 'bulk reattach', limit: 1 })).total ?? -1;
      expect(held).toBeGreaterThanOrEqual(job.counts.pending);
      expect(held).toBeLessThanOrEqual(job.counts.pending + job.counts.unknown);
      // And it resumes where it stopped, never sending the unknown one again.
      await must('jobs.setCeiling', { profileId: SANDBOX_PROFILE_ID, ceiling: null });
      await must('jobs.resume', { jobId: started.id });
      const end = await settled(started.id);
      expect(end).toMatchObject({ state: 'finished', counts: { done: 400 - job.counts.unknown, unknown: job.counts.unknown, pending: 0 } });
    } finally {
      await must('jobs.setCeiling', { profileId: SANDBOX_PROFILE_ID, ceiling: null });
    }
  });

  it('generates more than one request takes as a job of batches', async () => {
    const started = await must('jobs.start', {
      action: 'generate',
      count: 100_001,
      expire: '2099-01-01',
      isPremium: false,
      note: 'bulk two batches',
    });
    const job = await settled(started.id);
    // Items first: a batch that did not finish shows its code and message here.
    expect((await must('jobs.items', { jobId: job.id, offset: 0, limit: 10 })).items).toEqual([
      { seq: 1, target: 'batch 1', size: 100_000, state: 'done', code: null, message: null },
      { seq: 2, target: 'batch 2', size: 1, state: 'done', code: null, message: null },
    ]);
    expect(job).toMatchObject({ state: 'finished', total: 100_001, counts: { done: 100_001 } });
    // Its keys went to the ledger writer, batch by batch: in the ledger once it has drained.
    await core.writer.idle();
    // The count stops at the cap; asked for, it is exact.
    const query = { filter: { text: 'bulk two batches' }, sort: { field: 'value' as const, dir: 'asc' as const }, offset: 0, limit: 1 };
    expect(await must('ledger.query', query)).toMatchObject({ total: LEDGER_COUNT_CAP, totalCapped: true });
    expect(await must('ledger.query', { ...query, exactCount: true })).toMatchObject({ total: 100_001, totalCapped: false });
    // Its keys export whole, across both requests, as the ledger has them.
    const exported = await must('jobs.export', { jobId: job.id, format: 'csv', what: 'keys' });
    const lines = readFileSync(exported.path ?? '', 'utf8')
      .trim()
      .split('\n');
    expect(lines[0]).toBe(
      'value,note,status,isPremium,expiresAt,daysKey,hwid,createdAt,checkedByKeydeskAt,customer,customerEmail,customerDiscordId',
    );
    expect(lines).toHaveLength(100_002);
    expect(new Set(lines.slice(1).map((l) => l.split(',')[0])).size).toBe(100_001);
    expect(lines.slice(1).every((l) => l.includes(',bulk two batches,generated,'))).toBe(true);
  });

  it('refuses to export keys of a job that made none', async () => {
    const job = (await must('jobs.list')).jobs.find((j) => j.action === 'delete');
    if (!job) throw new Error('no delete job');
    expect(await call('jobs.export', { jobId: job.id, format: 'csv', what: 'keys' })).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
  });

  it('keeps a ceiling per profile, with a default that says so', async () => {
    expect(await must('jobs.getCeiling', { profileId: SANDBOX_PROFILE_ID })).toEqual({ ceiling: 64, isDefault: true });
    expect(await must('jobs.setCeiling', { profileId: SANDBOX_PROFILE_ID, ceiling: 12 })).toEqual({ ceiling: 12, isDefault: false });
    expect(await must('jobs.getCeiling', { profileId: SANDBOX_PROFILE_ID })).toEqual({ ceiling: 12, isDefault: false });
    expect(await must('jobs.setCeiling', { profileId: SANDBOX_PROFILE_ID, ceiling: null })).toEqual({ ceiling: 64, isDefault: true });
    // The default's own value saved: the default again, not a limit "set by you" that stays 64 if the default moves.
    expect(await must('jobs.setCeiling', { profileId: SANDBOX_PROFILE_ID, ceiling: 12 })).toEqual({ ceiling: 12, isDefault: false });
    expect(await must('jobs.setCeiling', { profileId: SANDBOX_PROFILE_ID, ceiling: 64 })).toEqual({ ceiling: 64, isDefault: true });
    expect(await must('jobs.getCeiling', { profileId: SANDBOX_PROFILE_ID })).toEqual({ ceiling: 64, isDefault: true });
    expect(await call('jobs.setCeiling', { profileId: SANDBOX_PROFILE_ID, ceiling: 0 })).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
    });
  });

  it("exports every item's outcome in product words, with an extend's new expiry", async () => {
    const job = (await must('jobs.list')).jobs.find((j) => j.action === 'extend');
    if (!job) throw new Error('no extend job');
    const r = await must('jobs.export', { jobId: job.id, format: 'csv' });
    const lines = readFileSync(r.path ?? '', 'utf8')
      .trim()
      .split('\n');
    expect(lines[0]).toBe('key,outcome,newExpiry,reasonCode,reason');
    expect(lines).toHaveLength(8);
    // The six keys were made to expire 2099-01-01 and extended by 2 days.
    for (const line of lines.slice(1, 7)) expect(line).toMatch(/^[A-Z0-9-]+,extended,2099-01-03T[^,]+,,$/);
    expect(lines[7]).toMatch(/^NOT-A-KEY,refused,,NOT_FOUND,\S/);
    const json = await must('jobs.export', { jobId: job.id, format: 'json' });
    const rows = JSON.parse(readFileSync(json.path ?? '', 'utf8')) as Record<string, unknown>[];
    expect(rows[6]).toMatchObject({ key: 'NOT-A-KEY', outcome: 'refused', newExpiry: '', reasonCode: 'NOT_FOUND' });
  });
});

describe('remote profiles', () => {
  let remoteId: string;

  it('refuses a wrong apiKey at creation and saves nothing', async () => {
    const r = await call('profiles.add', { name: 'Remote', baseUrl: remote.url, apiKey: 'kd_wrong-key-123' });
    expect(r).toMatchObject({ ok: false, code: 'API_KEY_INVALID' });
    expect(!r.ok && r.message).toMatch(/refused this API key.*Nothing was saved/);
    expect((await must('profiles.list')).profiles).toHaveLength(1);
  });

  it('adds a remote service after checking its key, then works against it', async () => {
    const p = await must('profiles.add', { name: 'Remote', baseUrl: remote.url, apiKey: remote.apiKey, serviceIdentifier: 'remote-co' });
    remoteId = p.id;
    expect(p).toMatchObject({
      kind: 'remote',
      validationUrl: `${remote.url}/v2_validation`,
      hasKey: true,
      keyHint: `…${remote.apiKey.slice(-4)}`,
    });
    await must('profiles.select', { id: p.id });
    const gen = await must('keys.generate', { expire: '2099-01-01', count: 1, isPremium: false, note: 'on remote' });
    expect(remote.store.searchKeys(1, 'generated', 'on remote', 10, 0).total).toBe(1);
    const refused = await call('validation.run', { mode: 'key', keyValue: batchValues(gen.generated)[0], hwid: { custom: 'HW-R' } });
    expect(refused).toMatchObject({ ok: false, code: 'NEEDS_CONFIRMATION' });
    const report = await must('validation.run', {
      mode: 'key',
      keyValue: batchValues(gen.generated)[0],
      hwid: { custom: 'HW-R' },
      confirmActivation: true,
    });
    expect(report).toMatchObject({ outcome: 'success', dryRun: false });
  });

  it('renames, refuses a failing replacement key, and removes the profile and secret', async () => {
    expect((await must('profiles.update', { id: remoteId, name: 'Remote Co' })).name).toBe('Remote Co');
    const bad = await call('profiles.update', { id: remoteId, apiKey: 'kd_not-it' });
    expect(bad).toMatchObject({ ok: false, code: 'API_KEY_INVALID' });
    expect(await secrets.get(remoteId)).toBe(remote.apiKey);
    expect(await call('profiles.remove', { id: SANDBOX_PROFILE_ID })).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    expect(await must('profiles.remove', { id: remoteId })).toBeNull();
    expect(await secrets.get(remoteId)).toBeNull();
    expect((await must('app.status')).activeProfileId).toBe(SANDBOX_PROFILE_ID);
  });
});

describe('records', () => {
  it('audits every mutating operation, failures included, with no secret in it', async () => {
    const { entries, total } = await must('audit.list', { filter: {}, offset: 0, limit: 1000 });
    expect(total).toBeGreaterThan(20);
    const actions = new Set(entries.map((e) => e.action));
    for (const a of [
      'keys.generate',
      'keys.extend',
      'keys.resetHwid',
      'keys.delete',
      'executions.push',
      'keyless.add',
      'keyless.delete',
      'profiles.add',
      'profiles.remove',
      'validation.run',
    ]) {
      expect(actions, a).toContain(a);
    }
    expect(entries.some((e) => e.outcome === 'failed' && e.action === 'profiles.add')).toBe(true);
    const failedOnly = await must('audit.list', { filter: { outcome: 'failed' }, offset: 0, limit: 1000 });
    expect(failedOnly.entries.every((e) => e.outcome === 'failed')).toBe(true);
  });

  it('exports the ledger as CSV and filtered activity as JSON where chosen', async () => {
    const csv = await must('ledger.export', { filter: { text: 'spring' }, sort: { field: 'createdAt', dir: 'desc' }, format: 'csv' });
    const lines = readFileSync(csv.path ?? '', 'utf8')
      .trim()
      .split('\n');
    expect(lines[0]).toBe(
      'value,note,status,statusNotReadBack,isPremium,expiresAt,expiryNotReadBack,daysKey,hwid,hwidNotReadBack,createdAt,checkedByKeydeskAt,customer,customerEmail,customerDiscordId',
    );
    expect(lines).toHaveLength(4);
    const json = await must('audit.export', { filter: { outcome: 'failed' }, format: 'json' });
    const rows = JSON.parse(readFileSync(json.path ?? '', 'utf8')) as { outcome: string }[];
    expect(rows.length).toBe((await must('audit.list', { filter: { outcome: 'failed' }, offset: 0, limit: 1 })).total);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.outcome === 'failed')).toBe(true);
  });

  describe('All keys export order', () => {
    beforeAll(async () => {
      // Batches that differ in every sortable column but the last seen time.
      for (const [expire, note] of [
        ['2098-03-01', 'order-b'],
        ['2099-07-01', 'order-c'],
        ['2097-01-01', 'order-a'],
      ] as const) {
        await must('keys.generate', { expire, count: 2, isPremium: false, note });
      }
      await core.writer.idle();
    });
    it.each([
      { field: 'value', dir: 'asc' },
      { field: 'expiresAt', dir: 'desc' },
      { field: 'note', dir: 'asc' },
      { field: 'status', dir: 'desc' },
      { field: 'createdAt', dir: 'desc' },
    ] as const)("exports All keys in the table's order, sorted by $field $dir", async (sort) => {
      const filter = { text: 'order-' };
      const shown = await must('ledger.query', { filter, sort, offset: 0, limit: 100 });
      expect(shown.total).toBe(6);
      const json = await must('ledger.export', { filter, sort, format: 'json' });
      const rows = JSON.parse(readFileSync(json.path ?? '', 'utf8')) as { value: string }[];
      expect(rows.map((r) => r.value)).toEqual(shown.rows.map((r) => r.value));
    });
  });

  it('exports a generated batch in order, as safe CSV and as JSON', async () => {
    const { generated } = await must('keys.generate', {
      expire: '2099-01-01',
      count: 3,
      isPremium: true,
      note: '=SUM(A1), "quoted"',
      expiresByDaysKey: true,
      daysKey: 30,
    });
    const keyValues = batchValues(generated).reverse();
    const csv = await must('keys.export', { keyValues, format: 'csv' });
    const lines = readFileSync(csv.path ?? '', 'utf8')
      .trim()
      .split('\n');
    expect(lines).toHaveLength(4);
    // The note would run as a formula in a spreadsheet: it is quoted, its quotes doubled, and it starts with '.
    lines.slice(1).forEach((line, i) => {
      expect(line.startsWith(`${keyValues[i] ?? ''},"'=SUM(A1), ""quoted""",generated,true,,30,,`)).toBe(true);
    });
    const json = await must('keys.export', { keyValues, format: 'json' });
    const rows = JSON.parse(readFileSync(json.path ?? '', 'utf8')) as LedgerRow[];
    expect(rows.map((r) => [r.value, r.note, r.isPremium, r.daysKey, r.status])).toEqual(
      keyValues.map((v) => [v, '=SUM(A1), "quoted"', true, 30, 'generated']),
    );
    // Keydesk's bookkeeping time is named for what it is, not as customer activity ("last seen").
    expect(Object.keys(rows[0] ?? {})).toContain('checkedByKeydeskAt');
    expect(Object.keys(rows[0] ?? {})).not.toContain('lastSeenAt');
  });

  it('writes no apiKey to any file under userData, in any form', async () => {
    const sandboxKey = await secrets.get(SANDBOX_PROFILE_ID);
    const forms = [sandboxKey ?? 'x', remote.apiKey].flatMap((k) => [
      k,
      encodeURIComponent(k),
      Buffer.from(k).toString('base64'),
      Buffer.from(k).toString('base64url'),
    ]);
    const files = listFiles(userData);
    expect(files.some((f) => f.endsWith('keydesk.db'))).toBe(true);
    for (const f of files) {
      const content = readFileSync(f).toString('latin1');
      for (const form of forms) expect(content.includes(form), `${f} holds a key`).toBe(false);
    }
  });
});

describe('input checking', () => {
  it('answers bad input with INVALID_INPUT naming the field, never running the handler', async () => {
    const r = await call('keys.generate', { expire: '2023-02-29', count: 0, isPremium: false });
    expect(r).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    expect(!r.ok && r.message).toMatch(/^Date must be a real calendar date.*Count must be a whole number from 1 to 100,000/);
    expect(!r.ok && r.field).toBe('expire');
  });
});
