// A job service in its own process, killed with SIGKILL (test/main/jobs-unknown-retry.test.ts) while it sends a
// job's unknown items again. Its fake service answers what Keydesk cannot read at first (every item ends unknown; a
// dropped connection would not do: a job stops sending to a service that drops every one), then
// answers slowly, one at a time. Prints "job <id>", "unknown <n>" once every item is unknown, then "done <n>".
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ServiceClient } from '../../src/main/client/service-client.ts';
import { JobService } from '../../src/main/jobs/job-service.ts';
import { LocalDb } from '../../src/main/store/local-db.ts';

const dir = process.argv[2];
if (!dir) throw new Error('usage: job-retry-child.ts DIR');
let answer = false;
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (!answer) {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><title>Lost</title></html>');
      return;
    }
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true })), 10);
  });
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const client = new ServiceClient({ baseUrl: url, validationUrl: `${url}/v2_validation`, apiKey: 'k' }, { retryDelaysMs: [] });
const db = new LocalDb(join(dir, 'keydesk.db'));
const jobs = new JobService({
  db,
  profile: (id) => ({ id, name: 'Fake', kind: 'remote' }),
  clientFor: () => Promise.resolve(client),
  emit: (s) => {
    if (answer) process.stdout.write(`done ${s.counts.done}\n`);
  },
});
await jobs.setCeiling('p1', 1);
const keys = Array.from({ length: 400 }, (_, i) => `R${String(i).padStart(4, '0')}`);
const started = await jobs.start('p1', { action: 'extend', target: { keyValues: keys }, days: 1 });
if (!started.ok) throw new Error(started.message);
process.stdout.write(`job ${started.data.id}\n`);
await jobs.settled(started.data.id);
process.stdout.write(`unknown ${jobs.get('p1', started.data.id)?.counts.unknown ?? 0}\n`);
answer = true;
const again = await jobs.resume('p1', started.data.id, true);
if (!again.ok) throw new Error(again.message);
await jobs.settled(started.data.id);
process.stdout.write('finished\n');
