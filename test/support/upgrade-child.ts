// Upgrades a keydesk.db in its own process and stops dead at a chosen point, for test/main/upgrade.test.ts to
// kill it there: `upgrade-child.ts FILE WORK ROWS` prints each step as JSON and, at the first report of step WORK
// with at least ROWS rows done, prints "stopped" and blocks (inside the upgrade's transaction) until killed.
import { upgradeLocalDb } from '../../src/main/store/local-db.ts';

const [file, work, rows] = process.argv.slice(2);
if (!file || !work || rows === undefined) throw new Error('usage: upgrade-child.ts FILE WORK ROWS');
upgradeLocalDb(file, (progress) => {
  process.stdout.write(`${JSON.stringify(progress)}\n`);
  if (progress.work === work && (progress.done ?? 0) >= Number(rows)) {
    process.stdout.write('stopped\n');
    // Blocks this thread (and the upgrade under way on it) until the test kills the process.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 600_000);
  }
});
process.stdout.write('finished\n');
