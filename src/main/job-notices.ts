// Long jobs seen from outside the window: which job's end an OS notification tells, in which words, and the taskbar
// or Dock progress over every running job. Free of Electron; taskbar.ts hands these to the window.
import type { JobSummary } from '../shared/domain.ts';
import { jobTitle } from '../shared/job-words.ts';

/** The bar: `none` clears it; `error` marks a job that failed (until the window is looked at). */
export interface TaskbarProgress {
  mode: 'none' | 'normal' | 'error';
  /** 0 to 1: keys answered of all the running jobs' keys. */
  fraction: number;
}

export interface JobNotice {
  jobId: string;
  title: string;
  body: string;
}

/** Where the notices go: the window's focus, the OS notification and the bar (taskbar.ts in Electron). */
export interface NoticeSink {
  focused(): boolean;
  notify(notice: JobNotice): void;
  progress(progress: TaskbarProgress): void;
}

const n = (v: number): string => v.toLocaleString('en-US');

export const isRunning = (j: JobSummary): boolean => j.finishedAt === null && j.state === 'running';

/** A job that ended with keys not done as asked: it stopped by itself, or some failed or have no known outcome. */
export const endedBadly = (j: JobSummary): boolean => j.state === 'interrupted' || j.counts.failed > 0 || j.counts.unknown > 0;

/** The fraction answered over every running job; `failed`: a job failed since the window was last looked at. */
export function progressOf(running: readonly JobSummary[], failed: boolean): TaskbarProgress {
  const total = running.reduce((sum, j) => sum + j.total, 0);
  if (running.length === 0) return failed ? { mode: 'error', fraction: 1 } : { mode: 'none', fraction: 0 };
  const answered = running.reduce((sum, j) => sum + j.counts.done + j.counts.failed + j.counts.unknown, 0);
  return { mode: failed ? 'error' : 'normal', fraction: total === 0 ? 0 : Math.min(1, answered / total) };
}

/** "Extend by 7 days finished" / "… 998 of 1,000 done, 2 failed, on Acme (production)." */
export function endNotice(j: JobSummary, service: string | null): JobNotice {
  const how =
    j.state === 'cancelled' ? 'cancelled' : j.state === 'interrupted' ? 'stopped' : endedBadly(j) ? 'ended with problems' : 'finished';
  const parts = [`${n(j.counts.done)} of ${n(j.total)} done`];
  if (j.counts.failed > 0) parts.push(`${n(j.counts.failed)} failed`);
  if (j.counts.unknown > 0) parts.push(`${n(j.counts.unknown)} with no known outcome`);
  const why = j.state === 'interrupted' && j.reason ? ` ${j.reason}` : '';
  return {
    jobId: j.id,
    title: `${jobTitle(j)} ${how}`,
    body: `${parts.join(', ')}${service ? ` on ${service}` : ''}.${why} Click to open it in Jobs.`,
  };
}

/** Follows main's job summaries: a notification for each job that ends while the window is not focused, and the bar. */
export class JobNotices {
  private readonly running = new Map<string, JobSummary>();
  private failed = false;
  private readonly sink: NoticeSink;
  private readonly serviceName: (profileId: string) => string | null;

  constructor(sink: NoticeSink, serviceName: (profileId: string) => string | null) {
    this.sink = sink;
    this.serviceName = serviceName;
  }

  heard(j: JobSummary): void {
    if (isRunning(j)) this.running.set(j.id, j);
    else if (this.running.delete(j.id)) {
      if (endedBadly(j)) this.failed = true;
      if (!this.sink.focused()) this.sink.notify(endNotice(j, this.serviceName(j.profileId)));
    } else return;
    this.sink.progress(progressOf([...this.running.values()], this.failed));
  }

  /** The window was looked at: a failure's mark on the bar has been seen. */
  focused(): void {
    if (!this.failed) return;
    this.failed = false;
    this.sink.progress(progressOf([...this.running.values()], false));
  }
}
