// The window when Keydesk's own core stops answering it (the harness's process gone; in the app the window goes with
// main): the harness's bridge answers every call "not answering", marked keydeskGone. One truthful state: a banner
// "Keydesk stopped answering" (not the service's name, which was never asked), a running job's line and badge say
// its state is not known, with no Cancel that cannot reach anyone; once Keydesk answers again (here a restarted
// harness refusing this page's old token), the banner asks for a reload, as this window missed what happened.
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { OperationName } from '../../src/shared/contract.ts';
import { OPERATION_NAMES } from '../../src/shared/operations.ts';
import type { Failure } from '../../src/shared/result.ts';
import type { JobSummary } from '../../src/shared/domain.ts';
import { emit, fake, fakeStartedMain, freshStore, remoteProfile, sandboxProfile, useKeydesk } from '../support/fake-bridge.ts';
import { listed } from '../support/fake-jobs.ts';
import { App } from '../../src/renderer/src/App.tsx';

const EXTEND = '11111111-1111-4111-8111-111111111111';
const running: JobSummary = {
  id: EXTEND,
  profileId: remoteProfile.id,
  action: 'extend',
  days: 3,
  note: null,
  state: 'running',
  reason: null,
  createdAt: '2026-01-02T09:50:00.000Z',
  finishedAt: null,
  total: 2_000,
  counts: { pending: 1_708, sent: 4, done: 288, failed: 0, unknown: 0 },
  ratePerSecond: 52,
  etaSeconds: 33,
  concurrency: 4,
  ceiling: 8,
  pausedUntil: null,
  version: 1,
};

/**
 * What the harness's bridge answers every call once its process is gone (loopback-bridge.ts: the page's fetch fails;
 * test/unit/bridge.test.ts proves it answers this).
 */
const GONE: Failure = { ok: false, code: 'NETWORK', message: 'The Keydesk harness is not answering (Failed to fetch).', keydeskGone: true };
/** A new harness run on the same port answers every call, refusing this page's old token. */
const REFUSED: Failure = { ok: false, code: 'FORBIDDEN', message: 'This request did not come from the Keydesk harness page.' };
/** Every operation answers `failure` from now on. */
function everyCallAnswers(failure: Failure): void {
  for (const name of OPERATION_NAMES) (fake.impl as Record<OperationName, () => Promise<Failure>>)[name] = () => Promise.resolve(failure);
}

beforeEach(() => {
  freshStore();
  fakeStartedMain([sandboxProfile, remoteProfile], remoteProfile.id);
  fake.impl['jobs.list'] = () => listed([running]);
  fake.impl['jobs.items'] = () => Promise.resolve({ ok: true, data: { items: [], total: 0 } });
});

describe("the window when Keydesk's own core stops answering", () => {
  it('says Keydesk stopped answering and asks for a reload once back', async () => {
    const user = userEvent.setup();
    render(<App />);
    await screen.findByLabelText('Active service');
    act(() => {
      useKeydesk.getState().setView('jobs');
    });
    await user.click(await screen.findByRole('button', { name: /^Extend by 3 days, started / }));
    const detail = screen.getByRole('region', { name: 'Extend by 3 days' });
    const line = () => within(detail).getAllByRole('status')[0]?.textContent ?? '';
    expect(line()).toMatch(/^Extend by 3 days, running: 288 of 2,000 done/);

    // The harness dies; the next thing the window asks (the Cancel pressed) gets no answer at all.
    everyCallAnswers(GONE);
    await user.click(within(detail).getByRole('button', { name: 'Cancel' }));

    const banner = await screen.findByText('Keydesk stopped answering.');
    expect(banner.closest('[role="alert"]')?.textContent).toMatch(/cannot reach Keydesk itself \(not the service\)/);
    // Not blamed on the service, which no request reached.
    expect(screen.queryByText(/Remote Shop is not answering|Remote Shop refused|did not answer in time/)).toBeNull();
    // Every other alert (the Cancel's own failure, its toast) says the same: Keydesk, not the service.
    const alerts = [...document.querySelectorAll('[role="alert"]')].map((e) => e.textContent);
    expect(
      alerts.filter((a) => !a.includes('Keydesk stopped answering.')).every((a) => a.includes('The Keydesk harness is not answering')),
    ).toBe(true);
    // The job: not "running", not cancellable: its state is not known, with how far it was last seen.
    expect(line()).toBe('Extend by 3 days, state not known: Keydesk stopped answering. Last seen: 288 of 2,000 done.');
    expect(within(detail).queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(within(detail).getByText('State not known')).toBeTruthy();
    expect(screen.queryByText('Running')).toBeNull();

    // A new harness run answers (refusing this page's old token): Keydesk is back, and this window must be reloaded.
    everyCallAnswers(REFUSED);
    expect(await screen.findByText('Keydesk is answering again.', undefined, { timeout: 15_000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    expect(screen.queryByText('Keydesk stopped answering.')).toBeNull();
    // What the window shows of the job is still not known until the reload.
    expect(line()).toBe('Extend by 3 days, state not known: Keydesk stopped answering. Last seen: 288 of 2,000 done.');
    expect(within(detail).queryByRole('button', { name: 'Cancel' })).toBeNull();
  });

  it("says a job's state is not known in All keys and Keys", async () => {
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: [], total: 0, totalCapped: false } });
    const generating: JobSummary = {
      ...running,
      id: '22222222-2222-4222-8222-222222222222',
      action: 'generate',
      days: null,
      total: 150_000,
      counts: { pending: 150_000, sent: 0, done: 0, failed: 0, unknown: 0 },
    };
    render(<App />);
    await screen.findByLabelText('Active service');
    act(() => {
      useKeydesk.getState().setView('ledger');
    });
    // Main's progress events: All keys' bulk job and Keys' generate job run.
    act(() => {
      emit('jobs.progress', running);
      emit('jobs.progress', generating);
    });
    const bulk = () => document.querySelector('.bulk-progress [role="status"]')?.textContent ?? '';
    await waitFor(() => {
      expect(bulk()).toMatch(/^Extend by 3 days, running: 288 of 2,000 done/);
    });
    expect(screen.getAllByRole('button', { name: 'Cancel' }).length).toBeGreaterThan(0);

    // The harness dies; the page asks nothing itself (no click, no view change): the event stream just goes quiet.
    everyCallAnswers(GONE);
    expect(await screen.findByText('Keydesk stopped answering.', undefined, { timeout: 20_000 })).toBeTruthy();
    expect(bulk()).toBe('Extend by 3 days, state not known: Keydesk stopped answering. Last seen: 288 of 2,000 done.');
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    // Keys' Generate says the same of its job.
    act(() => {
      useKeydesk.getState().setView('keys');
    });
    const panel = await screen.findByRole('group', { name: 'Generate job' });
    expect(within(panel).getByRole('status').textContent).toBe(
      'Generate, state not known: Keydesk stopped answering. Last seen: 0 of 150,000 done.',
    );
    // Its bar no longer moves as if the job ran: it stands at what was last seen.
    expect(within(panel).getByLabelText<HTMLProgressElement>('Generate job progress').getAttribute('value')).toBe('0');
    expect(within(panel).queryByRole('button', { name: 'Cancel' })).toBeNull();
    // No word about a Cancel that is not there.
    expect(within(panel).queryByText(/^Cancel stops before the next request/)).toBeNull();
  }, 30_000);

  it('blames no service and runs nothing in Overview and Keys', async () => {
    render(<App />);
    await screen.findByLabelText('Active service');
    act(() => {
      emit('jobs.progress', running);
    });
    everyCallAnswers(GONE);
    await act(async () => {
      await useKeydesk.getState().refreshExecutions();
    });
    expect(await screen.findByText('Keydesk stopped answering.')).toBeTruthy();
    // Overview: the read's failure is Keydesk's; no note that the service "answers again now".
    expect(screen.getAllByText('The Keydesk harness is not answering (Failed to fetch).').length).toBeGreaterThan(0);
    expect(screen.queryByText(/could not be reached; it answers again now/)).toBeNull();
    // Nothing can be sent from here: Push +1 waits, and says for what.
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Push +1' }).disabled).toBe(true);
    expect(screen.getByText('Push waits until Keydesk answers again.')).toBeTruthy();
    // Keys: the bulk job is not said to be running.
    act(() => {
      useKeydesk.getState().setView('keys');
    });
    const note = await screen.findByText(/^The job “Extend by 3 days”/);
    expect(note.textContent).toBe(
      'The job “Extend by 3 days” was running for this profile when Keydesk stopped answering: its state is not known.',
    );
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Generate' }).disabled).toBe(true);
    expect(screen.getByText('Generating waits until Keydesk answers again.')).toBeTruthy();
  }, 30_000);

  it('says how far a generate job got is not known', async () => {
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: [], total: 0, totalCapped: false } });
    const generating: JobSummary = {
      ...running,
      action: 'generate',
      days: null,
      total: 150_000,
      counts: { pending: 150_000, sent: 0, done: 0, failed: 0, unknown: 0 },
    };
    // The generate job is the profile's only one.
    fake.impl['jobs.list'] = () => listed([generating]);
    render(<App />);
    await screen.findByLabelText('Active service');
    act(() => {
      useKeydesk.getState().setView('ledger');
      emit('jobs.progress', generating);
    });
    expect(await screen.findByText(/^A generate job still has 150,000 keys to request/)).toBeTruthy();
    everyCallAnswers(GONE);
    expect(await screen.findByText('Keydesk stopped answering.', undefined, { timeout: 20_000 })).toBeTruthy();
    expect(screen.queryByText(/still has .* to request/)).toBeNull();
    expect(screen.getByText(/^A generate job had 150,000 keys left to request when Keydesk stopped answering/)).toBeTruthy();
  }, 30_000);

  it('does not blame the service for a read Keydesk did not answer', async () => {
    render(<App />);
    await screen.findByLabelText('Active service');
    everyCallAnswers(GONE);
    await act(async () => {
      await useKeydesk.getState().refreshExecutions();
    });
    expect(await screen.findByText('Keydesk stopped answering.')).toBeTruthy();
    expect(useKeydesk.getState().online).toBe(true);
    expect(screen.queryByText(/Remote Shop is not answering/)).toBeNull();
  });
});
