// A Keydesk core in its own process, on a service the test relays (test/main/audit-intent.test.ts kills it with
// SIGKILL mid-act). Usage: audit-child.ts USERDATA_DIR BASE_URL API_KEY MODE, MODE one of:
//   generate COUNT NOTE   generates COUNT keys; prints "recording N" once they are queued for the ledger.
//   extend                generates 40 keys, then extends them in a bulk job; prints "extending".
import { Core } from '../../src/main/core.ts';
import { createHandlers } from '../../src/main/handlers/index.ts';
import { dispatch } from '../../src/main/ipc/dispatch.ts';
import { MemorySecretStore } from '../../src/main/secrets/secret-store.ts';
import type { OperationInput, OperationName, OperationOutput } from '../../src/shared/contract.ts';
import { batchValues } from '../../src/shared/key-batch.ts';
import type { Result } from '../../src/shared/result.ts';

const [dir, baseUrl, apiKey, mode, ...rest] = process.argv.slice(2);
if (!dir || !baseUrl || !apiKey || !mode) throw new Error('usage: audit-child.ts USERDATA_DIR BASE_URL API_KEY MODE ...');
const core = await Core.start({
  userDataDir: dir,
  secrets: new MemorySecretStore(),
  version: 'test',
  sandboxPort: 0,
  askSavePath: () => Promise.resolve(null),
  // Held answers must stay unanswered until the kill, however slow the machine.
  clientOptions: { timeouts: { connectMs: 600_000, headersMs: 600_000, bodyMs: 600_000 }, retryDelaysMs: [] },
});
const handlers = createHandlers(core);
async function must<N extends OperationName>(name: N, input?: OperationInput<N>): Promise<OperationOutput<N>> {
  const r = (await dispatch(handlers, name, input)) as Result<OperationOutput<N>>;
  if (!r.ok) throw new Error(`${name} failed: ${r.code} ${r.message}`);
  return r.data;
}
const profile = await must('profiles.add', { name: 'Relayed', baseUrl, apiKey, serviceIdentifier: 'relayed' });
await must('profiles.select', { id: profile.id });
process.stdout.write(`profile ${profile.id}\n`);

if (mode === 'generate') {
  const [count, note] = rest;
  core.on('ledger.changed', (s) => {
    if (s.recording > 0) process.stdout.write(`recording ${s.recording}\n`);
  });
  await must('keys.generate', { expire: '2099-01-31', count: Number(count), isPremium: false, note: note ?? '' });
} else {
  const made = await must('keys.generate', { expire: '2099-01-31', count: 40, isPremium: false, note: 'bulk' });
  await core.writer.idle();
  await must('jobs.setCeiling', { profileId: profile.id, ceiling: 8 });
  process.stdout.write('extending\n');
  const job = await must('jobs.start', { action: 'extend', days: 30, target: { keyValues: batchValues(made.generated) } });
  await core.jobs.settled(job.id);
}
process.stdout.write('finished\n');
