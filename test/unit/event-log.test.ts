// The core's events in main's log: the sandbox's state from the start, each job's start and end once, and
// backups that fail.
import { afterEach, describe, expect, it } from 'vitest';
import { logCoreEvents } from '../../src/main/event-log.ts';
import { closeLog, log, openLog } from '../../src/main/log.ts';
import type { JobSummary } from '../../src/shared/domain.ts';
import { tempDir } from '../support/temp-dir.ts';

afterEach(() => closeLog());

describe('event log', () => {
  it("logs the sandbox's state and each job's start and end once", () => {
    const userData = tempDir('keydesk-event-log-');
    openLog(userData, 'start');
    const listeners = new Map<string, (payload: unknown) => void>();
    logCoreEvents({
      sandboxState: () => ({ url: null, running: false, error: 'The local sandbox could not start.' }),
      on: (event, listener) => (listeners.set(event, listener as (p: unknown) => void), () => undefined),
    });
    const job = (state: JobSummary['state'], done: number) =>
      ({ id: 'j1', profileId: 'p1', action: 'delete', total: 3, state, reason: null, counts: { pending: 3 - done, done } }) as unknown;
    listeners.get('sandbox.stateChanged')?.({ url: 'http://127.0.0.1:8787', running: true, error: null });
    listeners.get('jobs.progress')?.(job('running', 0));
    listeners.get('jobs.progress')?.(job('running', 1));
    listeners.get('jobs.progress')?.(job('finished', 3));
    listeners.get('jobs.progress')?.(job('finished', 3));
    listeners.get('backup.changed')?.({ problem: 'The disk is full.' });
    expect(log.current?.tail(10).map((l) => l.slice(25))).toEqual([
      'info  start',
      'warn  sandbox: not running: The local sandbox could not start.',
      'info  sandbox: serving on http://127.0.0.1:8787',
      'info  job j1: delete of 3 key(s) started on profile p1',
      'info  job j1: finished: 3 done',
      'warn  backup: The disk is full.',
    ]);
  });
});
