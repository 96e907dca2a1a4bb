// Which of a running bulk job's claimed items have gone on the wire. A job claims items in groups (marks them sent
// in keydesk.db, one commit per group, on the job writer's thread) ahead of the requests, so that a request never
// waits for a commit: a slot that frees is filled at once from the items claimed. The rule that an item is never
// sent unless it is recorded first holds here: before a request goes out, its item's number is appended to the
// job's send log (one small write, on main, no wait for another thread). After a crash the next start reads the
// log: an item claimed and in the log may have taken effect (unknown); one claimed and not in it never went out
// (pending again, for a resume). The log is as durable as keydesk.db's commits (synchronous = NORMAL: it outlives
// the process, not the machine losing power).
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

  /** Starts a run's log, empty (a log left by an earlier run was read by the start that followed it). */
  static begin(dir: string, jobId: string): SendLog {
    if (!SAFE_ID.test(jobId)) throw new Error(`A job id that cannot name a file: ${jobId}`);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${jobId}${SUFFIX}`);
    return new SendLog(file, openSync(file, 'w'));
  }

  /** Records that these items are about to be sent; throws when it could not (they must not be sent then). */
  record(seqs: readonly number[]): void {
    if (this.fd === null) throw new Error('The send log is closed.');
    if (seqs.length === 0) return;
    // Whole lines only: a line cut short by a crash mid-write was never followed by its request.
    const bytes = Buffer.from(`${seqs.join('\n')}\n`, 'latin1');
    let at = 0;
    while (at < bytes.length) at += writeSync(this.fd, bytes, at);
  }

  /** Stops writing; the file stays until remove() (the run's end is recorded first). */
  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }
}

/** Every send log in `dir`: per job, the items its last run sent (read by a start, after a crash or a quit). */
export function readSendLogs(dir: string): Map<string, Set<number>> {
  const logs = new Map<string, Set<number>>();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return logs;
  }
  for (const name of names) {
    if (!name.endsWith(SUFFIX)) continue;
    const jobId = name.slice(0, -SUFFIX.length);
    if (!SAFE_ID.test(jobId)) continue;
    let text: string;
    try {
      text = readFileSync(join(dir, name), 'latin1');
    } catch (error) {
      // Unread, its job's claimed items all count as sent (unknown): never sent again unasked.
      console.error("keydesk: a job's send log could not be read:", error);
      continue;
    }
    // The last line counts only if it ended: a write the crash cut short had no request after it.
    const whole = text.slice(0, text.lastIndexOf('\n') + 1);
    const seqs = new Set<number>();
    for (const line of whole.split('\n')) if (/^\d+$/.test(line)) seqs.add(Number(line));
    logs.set(jobId, seqs);
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
