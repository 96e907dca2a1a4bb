// One key, one state on a screen: Keys' search rows and open key panel never show a key as it was before a change
// made elsewhere (a real validation in Validate & HWID) without saying they are earlier answers, a later search
// gives the open panel the newer state, and Validate's answer says it is an earlier one once the key was changed
// in Keys.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { JobSummary, Key, ValidationReport } from '../../src/shared/domain.ts';
import { emit, fake, key, readyStore, remoteProfile, sandboxProfile, useKeydesk, validReport } from '../support/fake-bridge.ts';
import { listed } from '../support/fake-jobs.ts';
import { selectJobElsewhere } from '../../src/renderer/src/store/job-selectors.ts';
import { Keys } from '../../src/renderer/src/views/Keys/Keys.tsx';
import { Validate } from '../../src/renderer/src/views/Validate/Validate.tsx';

const KEY = '23ZRN-AAAAA-BBBBB-CCCCC-DDDDD';
const valid: ValidationReport = { ...validReport, message: '', hwid: 'MACHINE-1', notes: '', registeredServiceId: 'shop' };
/** The key as the service holds it now: the fake search answers this. */
let held: Key;

beforeEach(() => {
  readyStore([remoteProfile]);
  useKeydesk.setState({ activeProfileId: 'p2' });
  held = key(KEY, 'generated', { note: 'trial' });
  fake.impl['hwid.read'] = () => Promise.resolve({ ok: true, data: { readings: [] } });
  fake.impl['keys.fetchActive'] = () =>
    Promise.resolve({ ok: true, data: held.status === 'active' ? { keys: [held], total: 1 } : { keys: [], total: 0 } });
  fake.impl['keys.fetchGenerated'] = () =>
    Promise.resolve({ ok: true, data: held.status === 'generated' ? { keys: [held], total: 1 } : { keys: [], total: 0 } });
  fake.impl['validation.run'] = () => {
    held = { ...held, status: 'active', hwid: 'MACHINE-1', activatedAt: '2026-11-23T18:00:00.000Z' };
    return Promise.resolve({ ok: true, data: valid });
  };
  fake.impl['keys.resetHwid'] = () => {
    held = { ...held, hwid: null };
    return Promise.resolve({ ok: true, data: { key: held } });
  };
});

const panel = () => screen.getByRole('complementary', { name: 'Key detail' });
const validateForReal = () =>
  useKeydesk.getState().runValidation({ mode: 'key', keyValue: KEY, hwid: { custom: 'MACHINE-1' }, confirmActivation: true });

describe('Keys after a real validation of a key it shows', () => {
  it('marks the row as an earlier answer until searched again', async () => {
    const user = userEvent.setup();
    render(<Keys />);
    await user.type(screen.getByRole('searchbox', { name: 'Key value, note or HWID' }), 'trial{Enter}');
    await screen.findByRole('button', { name: KEY });

    await validateForReal();
    const table = () => screen.getByRole('table', { name: 'Matching keys' });
    await waitFor(() => {
      expect(within(table()).getByText('⚠ earlier answer')).toBeTruthy();
    });
    expect(screen.getByText(/validated for real in Validate & HWID at .*: its row is from before\./)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Search again' }));
    await waitFor(() => {
      expect(within(table()).queryByText('⚠ earlier answer')).toBeNull();
    });
    expect(within(within(table()).getAllByRole('row')[1]!).getByText('MACHINE-1')).toBeTruthy();
  });

  it('reads the open key again after a real validation of it', async () => {
    const user = userEvent.setup();
    render(<Keys />);
    await user.type(screen.getByRole('searchbox', { name: 'Key value, note or HWID' }), 'trial{Enter}');
    await user.click(await screen.findByRole('button', { name: KEY }));
    await validateForReal();
    await waitFor(() => {
      expect(within(panel()).getByText('MACHINE-1')).toBeTruthy();
    });
    expect(within(panel()).queryByText(/An earlier answer/)).toBeNull();
    expect(within(screen.getByRole('table', { name: 'Matching keys' })).queryByText('⚠ earlier answer')).toBeNull();
  });

  it('gives the open panel the key as a later search read it', async () => {
    const user = userEvent.setup();
    render(<Keys />);
    await user.type(screen.getByRole('searchbox', { name: 'Key value, note or HWID' }), 'trial{Enter}');
    await user.click(await screen.findByRole('button', { name: KEY }));
    expect(within(panel()).queryByText('MACHINE-1')).toBeNull();
    // Activated on the service by someone else; this window knows nothing of it until it searches.
    held = { ...held, status: 'active', hwid: 'MACHINE-1' };
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => {
      expect(within(panel()).getByText('MACHINE-1')).toBeTruthy();
    });
    expect(within(panel()).getByRole('button', { name: 'Reset HWID' }).hasAttribute('disabled')).toBe(false);
  });
});

describe('Validate after the key it answered for was changed in Keys', () => {
  it("marks Validate's answer earlier once the key's HWID was reset", async () => {
    render(<Validate />);
    await validateForReal();
    await screen.findByText('Valid: this machine was let in; the key is now bound to it.');
    expect(screen.queryByText(/An earlier answer/)).toBeNull();

    expect(await useKeydesk.getState().resetHwid(KEY)).toBe(true);
    const note = await screen.findByText(/An earlier answer/);
    expect(note.textContent).toMatch(/this key had its HWID reset in Keys at [^.]*\. Validate again to see it now\.$/);
  });
});

describe('Keys and Validate after a bulk act in All keys on keys they show', () => {
  it('mark answers earlier when a bulk reset of picked keys runs', async () => {
    const user = userEvent.setup();
    const JOB = '0b9f6a0e-5d3c-4f7e-9a51-3c1d2e4f5a6b';
    const summary = (over: Partial<JobSummary>): JobSummary => ({
      id: JOB,
      profileId: 'p2',
      action: 'resetHwid',
      days: null,
      note: null,
      state: 'running',
      reason: null,
      createdAt: '2026-11-23T18:00:00.000Z',
      finishedAt: null,
      total: 1,
      counts: { pending: 1, sent: 0, done: 0, failed: 0, unknown: 0 },
      ratePerSecond: null,
      etaSeconds: null,
      concurrency: 1,
      ceiling: 8,
      pausedUntil: null,
      version: 1,
      ...over,
    });
    fake.impl['jobs.start'] = () => Promise.resolve({ ok: true, data: summary({}) });
    fake.impl['jobs.list'] = () => listed([]);
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: [], total: 0, totalCapped: false } });
    fake.impl['jobs.items'] = () => Promise.resolve({ ok: true, data: { items: [], total: 0 } });
    useKeydesk.getState().followJobs();
    render(
      <>
        <Keys />
        <Validate />
      </>,
    );
    await user.type(screen.getByRole('searchbox', { name: 'Key value, note or HWID' }), 'trial{Enter}');
    await user.click(await screen.findByRole('button', { name: KEY }));
    await validateForReal();
    await waitFor(() => {
      expect(within(panel()).getByText('MACHINE-1')).toBeTruthy();
    });
    expect(screen.queryAllByText(/An earlier answer/)).toHaveLength(0);

    useKeydesk.getState().setSelected([KEY], true);
    await useKeydesk.getState().runBulk('resetHwid');
    await waitFor(() => {
      expect(screen.getAllByText(/this key was in a bulk HWID reset in All keys at/)).toHaveLength(2);
    });
    // Read again while the job still runs: no longer earlier; the job's end makes them so again.
    await user.click(within(panel()).getByRole('button', { name: 'Search again' }));
    await waitFor(() => {
      expect(within(panel()).queryByText(/An earlier answer/)).toBeNull();
    });
    emit(
      'jobs.progress',
      summary({
        state: 'finished',
        finishedAt: '2026-11-23T18:01:00.000Z',
        counts: { pending: 0, sent: 0, done: 1, failed: 0, unknown: 0 },
        version: 2,
      }),
    );
    await waitFor(() => {
      expect(within(panel()).getByText(/this key was in a bulk HWID reset in All keys at/)).toBeTruthy();
    });
  });
});

describe('Keys and Validate after a bulk act in All keys over every key matching a filter', () => {
  const JOB = '5c2d7e1f-8a9b-4c3d-9e0f-1a2b3c4d5e6f';
  const summary = (over: Partial<JobSummary>): JobSummary => ({
    id: JOB,
    profileId: 'p2',
    action: 'extend',
    days: 30,
    note: null,
    state: 'running',
    reason: null,
    createdAt: '2026-11-23T18:00:00.000Z',
    finishedAt: null,
    total: 3,
    counts: { pending: 3, sent: 0, done: 0, failed: 0, unknown: 0 },
    ratePerSecond: null,
    etaSeconds: null,
    concurrency: 1,
    ceiling: 8,
    pausedUntil: null,
    version: 1,
    ...over,
  });
  /** Search and open the key, validate it (not for real), then extend every key the filter matches in All keys. */
  const showThenExtendMatching = async (filter: Parameters<ReturnType<typeof useKeydesk.getState>['setLedgerFilter']>[0]) => {
    const user = userEvent.setup();
    fake.impl['jobs.start'] = () => Promise.resolve({ ok: true, data: summary({}) });
    fake.impl['jobs.list'] = () => listed([]);
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: [], total: 0, totalCapped: false } });
    fake.impl['jobs.items'] = () => Promise.resolve({ ok: true, data: { items: [], total: 0 } });
    fake.impl['validation.run'] = () => Promise.resolve({ ok: true, data: { ...valid, dryRun: true } });
    useKeydesk.getState().followJobs();
    render(
      <>
        <Keys />
        <Validate />
      </>,
    );
    await user.type(screen.getByRole('searchbox', { name: 'Key value, note or HWID' }), 'trial{Enter}');
    await user.click(await screen.findByRole('button', { name: KEY }));
    await useKeydesk.getState().runValidation({ mode: 'key', keyValue: KEY, hwid: { custom: 'MACHINE-1' }, dryRun: true });
    await screen.findByText('Valid: this machine would be let in.');
    expect(screen.queryAllByText(/earlier answer/i)).toHaveLength(0);
    useKeydesk.getState().setLedgerFilter(filter);
    useKeydesk.getState().selectAllMatching();
    await useKeydesk.getState().runBulk('extend', 30);
    return user;
  };

  it('mark answers maybe earlier when the job starts and ends', async () => {
    const user = await showThenExtendMatching({ text: 'batch' });
    await waitFor(() => {
      expect(within(panel()).getByText(/^Maybe an earlier answer/).textContent).toMatch(
        /^Maybe an earlier answer: a bulk extend in All keys ran at [^.]*\. Search again to see it now\.$/,
      );
    });
    expect(within(screen.getByRole('table', { name: 'Matching keys' })).getByText('⚠ may be an earlier answer')).toBeTruthy();
    expect(screen.getByText(/^⚠ A bulk extend in All keys ran at/).textContent).toMatch(/: the row of 1 key shown may be from before\.$/);
    expect(screen.getByText(/^Maybe an earlier answer, from/).textContent).toMatch(
      /: a bulk extend in All keys ran at [^.]*\. Validate again to see it now\.$/,
    );
    // Never said as certain: the window does not know the job's keys.
    expect(screen.queryAllByText(/^An earlier answer/)).toHaveLength(0);

    // Read again while the job runs: no longer earlier; its end may have changed the key again.
    await user.click(within(panel()).getByRole('button', { name: 'Search again' }));
    await waitFor(() => {
      expect(within(panel()).queryByText(/earlier answer/)).toBeNull();
    });
    expect(within(screen.getByRole('table', { name: 'Matching keys' })).queryByText(/earlier answer/)).toBeNull();
    emit(
      'jobs.progress',
      summary({
        state: 'finished',
        finishedAt: '2026-11-23T18:01:00.000Z',
        counts: { pending: 0, sent: 0, done: 3, failed: 0, unknown: 0 },
        version: 2,
      }),
    );
    await waitFor(() => {
      expect(within(panel()).getByText(/^Maybe an earlier answer/)).toBeTruthy();
    });
    expect(within(screen.getByRole('table', { name: 'Matching keys' })).getByText('⚠ may be an earlier answer')).toBeTruthy();
  });

  it('leave Keys unmarked when the key shown cannot match the filter', async () => {
    await showThenExtendMatching({ premium: true });
    await waitFor(() => {
      expect(screen.getByText(/^Maybe an earlier answer, from/)).toBeTruthy();
    });
    expect(within(panel()).queryByText(/earlier answer/)).toBeNull();
    expect(within(screen.getByRole('table', { name: 'Matching keys' })).queryByText(/earlier answer/)).toBeNull();
  });

  it('mark a premium key shown under a premium-only filter', async () => {
    held = { ...held, isPremium: true };
    await showThenExtendMatching({ premium: true });
    await waitFor(() => {
      expect(within(panel()).getByText(/^Maybe an earlier answer/)).toBeTruthy();
    });
  });

  it('mark the open panel when an unknown bulk job is resumed', async () => {
    const user = userEvent.setup();
    // Another job than the tests' above, whose filter this window's store still knows.
    const other = '7e8f9a0b-1c2d-4e3f-8a5b-6c7d8e9f0a1b';
    fake.impl['jobs.resume'] = () => Promise.resolve({ ok: true, data: summary({ id: other, version: 3 }) });
    fake.impl['jobs.items'] = () => Promise.resolve({ ok: true, data: { items: [], total: 0 } });
    render(<Keys />);
    await user.type(screen.getByRole('searchbox', { name: 'Key value, note or HWID' }), 'trial{Enter}');
    await user.click(await screen.findByRole('button', { name: KEY }));
    useKeydesk.setState({
      jobs: { [other]: summary({ id: other, state: 'cancelled', finishedAt: '2026-11-23T18:01:00.000Z', version: 2 }) },
      jobListIds: [other],
    });
    expect(within(panel()).queryByText(/earlier answer/)).toBeNull();
    await useKeydesk.getState().resumeJob(false, other);
    await waitFor(() => {
      expect(within(panel()).getByText(/^Maybe an earlier answer/)).toBeTruthy();
    });
  });

  it("leave another profile's answers alone after a switch", async () => {
    await showThenExtendMatching({ text: 'batch' });
    await waitFor(() => {
      expect(useKeydesk.getState().bulkOverFilter).toHaveLength(1);
    });
    fake.impl['profiles.select'] = () => Promise.resolve({ ok: true, data: sandboxProfile });
    await useKeydesk.getState().selectProfile('sandbox');
    expect(useKeydesk.getState().bulkOverFilter).toEqual([]);
    // The job's end, heard while the other profile is active, marks nothing of it.
    emit(
      'jobs.progress',
      summary({
        state: 'finished',
        finishedAt: '2026-11-23T18:01:00.000Z',
        counts: { pending: 0, sent: 0, done: 3, failed: 0, unknown: 0 },
        version: 2,
      }),
    );
    await waitFor(() => {
      expect(selectJobElsewhere(useKeydesk.getState())).toBeNull();
    });
    expect(useKeydesk.getState().bulkOverFilter).toEqual([]);
  });
});
