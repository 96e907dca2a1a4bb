// All keys' "Last checked" column while the table sits on screen: a relative time ("5 seconds ago") is said again as
// time passes, as everywhere else, rather than staying as it was when the rows were read. Fake timers: time passes at once.
import { act, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fake, ledgerRow, readyStore, sandboxProfile } from '../support/fake-bridge.ts';
import { listed } from '../support/fake-jobs.ts';
import { AllKeys } from '../../src/renderer/src/views/AllKeys/AllKeys.tsx';

const T0 = Date.parse('2026-11-23T18:00:00.000Z');

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  vi.setSystemTime(T0);
  readyStore([sandboxProfile]);
  fake.impl['jobs.list'] = () => listed([]);
});
afterEach(() => {
  vi.useRealTimers();
});

const lastChecked = (value: string) => {
  const row = screen.getByRole('checkbox', { name: `Select ${value}` }).closest('[role="row"]') as HTMLElement;
  return (within(row).getAllByRole('gridcell').at(-2) as HTMLElement).textContent;
};

describe('All keys: the Last checked column over time', () => {
  it('says a row’s check time again as minutes pass', async () => {
    const checked = new Date(T0 - 5_000).toISOString();
    fake.impl['ledger.query'] = () =>
      Promise.resolve({ ok: true, data: { rows: [ledgerRow('KD-A', { lastSeenAt: checked })], total: 1, totalCapped: false } });
    render(<AllKeys />);
    await screen.findByText('1 key');
    expect(lastChecked('KD-A')).toBe('5 seconds ago');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(3 * 60_000);
    });
    expect(lastChecked('KD-A')).toBe('3 minutes ago');
  });
});
