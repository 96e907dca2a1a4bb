// The Overview's figures agree with each other: the change over the range ends at the headline count, and a push
// reads the history again, and waits while offline. The chart is uPlot on a canvas, which jsdom cannot draw: here a
// stand-in lists what it was given (its axes are tested in history-chart.test.tsx, its drawing in e2e).
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fake, freshStore, latestOf, sandboxProfile, useKeydesk } from '../support/fake-bridge.ts';
import { Overview } from '../../src/renderer/src/views/Overview/Overview.tsx';

vi.mock('../../src/renderer/src/components/HistoryChart.tsx', () => ({
  HistoryChart: ({ buckets }: { buckets: readonly { total: number }[] }) => (
    <p data-testid="chart">{buckets.map((b) => b.total).join(',')}</p>
  ),
}));

beforeEach(() => {
  freshStore({ activeProfileId: 'sandbox', profiles: [sandboxProfile] });
});

describe('Overview: the chart and the headline agree', () => {
  const sample = (at: string, count: number) => ({ at, min: count, max: count });
  it('updates the change with the headline after a push', async () => {
    const user = userEvent.setup();
    let history = [sample('2026-11-23T10:00:00.000Z', 10), sample('2026-11-23T10:05:00.000Z', 12)];
    fake.impl['executions.get'] = () => Promise.resolve({ ok: true, data: { executionCount: 12, sampledAt: '2026-11-23T10:05:00.000Z' } });
    fake.impl['executions.history'] = () =>
      Promise.resolve({ ok: true, data: { buckets: history, samples: history.length, latest: latestOf(history) } });
    fake.impl['executions.push'] = () => {
      history = [...history, sample('2026-11-23T10:06:00.000Z', 13)];
      return Promise.resolve({ ok: true, data: { executionCount: 13, sampledAt: '2026-11-23T10:06:00.000Z' } });
    };
    render(<Overview />);
    // Samples over 5 minutes of the last 24 hours: the change is since the first of them, not over the whole range.
    expect((await screen.findByText(/^Change since/)).textContent).toBe('Change since the first sample in the range: +2');
    const reads = () => fake.calls.filter((c) => c.name === 'executions.history').length;
    const before = reads();
    await user.click(screen.getByRole('button', { name: 'Push +1' }));
    await waitFor(() => {
      expect(screen.getByText(/^Change since/).textContent).toBe('Change since the first sample in the range: +3');
    });
    await waitFor(() => {
      expect(reads()).toBeGreaterThan(before);
    });
    await waitFor(() => {
      expect(screen.getByTestId('chart').textContent).toBe('10,12,13');
    });
  });
});

describe('Overview: "Read at" is the time of the count shown', () => {
  const readAt = (container: HTMLElement) =>
    container.querySelector('[aria-label="Execution count"] + p.muted time')?.getAttribute('datetime');
  it("moves the count and its time together on a push's answer", async () => {
    const user = userEvent.setup();
    fake.impl['executions.get'] = () => Promise.resolve({ ok: true, data: { executionCount: 3, sampledAt: '2026-11-23T17:55:47.000Z' } });
    fake.impl['executions.history'] = () => Promise.resolve({ ok: true, data: { buckets: [], samples: 0, latest: null } });
    fake.impl['executions.push'] = () => Promise.resolve({ ok: true, data: { executionCount: 4, sampledAt: '2026-11-23T17:55:52.000Z' } });
    const { container } = render(<Overview />);
    await waitFor(() => {
      expect(readAt(container)).toBe('2026-11-23T17:55:47.000Z');
    });
    await user.click(screen.getByRole('button', { name: 'Push +1' }));
    await waitFor(() => {
      expect(screen.getByLabelText('Execution count').textContent).toBe('4');
    });
    expect(readAt(container)).toBe('2026-11-23T17:55:52.000Z');
  });

  it('keeps the earlier count, said so, when a push returns no total', async () => {
    const user = userEvent.setup();
    fake.impl['executions.get'] = () => Promise.resolve({ ok: true, data: { executionCount: 3, sampledAt: '2026-11-23T17:55:47.000Z' } });
    fake.impl['executions.history'] = () => Promise.resolve({ ok: true, data: { buckets: [], samples: 0, latest: null } });
    fake.impl['executions.push'] = () => Promise.resolve({ ok: true, data: { executionCount: null, sampledAt: null } });
    const { container } = render(<Overview />);
    await waitFor(() => {
      expect(readAt(container)).toBe('2026-11-23T17:55:47.000Z');
    });
    await user.click(screen.getByRole('button', { name: 'Push +1' }));
    const note = await screen.findByText(/before the last push/);
    expect(note.textContent).toMatch(/^Read at .+, before the last push: the new count is read in a few seconds\.$/);
    expect(screen.getByLabelText('Execution count').className).toContain('stale');
  });
});

describe('Overview: a push in flight', () => {
  it('says Counting… and takes no second push until the answer', async () => {
    const user = userEvent.setup();
    let answer: () => void = () => undefined;
    fake.impl['executions.get'] = () => Promise.resolve({ ok: true, data: { executionCount: 6, sampledAt: '2026-11-23T17:55:47.000Z' } });
    fake.impl['executions.history'] = () => Promise.resolve({ ok: true, data: { buckets: [], samples: 0, latest: null } });
    fake.impl['executions.push'] = () =>
      new Promise((resolve) => {
        answer = () => {
          resolve({ ok: true, data: { executionCount: 7, sampledAt: '2026-11-23T17:55:52.000Z' } });
        };
      });
    render(<Overview />);
    await screen.findByText('6');
    await user.click(screen.getByRole('button', { name: 'Push +1' }));
    const busy = await screen.findAllByRole('button', { name: 'Counting…' });
    expect(busy.every((b) => (b as HTMLButtonElement).disabled)).toBe(true);
    await user.click(busy[0] as HTMLElement);
    void useKeydesk.getState().pushExecution();
    answer();
    await screen.findByRole('button', { name: 'Push +1' });
    expect(fake.calls.filter((c) => c.name === 'executions.push')).toHaveLength(1);
  });
});

describe('Overview: history that covers only part of the range (a first run, or a service added lately)', () => {
  const sample = (at: string, count: number) => ({ at, min: count, max: count });
  const serve = (history: { at: string; min: number; max: number }[], readAt: string, count: number) => {
    fake.impl['executions.get'] = () => Promise.resolve({ ok: true, data: { executionCount: count, sampledAt: readAt } });
    fake.impl['executions.history'] = () =>
      Promise.resolve({ ok: true, data: { buckets: history, samples: history.length, latest: latestOf(history) } });
  };

  it('with one sample, says there is no history yet', async () => {
    serve([sample('2026-11-23T04:30:32.000Z', 0)], '2026-11-23T04:30:32.000Z', 0);
    render(<Overview />);
    expect(await screen.findByText('No history in this range yet')).toBeTruthy();
    expect(screen.getByText(/^One sample so far: 0 at/)).toBeTruthy();
    expect(screen.getByText(/A longer range may hold earlier samples\./)).toBeTruthy();
    expect(screen.queryByTestId('chart')).toBeNull();
  });

  it('with one sample, gives no change', async () => {
    serve([sample('2026-11-23T04:30:32.000Z', 0)], '2026-11-23T04:30:32.000Z', 0);
    render(<Overview />);
    expect(await screen.findByText('No history in this range yet')).toBeTruthy();
    expect(screen.queryByText(/^Change (since|over)/)).toBeNull();
  });

  it('with unmoved reads seconds apart, says there is no history yet', async () => {
    serve(
      [sample('2026-11-23T04:30:32.000Z', 0), sample('2026-11-23T04:30:32.400Z', 0), sample('2026-11-23T04:30:37.000Z', 0)],
      '2026-11-23T04:30:37.000Z',
      0,
    );
    render(<Overview />);
    expect(await screen.findByText('No history in this range yet')).toBeTruthy();
    expect(screen.getByText(/^3 samples so far, all 0, since/)).toBeTruthy();
    expect(screen.queryByTestId('chart')).toBeNull();
    expect(screen.queryByText(/^Change (since|over)/)).toBeNull();
  });

  it('with recent samples that changed, draws them and notes nothing before', async () => {
    serve([sample('2026-11-23T04:30:32.000Z', 0), sample('2026-11-23T04:30:37.000Z', 2)], '2026-11-23T04:30:37.000Z', 2);
    render(<Overview />);
    expect((await screen.findByTestId('chart')).textContent).toBe('0,2');
    // The range starts at its first sample, said as such: not "no samples", which later samples would belie.
    const note = screen.getByText(/^The last 24 hours shown from its first sample, at about/);
    expect(note.textContent).toMatch(
      /: the count is sampled only while Keydesk runs \(every minute, and every few seconds while this view is open\), and none was read earlier in the range\.$/,
    );
    expect(note.querySelector('time')?.getAttribute('dateTime')).toBe('2026-11-23T04:30:32.000Z');
    expect(screen.getByText(/^Change since/).textContent).toBe('Change since the first sample in the range: +2');
  });

  it('with a count unchanged over a minute, draws it with +0', async () => {
    serve([sample('2026-11-23T04:30:32.000Z', 5), sample('2026-11-23T04:32:32.000Z', 5)], '2026-11-23T04:32:32.000Z', 5);
    render(<Overview />);
    expect((await screen.findByTestId('chart')).textContent).toBe('5,5');
    expect(screen.getByText(/^Change since/).textContent).toBe('Change since the first sample in the range: +0');
  });

  it('with samples from the range start, gives the change over it', async () => {
    serve([sample('2026-11-22T04:40:00.000Z', 3), sample('2026-11-23T04:30:00.000Z', 9)], '2026-11-23T04:30:37.000Z', 9);
    render(<Overview />);
    expect((await screen.findByTestId('chart')).textContent).toBe('3,9');
    expect(screen.getByText(/^Change over the range/).textContent).toBe('Change over the range: +6');
    expect(screen.queryByText(/shown from its first sample/)).toBeNull();
  });
});

describe('Overview: counting while the service is down', () => {
  it('disables Count an execution now like Push +1, sending nothing', async () => {
    // The service does not answer: the read stays out, and the app is offline.
    fake.impl['executions.get'] = () => new Promise(() => {});
    fake.impl['executions.history'] = () => Promise.resolve({ ok: true, data: { buckets: [], samples: 0, latest: null } });
    useKeydesk.setState({ online: false, offlineReason: { ok: false, code: 'NETWORK', message: 'The service refused the connection.' } });
    render(<Overview />);
    const count = await screen.findByRole<HTMLButtonElement>('button', { name: 'Count an execution now' });
    const push = screen.getByRole<HTMLButtonElement>('button', { name: 'Push +1' });
    expect(push.disabled).toBe(true);
    expect(count.disabled).toBe(true);
    expect(screen.getByText('Counting waits until the service answers again.').id).toBe(count.getAttribute('aria-describedby'));
    expect(fake.calls.some((c) => c.name === 'executions.push')).toBe(false);
  });
});

describe('Overview: Push +1 while offline', () => {
  it('is disabled with the reason beside it', () => {
    useKeydesk.setState({ online: false, offlineReason: { ok: false, code: 'NETWORK', message: 'Keydesk could not reach the service.' } });
    render(<Overview />);
    const push = screen.getByRole('button', { name: 'Push +1' });
    expect(push).toHaveProperty('disabled', true);
    expect(screen.getByText('Push waits until the service answers again.')).toBeTruthy();
  });
});
