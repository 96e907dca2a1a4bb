// The writes main waits on (a job's claims, answers and ends; audit entries, samples, marks): each resolves once
// committed, or rejects in SQLite's words; the thread's death or a quit rejects every one in flight.
import type { CommandAnswer, JobCommand } from './writer-protocol.ts';

/** A job write refused: `errcode` (SQLite's) and `path` (keydesk.db) let the words name a full disk and its folder. */
export class WriteRefused extends Error {
  readonly errcode: number | null;
  readonly path: string | undefined;
  constructor(message: string, errcode: number | null = null, path?: string) {
    super(message);
    this.name = 'WriteRefused';
    this.errcode = errcode;
    this.path = path;
  }
}

/** Commands served before the next ordered message: a job's claims keep its slots full; the rest touch no ledger row. */
export const URGENT = new Set<JobCommand['kind']>([
  'claim',
  'audit',
  'settleAudit',
  'sample',
  'ceiling',
  'runAlive',
  'firstRunStep',
  'renewalTemplate',
]);
/** Commands that mark rows: posted after the ledger rows queued before them, whose descriptions would clear the marks. */
export const MARKING = new Set<JobCommand['kind']>(['markStale', 'settle', 'end']);
/** A job's writes while it runs: refused once the job service has closed (closeJobs()). */
export const JOB_WRITES = new Set<JobCommand['kind']>(['claim', 'settle', 'end']);
/** A command's fields, less the id and kind the writer gives it. */
export type CommandFields<K extends JobCommand['kind']> = Omit<Extract<JobCommand, { kind: K }>, 'command' | 'kind'>;

interface Waiting {
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

export class JobCommands {
  private readonly file: string;
  private next = 1;
  private readonly waiting = new Map<number, Waiting>();
  private idleWaiters: (() => void)[] = [];

  constructor(file: string) {
    this.file = file;
  }

  get size(): number {
    return this.waiting.size;
  }

  /** Whether the command is still waiting for its answer (not answered, nor refused). */
  has(command: number): boolean {
    return this.waiting.has(command);
  }

  /** Posts the command `make` builds with `send`, and waits for the thread's answer. */
  post(send: (c: JobCommand) => void, make: (command: number) => JobCommand): Promise<unknown> {
    const command = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(command, { resolve, reject });
      send(make(command));
    });
  }

  answer(a: CommandAnswer): void {
    const w = this.waiting.get(a.command);
    if (!w) return;
    this.waiting.delete(a.command);
    if (a.ok) w.resolve(a.result);
    else {
      console.error('keydesk: a write failed:', a.message);
      w.reject(new WriteRefused(a.message, a.errcode, this.file));
    }
    this.whenIdle();
  }

  refuseAll(why: string): void {
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const w of waiting) w.reject(new Error(why));
    this.whenIdle();
  }

  /** Resolves when every command posted so far has been answered. */
  idle(): Promise<void> {
    if (this.waiting.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private whenIdle(): void {
    if (this.waiting.size > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}
