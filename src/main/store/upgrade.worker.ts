// The upgrade's thread: keydesk.db brought to this version's schema on a connection of its own, so main's event
// loop stays free to show how far it is (node:sqlite blocks the thread it runs on for the whole transaction).
import { parentPort, workerData } from 'node:worker_threads';
import { upgradeLocalDb } from './local-db.ts';
import { upgradeFailureOf } from './upgrade-failure.ts';
import type { UpgradeMessage } from './upgrade.ts';

const port = parentPort;
if (port === null) throw new Error('upgrade.worker.ts runs only as a worker thread.');
const { file } = workerData as { file: string };
const post = (message: UpgradeMessage): void => {
  port.postMessage(message);
};
try {
  upgradeLocalDb(file, (progress) => {
    post({ kind: 'progress', progress });
  });
  post({ kind: 'done' });
} catch (error) {
  post({ kind: 'failed', ...upgradeFailureOf(error) });
}
