// Overview as a home: the keys' figures each open All keys with their filter, keys per day, the first-run
// checklist ticked as steps are done, what an execution is, and main's samples followed.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { FirstRunStep, OverviewFigures } from '../../src/shared/domain.ts';
import { emit, fake, freshStore, remoteProfile, sandboxProfile, useKeydesk } from '../support/fake-bridge.ts';
import { Overview } from '../../src/renderer/src/views/Overview/Overview.tsx';

vi.mock('../../src/renderer/src/components/HistoryChart.tsx', () => ({
  HistoryChart: () => <p data-testid="chart" />,
}));

const WINDOWS = {
  now: '2026-11-29T12:00:00.000Z',
  in7: '2026-12-06T12:00:00.000Z',
  in30: '2026-12-29T12:00:00.000Z',
  ago7: '2026-11-22T12:00:00.000Z',
  ago30: '2026-10-30T12:00:00.000Z',
};
const FIGURES: OverviewFigures = {
  total: 500,
  active: 210,
  generated: 240,
  deleted: 50,
  expired: 31,
  expiring7: 12,
  expiring30: 44,
  activated7: 9,
  activated30: 63,
  premium: 125,
  newestSeenAt: '2026-11-29T11:58:00.000Z',
  windows: WINDOWS,
};

function answer(figures: OverviewFigures, done: FirstRunStep[] | null): void {
  fake.impl['overview.figures'] = () => Promise.resolve({ ok: true, data: figures });
  fake.impl['overview.activity'] = () =>
    Promise.resolve({
      ok: true,
      data: {
        days: [
          { day: '2026-11-28', activated: 3, generated: 40 },
          { day: '2026-11-29', activated: 6, generated: 0 },
        ],
      },
    });
  fake.impl['overview.firstRun'] = () => Promise.resolve({ ok: true, data: { done } });
}

beforeEach(() => {
  freshStore({ activeProfileId: 'sandbox', profiles: [sandboxProfile] });
});

describe("Overview: the keys' figures", () => {
  it('shows every figure and the premium share', async () => {
    answer(FIGURES, null);
    render(<Overview />);
    const list = await screen.findByRole('list', { name: "Keys' figures" });
    const names = [
      '210 Active: list them in All keys',
      '240 Generated, not activated: list them in All keys',
      '31 Expired: list them in All keys',
      '50 Deleted: list them in All keys',
      '9 Activated, last 7 days: list them in All keys',
      '63 Activated, last 30 days: list them in All keys',
      '12 Expiring, next 7 days: list them in All keys',
      '44 Expiring, next 30 days: list them in All keys',
      '25% Premium (125 of 500): list them in All keys',
    ];
    const buttons = within(list).getAllByRole('button');
    expect(buttons.map((b) => within(list).getByRole('button', { name: names[buttons.indexOf(b)] }))).toEqual(buttons);
  });

  it('opens All keys with the expiring window the figure counted', async () => {
    const user = userEvent.setup();
    answer(FIGURES, null);
    render(<Overview />);
    await user.click(await screen.findByRole('button', { name: /^12 Expiring, next 7 days/ }));
    expect(useKeydesk.getState().view).toBe('ledger');
    expect(useKeydesk.getState().ledgerFilter).toEqual({ span: { of: 'expiresAt', from: WINDOWS.now, to: WINDOWS.in7 } });
  });

  it('opens All keys with the activation window and with premium', async () => {
    const user = userEvent.setup();
    answer(FIGURES, null);
    render(<Overview />);
    await user.click(await screen.findByRole('button', { name: /^63 Activated, last 30 days/ }));
    expect(useKeydesk.getState().ledgerFilter).toEqual({ span: { of: 'activatedAt', from: WINDOWS.ago30 } });
    useKeydesk.setState({ view: 'overview' });
    await user.click(await screen.findByRole('button', { name: /Premium \(125 of 500\)/ }));
    expect(useKeydesk.getState().ledgerFilter).toEqual({ premium: true });
  });

  it("says a remote service's activations are when Keydesk first saw them", async () => {
    freshStore({ activeProfileId: remoteProfile.id, profiles: [sandboxProfile, remoteProfile] });
    answer(FIGURES, null);
    const { unmount } = render(<Overview />);
    await screen.findByRole('list', { name: "Keys' figures" });
    expect(screen.getByText(/^Activated: the activation time the service sends\./).textContent).toContain(
      'when Keydesk first saw the key turn from generated to active',
    );
    unmount();
    freshStore({ activeProfileId: 'sandbox', profiles: [sandboxProfile, remoteProfile] });
    answer(FIGURES, null);
    render(<Overview />);
    await screen.findByRole('list', { name: "Keys' figures" });
    expect(screen.queryByText(/^Activated: the activation time/)).toBeNull();
  });

  it('lists keys per day as a table beside the bars', async () => {
    answer(FIGURES, null);
    render(<Overview />);
    const table = await screen.findByRole('region', { name: 'Keys per day' });
    const rows = within(table)
      .getAllByRole('row')
      .map((r) => r.textContent);
    expect(rows).toEqual(['Day (UTC)ActivatedGenerated', '2026-11-28340', '2026-11-2960']);
  });
});

describe('Overview: the first-run checklist', () => {
  const steps = () =>
    within(screen.getByRole('list', { name: 'Getting started' }))
      .getAllByRole('listitem')
      .map((li) => (li.querySelector('strong')?.textContent ?? '') + (li.dataset.done === 'true' ? ' done' : ''));

  it('ticks the steps done and offers the way to the rest', async () => {
    answer({ ...FIGURES, total: 0 }, ['generate', 'validate']);
    render(<Overview />);
    await screen.findByRole('heading', { name: 'Getting started' });
    expect(steps()).toEqual(['Generate keys done', 'Validate one done', 'Copy a snippet', 'Add your real service']);
    expect(screen.getByRole('button', { name: 'Open Integration' })).toBeTruthy();
  });

  it('is hidden once every step is done', async () => {
    answer(FIGURES, ['generate', 'validate', 'snippet', 'service']);
    render(<Overview />);
    await screen.findByRole('list', { name: "Keys' figures" });
    await waitFor(() => {
      expect(fake.calls.some((c) => c.name === 'overview.firstRun')).toBe(true);
    });
    expect(screen.queryByRole('heading', { name: 'Getting started' })).toBeNull();
  });

  it('is not shown on a profile that held keys before it began', async () => {
    answer(FIGURES, null);
    render(<Overview />);
    await screen.findByRole('list', { name: "Keys' figures" });
    expect(screen.queryByRole('heading', { name: 'Getting started' })).toBeNull();
  });
});

describe('Overview: the execution count', () => {
  it('says what an execution is and what Push +1 does', async () => {
    answer(FIGURES, null);
    render(<Overview />);
    expect((await screen.findByText(/^An execution is/)).textContent).toBe(
      "An execution is one run of your protected app that the service counted: the count is the service's total.",
    );
    expect(screen.getByText(/^Push \+1 adds/).textContent).toBe(
      "Push +1 adds one execution to the service's count, as a run of your app would: a way to see the count move.",
    );
  });

  it("shows main's newer sample of the count as it comes", async () => {
    answer(FIGURES, null);
    fake.impl['executions.get'] = () => Promise.resolve({ ok: true, data: { executionCount: 3, sampledAt: '2026-11-29T12:00:00.000Z' } });
    render(<Overview />);
    await waitFor(() => {
      expect(screen.getByLabelText('Execution count').textContent).toBe('3');
    });
    emit('executions.sampled', { profileId: 'sandbox', at: '2026-11-29T12:01:00.000Z', count: 8 });
    await waitFor(() => {
      expect(screen.getByLabelText('Execution count').textContent).toBe('8');
    });
    // Another profile's sample is not this one's count.
    emit('executions.sampled', { profileId: 'other', at: '2026-11-29T12:02:00.000Z', count: 99 });
    expect(screen.getByLabelText('Execution count').textContent).toBe('8');
  });
});
