// A Keydesk core in its own process, running one bulk delete job slowly enough to be killed mid-way
// (test/main/jobs-crash.test.ts sends it SIGKILL). Prints "job <id>" and then "done <n>" as items finish.
import { Core, SANDBOX_PROFILE_ID } from '../../src/main/core.ts';
import { MemorySecretStore } from '../../src/main/secrets/secret-store.ts';

const dir = process.argv[2];
if (!dir) throw new Error('usage: job-child.ts USERDATA_DIR');
const core = await Core.start({
  userDataDir: dir,
  secrets: new MemorySecretStore(),
  version: 'test',
  sandboxPort: 0,
  askSavePath: () => Promise.resolve(null),
});
const made = await core.jobs.start(SANDBOX_PROFILE_ID, {
  action: 'generate',
  count: 2_000,
  expire: '2099-01-01',
  isPremium: false,
  note: 'crash test',
});
if (!made.ok) throw new Error(made.message);
await core.jobs.settled(made.data.id);
// A generate job's keys go to the ledger writer: read them once it has recorded them.
await core.writer.idle();
const keys = core.db.ledgerValues(SANDBOX_PROFILE_ID, { text: 'crash test' }, 5_000).values;
// One in flight: slow enough that the kill lands mid-job, on a request or between two.
await core.jobs.setCeiling(SANDBOX_PROFILE_ID, 1);
core.on('jobs.progress', (s) => {
  if (s.id !== made.data.id) process.stdout.write(`done ${s.counts.done}\n`);
});
const started = await core.jobs.start(SANDBOX_PROFILE_ID, { action: 'delete', target: { keyValues: keys } });
if (!started.ok) throw new Error(started.message);
process.stdout.write(`job ${started.data.id}\n`);
await core.jobs.settled(started.data.id);
process.stdout.write('finished\n');
