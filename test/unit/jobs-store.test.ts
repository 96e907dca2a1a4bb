// The jobs store: the jobs a reloaded window finds, and what a crash, kill or quit leaves of a running job (its
// end, its claimed items, the send log of its own run).
import { describe, expect, it } from 'vitest';
import { LocalDb, type SettleBatch } from '../../src/main/store/local-db.ts';
import { PROFILE } from '../support/ledger-model.ts';

describe('the jobs a window finds after a reload', () => {
  it('lists the 20 newest and every running or interrupted job, per profile', () => {
    const db = new LocalDb(':memory:');
    const at = (minute: number): string => new Date(Date.UTC(2026, 10, 23, 6, minute)).toISOString();
    const make = (id: string, minute: number, profileId = PROFILE): void => {
      db.createJob({ id, profileId, action: 'extend', params: '{"days":1}', createdAt: at(minute) }, { keyValues: ['K-1'] });
      db.setJobState(id, 'finished', null, at(minute));
    };
    make('old-interrupted', 0);
    make('old-running', 1);
    make('old-cancelled', 2);
    for (let i = 0; i < 25; i++) make(`finished-${String(i)}`, 10 + i);
    make('elsewhere', 3, 'another-profile');
    db.setJobState('old-interrupted', 'interrupted', 'Keydesk stopped while this job ran.', at(5));
    db.setJobState('old-running', 'running', null, null);
    db.setJobState('old-cancelled', 'cancelled', null, at(5));
    db.setJobState('elsewhere', 'interrupted', 'Keydesk stopped while this job ran.', at(5));

    const ids = db.jobs(PROFILE).map((j) => j.id);
    expect(ids).toEqual([...Array.from({ length: 20 }, (_, i) => `finished-${String(24 - i)}`), 'old-running', 'old-interrupted']);
    db.close();
  });
});

describe('a job Keydesk stopped under (a crash, a kill)', () => {
  const at = (minute: number): string => new Date(Date.UTC(2026, 10, 20, 14, minute)).toISOString();
  const answers = (jobId: string, seq: number, state: 'done' | 'pending'): SettleBatch => ({
    jobId,
    profileId: PROFILE,
    items: [{ seq, state, code: null, message: null }],
    seenKeys: [],
    deletedValues: [],
  });
  const make = (db: LocalDb, id: string): void => {
    db.createJob({ id, profileId: PROFILE, action: 'delete', params: '{}', createdAt: at(0) }, { keyValues: ['K-1', 'K-2', 'K-3'] });
  };

  it("ends at its last answers written, else at its run's start", () => {
    const db = new LocalDb(':memory:');
    make(db, 'answered');
    db.beginJobRun('answered', at(1));
    db.jobStep(null, { jobId: 'answered', max: 3 });
    db.settleJobItems(answers('answered', 1, 'done'), at(2));
    db.settleJobItems(answers('answered', 2, 'done'), at(4));
    // A request refused unsent (put back pending) is no answer.
    db.settleJobItems(answers('answered', 3, 'pending'), at(5));
    make(db, 'silent');
    db.beginJobRun('silent', at(3));
    db.jobStep(null, { jobId: 'silent', max: 1 });
    // Created, never run: its creation is the last thing known.
    make(db, 'never-run');

    expect(db.interruptRunningJobs('Keydesk stopped while this job ran.').sort()).toEqual(['answered', 'never-run', 'silent']);
    expect(db.job('answered')).toMatchObject({ state: 'interrupted', finishedAt: at(4), answeredAt: at(4), runAt: at(1), endUnseen: true });
    expect(db.job('silent')).toMatchObject({ state: 'interrupted', finishedAt: at(3), answeredAt: null, runAt: at(3), endUnseen: true });
    expect(db.job('never-run')).toMatchObject({ state: 'interrupted', finishedAt: at(0), answeredAt: null, runAt: at(0), endUnseen: true });
    expect(db.jobItems('answered', 'unknown', 0, 10).total).toBe(0);
    expect(db.jobItems('silent', 'unknown', 0, 10).total).toBe(1);

    // A quit that records it says when it stopped, seen; a run begun again forgets the last one's answers.
    db.beginJobRun('answered', at(10));
    expect(db.job('answered')).toMatchObject({ state: 'running', finishedAt: null, answeredAt: null, runAt: at(10), endUnseen: false });
    db.interruptRunningJobs('Keydesk quit while this job ran.', at(11));
    expect(db.job('answered')).toMatchObject({ state: 'interrupted', finishedAt: at(11), endUnseen: false });
    db.close();
  });

  it("dates a quit's end no earlier than answers written in its grace", () => {
    const db = new LocalDb(':memory:');
    make(db, 'late-answers');
    db.beginJobRun('late-answers', at(1));
    db.jobStep(null, { jobId: 'late-answers', max: 2 });
    // The quit began at 14:10; an answer on the wire came back in its grace, at 14:11.
    db.settleJobItems(answers('late-answers', 1, 'done'), at(11));
    make(db, 'quiet');
    db.beginJobRun('quiet', at(1));
    db.settleJobItems(answers('quiet', 1, 'done'), at(5));
    // Ended (cancelled) on screen; its last answers are written, its end not yet.
    make(db, 'shown-cancelled');
    db.beginJobRun('shown-cancelled', at(1));
    db.jobStep(null, { jobId: 'shown-cancelled', max: 2 });
    db.settleJobItems(answers('shown-cancelled', 1, 'done'), at(7));
    const end = { jobId: 'shown-cancelled', state: 'cancelled' as const, reason: null, finishedAt: at(8) };

    expect(db.interruptRunningJobs('Keydesk quit while this job ran.', at(10), [end]).sort()).toEqual(['late-answers', 'quiet']);
    expect(db.job('late-answers')).toMatchObject({ state: 'interrupted', finishedAt: at(11), answeredAt: at(11), endUnseen: false });
    expect(db.job('quiet')).toMatchObject({ state: 'interrupted', finishedAt: at(10), endUnseen: false });
    expect(db.job('shown-cancelled')).toMatchObject({ state: 'cancelled', reason: null, finishedAt: at(8), endUnseen: false });
    expect(db.jobCounts('shown-cancelled')).toMatchObject({ done: 1, unknown: 1, pending: 1, sent: 0 });
    // An end already written (by the job writer, late) is not written again.
    db.interruptRunningJobs('Keydesk quit while this job ran.', at(12), [{ ...end, state: 'finished' }]);
    expect(db.job('shown-cancelled')).toMatchObject({ state: 'cancelled' });
    db.close();
  });

  /**
   * A job of six keys whose first run left K-5 and K-6 unknown; its second run (begun at(4), the user chose to send
   * those again) claimed all six ahead of its requests: 1 was answered, 2 and 5 went out with no answer recorded,
   * 3, 4 and 6 were never sent.
   */
  const claimedAheadByARetryRun = (): LocalDb => {
    const db = new LocalDb(':memory:');
    db.createJob(
      { id: 'j', profileId: PROFILE, action: 'delete', params: '{}', createdAt: at(0) },
      { keyValues: ['K-1', 'K-2', 'K-3', 'K-4', 'K-5', 'K-6'] },
    );
    db.beginJobRun('j', at(1));
    db.jobStep(null, { jobId: 'j', max: 6 });
    db.settleJobItems(
      {
        ...answers('j', 5, 'done'),
        items: [5, 6].map((seq) => ({ seq, state: 'unknown' as const, code: 'OUTCOME_UNKNOWN' as const, message: 'No answer.' })),
      },
      at(2),
    );
    db.settleJobItems(
      { ...answers('j', 1, 'pending'), items: [1, 2, 3, 4].map((seq) => ({ seq, state: 'pending' as const, code: null, message: null })) },
      at(2),
    );
    db.endJobRun('j', 'interrupted', 'stopped', at(3));
    db.beginJobRun('j', at(4));
    db.approveUnknownJobItems('j');
    expect(db.jobStep(null, { jobId: 'j', max: 6, retry: true }).map((i) => i.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    db.settleJobItems(answers('j', 1, 'done'), at(5));
    return db;
  };

  it('shows claimed, unsent items as before the claim while running', () => {
    const db = claimedAheadByARetryRun();
    // While it runs, the screen's view: what went out is sent, what did not is as before the claim.
    const shown = (state: 'pending' | 'sent' | 'unknown' | 'done'): number[] =>
      db.jobItems('j', state, 0, 10, false, [3, 4, 6]).items.map((i) => i.seq);
    expect({ pending: shown('pending'), sent: shown('sent'), unknown: shown('unknown'), done: shown('done') }).toEqual({
      pending: [3, 4],
      sent: [2, 5],
      unknown: [6],
      done: [1],
    });
    expect(db.jobItems('j', undefined, 0, 10, false, [3, 4, 6]).items.map((i) => i.state)).toEqual([
      'done',
      'sent',
      'pending',
      'pending',
      'sent',
      'unknown',
    ]);
    // Without the run's list (the file alone), every claimed item reads sent.
    expect(db.jobItems('j', 'sent', 0, 10).total).toBe(5);
    db.close();
  });

  it("never applies another run's send log to this run's claims", () => {
    const db = claimedAheadByARetryRun();
    // Killed here; the next start reads the log (1, 2 and 5: logged before each went out).
    // A log another run left (an older one) is never applied to this run's claims.
    const run = db.job('j')?.runAt ?? null;
    expect(run).toBe(at(4));
    db.interruptRunningJobs('Keydesk stopped while this job ran.', undefined, [], new Map([['j', { run: at(1), sent: new Set([1]) }]]));
    expect(db.jobItems('j', 'unknown', 0, 10).items.map((i) => i.seq)).toEqual([2, 3, 4, 5, 6]);
    db.close();
  });

  it("applies its own run's send log: logged claims unknown, the rest kept", () => {
    const db = claimedAheadByARetryRun();
    db.interruptRunningJobs(
      'Keydesk stopped while this job ran.',
      undefined,
      [],
      new Map([['j', { run: at(4), sent: new Set([1, 2, 5]) }]]),
    );
    const items = db.jobItems('j', undefined, 0, 10).items;
    expect(items.map((i) => [i.seq, i.state, i.code])).toEqual([
      [1, 'done', null],
      [2, 'unknown', 'OUTCOME_UNKNOWN'],
      [3, 'pending', null],
      [4, 'pending', null],
      [5, 'unknown', 'OUTCOME_UNKNOWN'],
      [6, 'unknown', 'OUTCOME_UNKNOWN'],
    ]);
    // The one re-sent with no answer says so; the one the run never re-sent keeps its earlier words.
    expect(items[4]?.message).toBe('Sent when Keydesk stopped; no answer was recorded. It may or may not have taken effect.');
    expect(items[5]?.message).toBe('No answer.');
    db.close();
  });
});
