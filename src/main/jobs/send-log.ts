// Which of a running bulk job's claimed items have gone on the wire. A job claims items in groups (marks them sent
// in keydesk.db, one commit per group, on the job writer's thread) ahead of the requests, so that a request never
// waits for a commit: a slot that frees is filled at once from the items claimed. The rule that an item is never
// sent unless it is recorded first holds here: before a request goes out, its item's number is appended to the
// job's send log (one small write, on main, no wait for another thread). After a crash the next start reads the
// log: an item claimed and in the log may have taken effect (unknown); one claimed and not in it never went out
// (pending again, for a resume). A log names the run it is for (its start time, jobs.run_at): a log left by another
// run of the job is never applied. It outlives Keydesk's process, as keydesk.db's commits do; neither is synced to
// the disk at each write (synchronous = NORMAL), so a power cut may lose the last moments of both.
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';

const SUFFIX = '.sent';
/** A job's id as a file name: the ids Keydesk makes (UUIDs), nothing that could leave the directory. */
const SAFE_ID = /^[A-Za-z0-9-]{1,64}$/;

/** The directory of the send logs of the jobs in `dbFile` (beside it); null for a database with no file. */
export function sendLogDir(dbFile: string): string | null {
  return dbFile === '' || dbFile === ':memory:' ? null : join(dirname(dbFile), 'job-sends');
}

/** One run's log of the items it sent, appended before each request goes out. */
export class SendLog {
  private fd: number | null;
  readonly file: string;

  private constructor(file: string, fd: number) {
    this.file = file;
    this.fd = fd;
  }

  /**
   * Starts the log of the run that began at `run` (jobs.run_at), empty: what an earlier run's log said is in the file
   * by now (LocalDb.settleLeftoverClaims, or the start after a crash).
   */
  static begin(dir: string, jobId: string, run: string): SendLog {
    if (!SAFE_ID.test(jobId)) throw new Error(`A job id that cannot name a file: ${jobId}`);
    if (/[\r\n]/.test(run)) throw new Error('A run that cannot name a log.');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${jobId}${SUFFIX}`);
    const log = new SendLog(file, openSync(file, 'w'));
    try {
      log.write(`run ${run}\n`);
    } catch (error) {
      log.close();
      throw error;
    }
    return log;
  }

  /** Records that these items are about to be sent; throws when it could not (they must not be sent then). */
  record(seqs: readonly number[]): void {
    if (this.fd === null) throw new Error('The send log is closed.');
    if (seqs.length === 0) return;
    // Whole lines only: a line cut short by a crash mid-write was never followed by its request.
    this.write(`${seqs.join('\n')}\n`);
  }

  private write(text: string): void {
    if (this.fd === null) throw new Error('The send log is closed.');
    const bytes = Buffer.from(text, 'latin1');
    for (let at = 0; at < bytes.length;) {
      const wrote = writeSync(this.fd, bytes, at);
      if (wrote <= 0) throw new Error('The send log took no bytes.');
      at += wrote;
    }
  }

  /** Stops writing; the file stays until remove() (the run's end is recorded first). */
  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }
}

/** What a run's log says: the run it is for (jobs.run_at; null when it does not say), and the items it sent. */
export interface SendLogRead {
  run: string | null;
  sent: Set<number>;
}

/** One job's send log, or null when there is none (or it cannot be read: then none of its claims is returned). */
export function readSendLog(dir: string, jobId: string): SendLogRead | null {
  if (!SAFE_ID.test(jobId)) return null;
  let text: string;
  try {
    text = readFileSync(join(dir, `${jobId}${SUFFIX}`), 'latin1');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') console.error("keydesk: a job's send log could not be read:", error);
    return null;
  }
  return parse(text);
}

function parse(text: string): SendLogRead {
  // The last line counts only if it ended: a write the crash cut short had no request after it.
  const lines = text.slice(0, text.lastIndexOf('\n') + 1).split('\n');
  const head = /^run (.+)$/.exec(lines[0] ?? '');
  const sent = new Set<number>();
  for (const line of lines) if (/^\d+$/.test(line)) sent.add(Number(line));
  return { run: head?.[1] ?? null, sent };
}

/** Every send log in `dir`: per job, what its last run's log says (read by a start, after a crash or a quit). */
export function readSendLogs(dir: string): Map<string, SendLogRead> {
  const logs = new Map<string, SendLogRead>();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return logs;
  }
  for (const name of names) {
    if (!name.endsWith(SUFFIX)) continue;
    const jobId = name.slice(0, -SUFFIX.length);
    // Unread, its job's claimed items all count as sent (unknown): never sent again unasked.
    const read = readSendLog(dir, jobId);
    if (read !== null) logs.set(jobId, read);
  }
  return logs;
}

/** Removes jobs' send logs once what they say is in keydesk.db (or no longer matters). */
export function removeSendLogs(dir: string, jobIds: Iterable<string>): void {
  for (const jobId of jobIds) {
    if (!SAFE_ID.test(jobId)) continue;
    try {
      rmSync(join(dir, `${jobId}${SUFFIX}`), { force: true });
    } catch (error) {
      // Left behind, it is read again at the next start, where its job has no claimed items left: harmless.
      console.error("keydesk: a job's send log could not be removed:", error);
    }
  }
}
