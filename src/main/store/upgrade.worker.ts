// The upgrade's thread: keydesk.db brought to this version's schema on a connection of its own, so main's event
// loop stays free to show how far it is (node:sqlite blocks the thread it runs on for the whole transaction).
import { existsSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { upgradeLocalDb } from './local-db.ts';
import { upgradeFailureOf } from './upgrade-failure.ts';
import type { UpgradeMessage, UpgradeWorkerData } from './upgrade.ts';

const port = parentPort;
if (port === null) throw new Error('upgrade.worker.ts runs only as a worker thread.');
const { file, holdFile } = workerData as UpgradeWorkerData;
const post = (message: UpgradeMessage): void => {
  port.postMessage(message);
};

/**
 * Tests only (UpgradeWorkerData's holdFile; never given by a packaged app): the upgrade stops after its first
 * report, inside its transaction, until that file exists, so an end-to-end test surely sees the window say
 * "upgrading" and surely stops the process mid-transaction. Not given, nothing waits. A hold nothing ends still
 * ends after 5 minutes, so a test that forgot it fails on what it checks rather than hanging.
 */
const holdUntilFile = holdFile ?? '';
const HOLD_MAX_MS = 300_000;
function hold(path: string): void {
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  const until = Date.now() + HOLD_MAX_MS;
  // Blocks this thread (the upgrade's), not main's: main goes on answering the window meanwhile.
  while (!existsSync(path) && Date.now() < until) Atomics.wait(sleeper, 0, 0, 50);
}

let held = holdUntilFile === '';
try {
  upgradeLocalDb(file, (progress) => {
    post({ kind: 'progress', progress });
    if (!held) {
      held = true;
      hold(holdUntilFile);
    }
  });
  post({ kind: 'done' });
} catch (error) {
  post({ kind: 'failed', ...upgradeFailureOf(error) });
}
