// Activity and All keys after a Keydesk killed mid-act (a real child process, SIGKILL): an act's entry is written
// before it is sent, so a kill leaves it "unknown"; a bulk act's entry counts its keys sent and unanswered as
// unknown at the next start; a generate whose keys were being recorded is marked, and All keys finds them by their note. Against a real
// sandbox in this process, behind a relay that holds, drops or passes each request.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SENT_NO_ANSWER } from '../../src/main/handlers/types.ts';
import { MemorySecretStore } from '../../src/main/secrets/secret-store.ts';
import { GenerateMarks } from '../../src/main/store/generate-marks.ts';
import { LocalDb } from '../../src/main/store/local-db.ts';
import { batchValues } from '../../src/shared/key-batch.ts';
import { startTestCore } from '../support/core.ts';
import { startRelay, type Relay, type RelayedRequest } from '../support/relay.ts';
import { startRemoteSandbox, type RemoteSandbox } from '../support/remote-sandbox.ts';
import { ROOT } from '../support/sandbox-process.ts';
import { tempDir } from '../support/temp-dir.ts';

let remote: RemoteSandbox;
let relay: Relay;
/** What the relay does with each request; a test sets it before its child starts. */
let route: (req: RelayedRequest, pass: (answer?: boolean) => void) => void = (_req, pass) => {
  pass();
};

beforeAll(async () => {
  remote = await startRemoteSandbox({ name: 'Relayed', identifier: 'relayed' });
  relay = await startRelay(remote.url, (req, pass) => {
    route(req, pass);
  });
});
afterAll(async () => {
  await relay.close();
  await remote.close();
});

/** test/support/audit-child.ts on `dir`, through the relay; `printed` resolves with the first line matching. */
function child(dir: string, ...args: string[]) {
  const proc = spawn(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', join(ROOT, 'test/support/audit-child.ts'), dir, relay.url, remote.apiKey, ...args],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  proc.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  proc.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  const exited = new Promise<void>((r) => proc.on('exit', () => r()));
  return {
    printed: (re: RegExp): Promise<RegExpExecArray> =>
      new Promise((resolve, reject) => {
        const look = () => {
          const m = re.exec(out);
          if (m) resolve(m);
        };
        proc.stdout.on('data', look);
        look();
        proc.on('exit', (code) => reject(new Error(`the child exited (${code}) before printing ${re}: ${err}`)));
      }),
    kill: async (): Promise<void> => {
      proc.kill('SIGKILL');
      await exited;
    },
  };
}

const sandboxKeys = (note: string): number =>
  Number(
    remote.store.inspect('SELECT count(*) AS n FROM keys JOIN notes ON notes.id = keys.note_id WHERE notes.text = ?', note)[0]?.n ?? 0,
  );

describe('an act cut short by a crash', () => {
  it('leaves a generate killed before its answer in Activity as unknown', async () => {
    const dir = tempDir('keydesk-audit-');
    let sent!: () => void;
    const applied = new Promise<void>((r) => (sent = r));
    route = (req, pass) => {
      // The sandbox makes the keys; the answer never comes back.
      pass(!req.url.pathname.includes('generate-key'));
      if (req.url.pathname.includes('generate-key')) sent();
    };
    const c = child(dir, 'generate', '1000', 'before answer');
    await applied;
    await relay.settled();
    await c.kill();
    expect(sandboxKeys('before answer')).toBe(1_000);

    const db = new LocalDb(join(dir, 'keydesk.db'), { readOnly: true });
    const { entries } = db.listAudit({ action: 'keys.generate' }, 0, 10);
    db.close();
    expect(entries.map((e) => [e.target, e.outcome, e.message])).toEqual([['1,000 keys: before answer', 'unknown', SENT_NO_ANSWER]]);
  });

  it('counts a bulk act’s unanswered keys as unknown at the next start', async () => {
    const dir = tempDir('keydesk-audit-');
    let extends_ = 0;
    const dropped: string[] = [];
    let firstDropped!: () => void;
    const applied = new Promise<void>((r) => (firstDropped = r));
    route = (req, pass) => {
      // The first ten extends are answered; from then on the sandbox extends the key and the answer is lost.
      const lost = req.url.pathname.includes('expand-expiration') && ++extends_ > 10;
      pass(!lost);
      if (lost) {
        dropped.push(req.url.searchParams.get('keyValue') ?? '');
        firstDropped();
      }
    };
    const c = child(dir, 'extend');
    await applied;
    await relay.settled();
    await c.kill();

    const t = await startTestCore({ userDataDir: dir });
    try {
      const [job] = t.core.db.jobs(t.core.profiles.list().find((p) => p.name === 'Relayed')?.id ?? '');
      if (!job) throw new Error('no job');
      const items = t.core.db.jobItems(job.id, undefined, 0, 100).items;
      const { entries } = await t.must('audit.list', { filter: { action: 'keys.extend' }, offset: 0, limit: 1_000 });
      const count = (state: string) => items.filter((i) => i.state === state).length;
      // Every extend the sandbox applied with its answer lost is unknown, and the act's one entry counts it so.
      expect(items.filter((i) => i.state === 'unknown').map((i) => i.target)).toEqual(expect.arrayContaining(dropped));
      expect(entries).toMatchObject([
        {
          outcome: 'unknown',
          job: {
            id: job.id,
            state: 'interrupted',
            counts: { done: count('done'), unknown: count('unknown'), pending: count('pending'), failed: 0 },
          },
        },
      ]);
      expect(count('unknown')).toBeGreaterThanOrEqual(dropped.length);
    } finally {
      await t.close();
    }
  });

  it('marks a generate killed mid-recording, and finds its keys by note', async () => {
    const dir = tempDir('keydesk-audit-');
    const dbFile = join(dir, 'keydesk.db');
    // Once the generate is on its way, this connection holds keydesk.db's write lock: no key of it is written.
    // The file gets its schema first: an empty keydesk.db is refused at start as damaged.
    new LocalDb(dbFile).close();
    const lock = new DatabaseSync(dbFile, { timeout: 60_000 });
    route = (req, pass) => {
      if (req.url.pathname.includes('generate-key')) lock.exec('BEGIN IMMEDIATE');
      pass();
    };
    const c = child(dir, 'generate', '3000', 'cut short');
    const profileId = (await c.printed(/^profile (\S+)$/m))[1] ?? '';
    await c.printed(/^recording 3000$/m);
    await c.kill();
    lock.exec('ROLLBACK');
    lock.close();
    route = (_req, pass) => {
      pass();
    };

    const t = await startTestCore({ userDataDir: dir });
    try {
      // The key was in the killed process's memory only: entered again, as a person would.
      await t.must('profiles.update', { id: profileId, apiKey: remote.apiKey });
      await t.must('profiles.select', { id: profileId });
      const shown = async () =>
        (await t.must('ledger.query', { filter: { text: 'cut short' }, sort: { field: 'value', dir: 'asc' }, offset: 0, limit: 1 })).total;
      expect(await shown()).toBe(0);
      const [generate, ...more] = (await t.must('ledger.cutShort')).generates;
      expect(more).toEqual([]);
      expect(generate).toMatchObject({ note: 'cut short', count: 3_000 });

      expect(await t.must('ledger.findCutShort', { id: generate?.id ?? '' })).toEqual({ found: 3_000 });
      await t.core.writer.idle();
      expect(await shown()).toBe(3_000);
      expect((await t.must('ledger.cutShort')).generates).toEqual([]);
      // Gone from the folder too: the next start says nothing of it.
      expect(new GenerateMarks(dbFile).cutShort(profileId)).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe('a cut-short generate on a service that sends its best match only', () => {
  it('records what the lookup found and keeps the notice', async () => {
    const real = await startRemoteSandbox({ name: 'Real', identifier: 'real-best' }, { realOnly: true });
    const secrets = new MemorySecretStore();
    const dir = tempDir('keydesk-audit-');
    let t = await startTestCore({ userDataDir: dir, secrets });
    try {
      const profile = await t.must('profiles.add', {
        name: 'Real',
        baseUrl: real.url,
        apiKey: real.apiKey,
        serviceIdentifier: 'real-best',
      });
      await t.must('profiles.select', { id: profile.id });
      // Made on the service only, as a generate whose answer was never recorded.
      const [service] = real.store.inspect('SELECT id FROM services');
      const generate = { count: 3, note: 'best only', expire: '2099-01-31', isPremium: false, expiresByDaysKey: false, daysKey: null };
      real.store.generateKeys(Number(service?.id), generate);
      await t.close();
      mkdirSync(join(dir, 'generate-marks'));
      const id = '0f0e0d0c-0b0a-4908-8706-050403020100';
      writeFileSync(
        join(dir, 'generate-marks', `${id}.json`),
        JSON.stringify({ profileId: profile.id, note: 'best only', count: 3, at: '2026-03-01T10:00:00.000Z' }),
      );
      t = await startTestCore({ userDataDir: dir, secrets });
      expect(await t.must('ledger.findCutShort', { id })).toEqual({ found: 1, bestMatchOnly: true });
      await t.core.writer.idle();
      expect(t.core.db.ledgerValues(profile.id, { text: 'best only' }, 10).values).toHaveLength(1);
      expect((await t.must('ledger.cutShort')).generates.map((g) => g.id)).toEqual([id]);
    } finally {
      await t.close();
      await real.close();
    }
  });
});

describe('an act that ends', () => {
  it('has exactly one entry, settled with its outcome', async () => {
    const t = await startTestCore();
    try {
      const [key] = batchValues((await t.must('keys.generate', { expire: '2099-01-31', count: 1, isPremium: false })).generated);
      if (!key) throw new Error('no key made');
      await t.must('keys.extend', { keyValue: key, days: 3 });
      expect(await t.call('keys.extend', { keyValue: 'KD-NOT-THERE', days: 3 })).toMatchObject({ ok: false });
      const { entries } = await t.must('audit.list', { filter: { action: 'keys.extend' }, offset: 0, limit: 10 });
      expect(entries.map((e) => [e.target, e.outcome])).toEqual([
        ['KD-NOT-THERE', 'failed'],
        [key, 'ok'],
      ]);
      expect(entries[1]?.message).toBe('');
    } finally {
      await t.close();
    }
  });
});
