// keydesk.db and sandbox.db made ready before the core opens them: a restore asked for, the integrity check, a
// damaged file moved aside, keydesk.db at the schema. A start they stop says so, with what the window can offer.
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { StartOffer } from '../../shared/domain.ts';
import { SANDBOX_DB_FILE } from '../../sandbox/paths.ts';
import { diskFullWords, isDiskFull } from '../failures.ts';
import { listBackups, RestoreRefused, restoreBackup, takeRestoreRequest } from './backup.ts';
import { setAside, type CheckAnswer } from './integrity.ts';
import { LocalDb } from './local-db.ts';
import { LocalDbRefused } from './schema.ts';
import { logWorkerOutput, THREAD_STDERR } from '../worker-output.ts';

export const LOCAL_DB_FILE = 'keydesk.db';

/** A start keydesk.db or sandbox.db stopped, in words, with the newest backup or a new start to offer. */
export class StartRefused extends Error {
  readonly offer: StartOffer;
  constructor(message: string, offer: StartOffer) {
    super(message);
    this.name = 'StartRefused';
    this.offer = offer;
  }
}

/**
 * Puts `restore` (or the backup Help › Restore asked for) in place, checks both files (off main's thread), moves
 * a damaged one aside, and brings keydesk.db to the schema. Throws StartRefused when the start cannot go on.
 */
export async function prepareStoreFiles(userDataDir: string, restore: string | null, now: Date): Promise<void> {
  const file = join(userDataDir, LOCAL_DB_FILE);
  const newest = () => listBackups(userDataDir)[0] ?? null;
  try {
    const wanted = restore ?? takeRestoreRequest(userDataDir);
    if (wanted !== null) putBackupInPlace(userDataDir, wanted, now);
    const [ledger, sandbox] = await checkFiles([file, join(userDataDir, SANDBOX_DB_FILE)]);
    const words: string[] = [];
    if (ledger) {
      const aside = setAside(file, 'damaged', now);
      words.push(`keydesk.db, Keydesk's record of your keys, is damaged: ${ledger}. It was moved aside as ${aside} in ${userDataDir}.`);
    }
    if (sandbox) {
      const aside = setAside(join(userDataDir, SANDBOX_DB_FILE), 'damaged', now);
      words.push(
        `The local sandbox's database, ${SANDBOX_DB_FILE}, is damaged: ${sandbox}. It was moved aside as ${aside}; a new start gives the sandbox a new, empty one.`,
      );
    }
    if (words.length > 0) throw new StartRefused(words.join(' '), { backup: ledger ? newest() : null, startAgain: true });
    new LocalDb(file).close();
  } catch (error) {
    if (error instanceof StartRefused) throw error;
    if (error instanceof LocalDbRefused) throw new StartRefused(error.message, { backup: newest(), startAgain: false });
    if (isDiskFull(error))
      throw new StartRefused(`Keydesk could not prepare its records: ${diskFullWords(userDataDir)}. Free some space, then start again.`, {
        backup: null,
        startAgain: true,
      });
    throw error;
  }
}

/** restoreBackup, its failure said in words with a new start to offer (the file in place is untouched then). */
function putBackupInPlace(userDataDir: string, name: string, now: Date): void {
  try {
    console.warn(`keydesk: ${restoreBackup(userDataDir, name, now)}`);
  } catch (error) {
    if (isDiskFull(error)) throw error;
    console.error(`keydesk: the backup ${name} could not be restored:`, error);
    const code = (error as { code?: unknown } | null)?.code;
    const why = error instanceof RestoreRefused ? error.message : `the system refused${typeof code === 'string' ? ` (${code})` : ''}`;
    throw new StartRefused(`The backup ${name} could not be restored: ${why}.`, { backup: null, startAgain: true });
  }
}

/** damageOf for each file, on a thread of its own: quick_check reads every page (seconds at a million keys). */
function checkFiles(files: string[]): Promise<(string | null)[]> {
  // The .ts beside this file in source (tests, the harness), the bundled .js beside index.js in out/main (this
  // file is bundled into index.js; integrity.ts, shared with the worker, is not: electron.vite.config.ts).
  const name = `check.worker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`;
  const worker = new Worker(new URL(`./${name}`, import.meta.url), { ...THREAD_STDERR, workerData: files });
  logWorkerOutput(worker, 'integrity check');
  return new Promise((resolve, reject) => {
    worker.once('message', (answers: CheckAnswer[]) => {
      const failed = answers.find((a) => 'error' in a);
      if (failed) reject(new Error(`The integrity check could not read a file: ${failed.error}`));
      else resolve(answers.map((a) => ('damage' in a ? a.damage : null)));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      reject(new Error(`The integrity check stopped (exit code ${code}).`));
    });
  });
}
