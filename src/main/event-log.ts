// Writes the core's events to main's log: the sandbox's state, each job's start and end, and backups that fail.
import type { SandboxState } from '../shared/domain.ts';
import type { Core } from './core.ts';
import { log } from './log.ts';

/** From a core that is up: its sandbox's state now (it started with the core), then every change. */
export function logCoreEvents(core: Pick<Core, 'on' | 'sandboxState'>): void {
  const sandbox = (s: SandboxState): void => {
    if (s.running) log.info(`sandbox: serving on ${s.url ?? '?'}`);
    else log.warn(`sandbox: not running: ${s.error ?? 'no reason was given'}`);
  };
  sandbox(core.sandboxState());
  core.on('sandbox.stateChanged', sandbox);
  const running = new Set<string>();
  core.on('jobs.progress', (job) => {
    if (job.state === 'running') {
      if (!running.has(job.id)) log.info(`job ${job.id}: ${job.action} of ${job.total} key(s) started on profile ${job.profileId}`);
      running.add(job.id);
    } else if (running.delete(job.id)) {
      const counts = Object.entries(job.counts)
        .filter(([, n]) => n > 0)
        .map(([state, n]) => `${n} ${state}`)
        .join(', ');
      log.info(`job ${job.id}: ${job.state}${job.reason ? ` (${job.reason})` : ''}: ${counts || 'no items'}`);
    }
  });
  core.on('backup.changed', ({ problem }) => {
    if (problem) log.warn(`backup: ${problem}`);
  });
}
