// The Overview's figures agree with each other: the change over the range ends at the headline count, and a push
// reads the history again. The chart itself is uPlot on a canvas, which jsdom cannot draw: here it is a stand-in
// that lists what it was given (its axes are tested in polish.test.tsx, its drawing through the harness in e2e).
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fake, installBridge, resetFake, sandboxProfile } from '../support/fake-bridge.ts';

vi.mock('../../src/renderer/src/components/HistoryChart.tsx', () => ({
  HistoryChart: ({ buckets }: { buckets: readonly { total: number }[] }) => <p data-testid="chart">{buckets.map((b) => b.total).join(',')}</p>,
}));
installBridge();
const { useKeydesk } = await import('../../src/renderer/src/store/index.ts');
const { Overview } = await import('../../src/renderer/src/views/Overview/Overview.tsx');
const initial = useKeydesk.getState();

beforeEach(() => {
  resetFake();
  useKeydesk.setState(initial, true);
  useKeydesk.setState({ activeProfileId: 'sandbox', profiles: [sandboxProfile] });
});

describe('Overview: the chart and the headline agree', () => {
  const sample = (at: string, count: number) => ({ at, min: count, max: count });
  it('updates "Change over the range" with the headline after a push, and reads the history again', async () => {
    const user = userEvent.setup();
    let history = [sample('2026-11-23T10:00:00.000Z', 10), sample('2026-11-23T10:05:00.000Z', 12)];
    fake.impl['executions.get'] = () => Promise.resolve({ ok: true, data: { executionCount: 12, sampledAt: '2026-11-23T10:05:00.000Z' } });
    fake.impl['executions.history'] = () => Promise.resolve({ ok: true, data: { buckets: history, samples: history.length } });
    fake.impl['executions.push'] = () => {
      history = [...history, sample('2026-11-23T10:06:00.000Z', 13)];
      return Promise.resolve({ ok: true, data: { executionCount: 13 } });
    };
    render(<Overview />);
    expect((await screen.findByText(/^Change over the range/)).textContent).toBe('Change over the range: +2');
    const reads = () => fake.calls.filter((c) => c.name === 'executions.history').length;
    const before = reads();
    await user.click(screen.getByRole('button', { name: 'Push +1' }));
    await waitFor(() => {
      expect(screen.getByText(/^Change over the range/).textContent).toBe('Change over the range: +3');
    });
    await waitFor(() => {
      expect(reads()).toBeGreaterThan(before);
    });
    await waitFor(() => {
      expect(screen.getByTestId('chart').textContent).toBe('10,12,13');
    });
  });
});

