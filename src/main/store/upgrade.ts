// Before main opens keydesk.db: an older Keydesk's file is upgraded to this version's schema on a worker thread
// (upgrade.worker.ts), reporting each step, while main's event loop answers the window (src/main/startup.ts).
// The upgrade is one transaction: stopped at any point, the file stays at its old schema, whole, and the next
// start begins it again.
import { Worker } from 'node:worker_threads';
import type { UpgradeProgress } from '../../shared/domain.ts';
import { pendingUpgrade } from './local-db.ts';
import { upgradeFailureOf, upgradeFailureWords } from './upgrade-failure.ts';

/** What the worker posts: a step or rows done, the end, or why it failed. */
export type UpgradeMessage =
  { kind: 'progress'; progress: UpgradeProgress } | { kind: 'done' } | { kind: 'failed'; message: string; errcode: number | null };

/** What the worker is given. */
export interface UpgradeWorkerData {
  file: string;
  /** Tests only: hold the upgrade after its first report, inside its transaction, until this file exists. */
  holdFile?: string;
}

/** The worker's entry: the .ts beside this file in source (node, tests, the harness), the bundled .js in out/main. */
function workerUrl(): URL {
  // A name computed at run time: the bundler must not treat it as an asset to copy (electron.vite.config.ts builds
  // the worker as an entry of its own, out/main/upgrade.worker.js, beside index.js).
  const name = `upgrade.worker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`;
  return new URL(`./${name}`, import.meta.url);
}

/**
 * Upgrades keydesk.db at `file` when it holds an older Keydesk's records; resolves at once when it does not (a
 * current file, a new one). Rejects, saying why, when the upgrade fails (the file is left as it was).
 * `holdFile`: tests only, see UpgradeWorkerData.
 */
export async function upgradeLocalDbFile(file: string, onProgress: (progress: UpgradeProgress) => void, holdFile?: string): Promise<void> {
  if (pendingUpgrade(file) === null) return;
  const workerData: UpgradeWorkerData = holdFile === undefined ? { file } : { file, holdFile };
  const worker = new Worker(workerUrl(), { workerData });
  await new Promise<void>((resolve, reject) => {
    let settled = false;
    const settle = (error: Error | null): void => {
      if (settled) return;
      settled = true;
      if (error) reject(error);
      else resolve();
    };
    worker.on('message', (message: UpgradeMessage) => {
      if (message.kind === 'progress') onProgress(message.progress);
      else settle(message.kind === 'done' ? null : new Error(upgradeFailureWords(message)));
    });
    worker.on('error', (error: unknown) => {
      settle(new Error(upgradeFailureWords(upgradeFailureOf(error))));
    });
    worker.on('exit', (code) => {
      settle(new Error(`Keydesk's upgrade of its local records (keydesk.db) stopped (exit code ${code}). Nothing was changed.`));
    });
  });
  await worker.terminate();
}
