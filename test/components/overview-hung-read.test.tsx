// Overview against a service that does not answer its count read: the poll never piles a new
// read on one still out (in the harness, hung reads fill the browser's connections to main and stall every local
// read), the view says the read has had no answer instead of showing the last "Read at" as current, and the
// history, a local read, loads and shows without waiting for the count. Fake timers: poll periods pass at once.
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fake, freshStore, remoteProfile, sandboxProfile, useKeydesk } from '../support/fake-bridge.ts';
import { Overview } from '../../src/renderer/src/views/Overview/Overview.tsx';

vi.mock('../../src/renderer/src/components/HistoryChart.tsx', () => ({
  HistoryChart: ({ buckets }: { buckets: readonly { total: number }[] }) => (
    <p data-testid="chart">{buckets.map((b) => b.total).join(',')}</p>
  ),
}));

const T0 = Date.parse('2026-11-23T18:00:00.000Z');
const sample = (at: string, count: number) => ({ at, min: count, max: count });
/** Two samples two minutes apart that show a change: a history the chart draws. */
const HISTORY = [sample('2026-11-23T17:55:00.000Z', 5), sample('2026-11-23T17:57:00.000Z', 7)];
/** Its newest sample, which main gives with it as the count last read. */
const LATEST = { count: 7, at: '2026-11-23T17:57:00.000Z' };

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
  freshStore({ activeProfileId: 'sandbox', profiles: [sandboxProfile] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Lets time pass, running the timers it reaches and the promises they settle. */
const pass = async (ms: number) => {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
};
const countReads = () => fake.calls.filter((c) => c.name === 'executions.get').length;

describe('Overview: a count read with no answer', () => {
  it('starts no second count read while the first is out', async () => {
    fake.impl['executions.get'] = () => new Promise(() => {});
    fake.impl['executions.history'] = () =>
      Promise.resolve({ ok: true, data: { buckets: HISTORY, samples: HISTORY.length, latest: LATEST } });
    render(<Overview />);
    await pass(0);
    expect(countReads()).toBe(1);
    await pass(60_000);
    expect(countReads()).toBe(1);
  });

  it('polls again once the read out has its answer', async () => {
    let answer: () => void = () => undefined;
    fake.impl['executions.get'] = () =>
      new Promise((resolve) => {
        answer = () => {
          resolve({ ok: true, data: { executionCount: 7, sampledAt: new Date(Date.now()).toISOString() } });
        };
      });
    fake.impl['executions.history'] = () =>
      Promise.resolve({ ok: true, data: { buckets: HISTORY, samples: HISTORY.length, latest: LATEST } });
    render(<Overview />);
    await pass(12_000);
    expect(countReads()).toBe(1);
    answer();
    await pass(5_000);
    expect(countReads()).toBe(2);
  });

  it('reads the count at once after a switch from a hung profile', async () => {
    fake.impl['executions.get'] = () => new Promise(() => {});
    fake.impl['executions.history'] = () => Promise.resolve({ ok: true, data: { buckets: [], samples: 0, latest: null } });
    fake.impl['profiles.select'] = () => Promise.resolve({ ok: true, data: remoteProfile });
    useKeydesk.setState({ profiles: [sandboxProfile, remoteProfile] });
    render(<Overview />);
    await pass(6_000);
    expect(countReads()).toBe(1);
    fake.impl['executions.get'] = () =>
      Promise.resolve({ ok: true, data: { executionCount: 41, sampledAt: new Date(Date.now()).toISOString() } });
    await act(async () => {
      await useKeydesk.getState().selectProfile(remoteProfile.id);
    });
    await pass(0);
    expect(countReads()).toBe(2);
    expect(screen.getByLabelText('Execution count').textContent).toBe('41');
  });

  it('says how long the read has had no answer', async () => {
    let hang = false;
    fake.impl['executions.get'] = () =>
      hang
        ? new Promise(() => {})
        : Promise.resolve({ ok: true, data: { executionCount: 7, sampledAt: new Date(Date.now()).toISOString() } });
    fake.impl['executions.history'] = () =>
      Promise.resolve({ ok: true, data: { buckets: HISTORY, samples: HISTORY.length, latest: LATEST } });
    const { container } = render(<Overview />);
    await pass(0);
    const note = () => container.querySelector('[aria-label="Execution count"] + p.muted')?.textContent ?? '';
    expect(note()).toMatch(/^Read at /);
    hang = true;
    // The next poll (at 5 s) gets no answer: a few seconds are not yet worth a word.
    await pass(5_000 + 2_000);
    expect(note()).toMatch(/^Read at /);
    await pass(10_000);
    expect(note()).toMatch(/^Checking the count… no answer for 12 s\. Last read at .+: it may have changed since\.$/);
    expect(screen.getByLabelText('Execution count').className).toContain('stale');
    await pass(3_000);
    expect(note()).toMatch(/^Checking the count… no answer for 15 s\./);
  });

  it('says so for a first read with no count yet', async () => {
    fake.impl['executions.get'] = () => new Promise(() => {});
    fake.impl['executions.history'] = () => Promise.resolve({ ok: true, data: { buckets: [], samples: 0, latest: null } });
    render(<Overview />);
    await pass(8_000);
    expect(screen.getByText('Checking the count… no answer for 8 s.')).toBeTruthy();
  });
});
describe('Overview: the history does not wait for the count', () => {
  it('draws the held history while the count read has no answer', async () => {
    fake.impl['executions.get'] = () => new Promise(() => {});
    fake.impl['executions.history'] = () =>
      Promise.resolve({ ok: true, data: { buckets: HISTORY, samples: HISTORY.length, latest: LATEST } });
    render(<Overview />);
    await pass(0);
    expect(screen.getByTestId('chart').textContent).toBe('5,7');
    expect(screen.queryByText('No history in this range yet')).toBeNull();
  });

  it('says the history is being read, never No history before it answers', async () => {
    let answer: () => void = () => undefined;
    fake.impl['executions.get'] = () => new Promise(() => {});
    fake.impl['executions.history'] = () =>
      new Promise((resolve) => {
        answer = () => {
          resolve({ ok: true, data: { buckets: HISTORY, samples: HISTORY.length, latest: LATEST } });
        };
      });
    render(<Overview />);
    await pass(0);
    expect(screen.getByText('Reading the history…')).toBeTruthy();
    expect(screen.queryByText('No history in this range yet')).toBeNull();
    answer();
    await pass(0);
    expect(screen.getByTestId('chart').textContent).toBe('5,7');
    expect(screen.queryByText('Reading the history…')).toBeNull();
  });
});

describe('Overview: a history that could not be read', () => {
  it('says the read failed and does not claim there is no history', async () => {
    fake.impl['executions.get'] = () =>
      Promise.resolve({ ok: true, data: { executionCount: 7, sampledAt: new Date(Date.now()).toISOString() } });
    fake.impl['executions.history'] = () =>
      Promise.resolve({ ok: false, code: 'INTERNAL', message: 'Keydesk could not read its history file.' });
    render(<Overview />);
    await pass(0);
    expect(screen.getByText(/Keydesk could not read its history file\./)).toBeTruthy();
    expect(screen.queryByText('No history in this range yet')).toBeNull();
    expect(screen.queryByText('Reading the history…')).toBeNull();
  });
});

describe("Overview: a push's answer while the count read has none", () => {
  it("shows the newest reading's count as read, not as no answer", async () => {
    fake.impl['executions.get'] = () => new Promise(() => {});
    fake.impl['executions.history'] = () =>
      Promise.resolve({ ok: true, data: { buckets: HISTORY, samples: HISTORY.length, latest: LATEST } });
    fake.impl['executions.push'] = () =>
      Promise.resolve({ ok: true, data: { executionCount: 8, sampledAt: new Date(Date.now()).toISOString() } });
    const { container } = render(<Overview />);
    await pass(9_000);
    const note = () => container.querySelector('[aria-label="Execution count"] + p.muted')?.textContent ?? '';
    // The count shown meanwhile is the newest sample Keydesk holds, given as read earlier.
    expect(note()).toMatch(/^Checking the count… no answer for 9 s\. Last read at .+: it may have changed since\.$/);
    await act(async () => {
      await useKeydesk.getState().pushExecution();
    });
    await pass(1_000);
    expect(screen.getByLabelText('Execution count').textContent).toBe('8');
    expect(note()).toMatch(/^Read at /);
  });
});

describe('Overview: back on a profile whose count is not answered now', () => {
  /** The samples Keydesk holds for the profile: the chart's, and the newest of them as the last count read. */
  const held = () => Promise.resolve({ ok: true as const, data: { buckets: HISTORY, samples: HISTORY.length, latest: LATEST } });
  const note = (container: HTMLElement) => container.querySelector('[aria-label="Execution count"] + p.muted')?.textContent ?? '';
  const readAt = (container: HTMLElement) =>
    container.querySelector('[aria-label="Execution count"] + p.muted time')?.getAttribute('datetime');

  it('shows the last count held, marked earlier, while reading anew', async () => {
    fake.impl['executions.get'] = () => new Promise(() => {});
    fake.impl['executions.history'] = held;
    const { container } = render(<Overview />);
    await pass(0);
    expect(screen.getByTestId('chart').textContent).toBe('5,7');
    expect(screen.getByLabelText('Execution count').textContent).toBe('7');
    expect(screen.getByLabelText('Execution count').className).toContain('stale');
    expect(note(container)).toMatch(/^Last count Keydesk holds, read earlier at .+: reading it again…$/);
    expect(readAt(container)).toBe('2026-11-23T17:57:00.000Z');
    await pass(44_000);
    expect(screen.getByLabelText('Execution count').textContent).toBe('7');
    expect(note(container)).toMatch(/^Checking the count… no answer for 44 s\. Last read at .+: it may have changed since\.$/);
    expect(readAt(container)).toBe('2026-11-23T17:57:00.000Z');
  });

  it('keeps the last known count, marked so, when the read fails', async () => {
    fake.impl['executions.get'] = () =>
      Promise.resolve({
        ok: false,
        code: 'NETWORK',
        message: 'Keydesk could not reach the service. Check that it is running and that the address is right.',
      });
    fake.impl['executions.history'] = held;
    const { container } = render(<Overview />);
    await pass(0);
    expect(screen.getByLabelText('Execution count').textContent).toBe('7');
    expect(screen.getByLabelText('Execution count').className).toContain('stale');
    expect(note(container)).toMatch(/^Last known count, read at .+: it may have changed since\.$/);
    expect(readAt(container)).toBe('2026-11-23T17:57:00.000Z');
    expect(container.textContent).not.toContain('No count could be read.');
  });

  it('gives way to the new reading once it answers', async () => {
    let answer: () => void = () => undefined;
    fake.impl['executions.get'] = () =>
      new Promise((resolve) => {
        answer = () => {
          resolve({ ok: true, data: { executionCount: 9, sampledAt: new Date(Date.now()).toISOString() } });
        };
      });
    fake.impl['executions.history'] = held;
    const { container } = render(<Overview />);
    await pass(0);
    expect(screen.getByLabelText('Execution count').textContent).toBe('7');
    answer();
    await pass(0);
    expect(screen.getByLabelText('Execution count').textContent).toBe('9');
    expect(screen.getByLabelText('Execution count').className).not.toContain('stale');
    expect(note(container)).toMatch(/^Read at /);
    expect(readAt(container)).toBe(new Date(T0).toISOString());
  });
});
