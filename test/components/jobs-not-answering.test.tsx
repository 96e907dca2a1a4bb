// The Jobs view while a job's service does not answer: main says so in a progress event of its own once the silence
// passes (nothing else happens then: no answer, no other event), and the opened job's line then says the service
// has not answered since when, how many requests await an answer, that nothing new is sent, and for how long it
// has not answered, moving on by itself; no rate or time left from before stays on screen. Once it answers, that goes.
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JobSummary } from '../../src/shared/domain.ts';
import { emit, fake, readyStore } from '../support/fake-bridge.ts';
import { listed } from '../support/fake-jobs.ts';
import { Jobs } from '../../src/renderer/src/views/Jobs/Jobs.tsx';

const EXTEND = '11111111-1111-4111-8111-111111111111';
const T0 = Date.parse('2026-01-02T10:00:00.000Z');
let version = 0;
/** A running extend of 5,000 keys, at 60 keys/s as main last measured it. */
const running = (over: Partial<JobSummary> = {}): JobSummary => ({
  id: EXTEND,
  profileId: 'sandbox',
  action: 'extend',
  days: 10,
  note: null,
  state: 'running',
  reason: null,
  createdAt: '2026-01-02T09:50:00.000Z',
  finishedAt: null,
  total: 5_000,
  counts: { pending: 2_000, sent: 4, done: 2_996, failed: 0, unknown: 0 },
  ratePerSecond: 60,
  etaSeconds: 34,
  concurrency: 4,
  ceiling: 8,
  pausedUntil: null,
  version: ++version,
  ...over,
});

beforeEach(() => {
  vi.useRealTimers();
  readyStore();
  fake.impl['jobs.items'] = () => Promise.resolve({ ok: true, data: { items: [], total: 0 } });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Jobs: a running job whose service stops answering', () => {
  it('says since when the service has not answered, until it answers', async () => {
    // The clock is held (timers stay real), so the time without an answer reads the same however slowly this runs.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
    fake.impl['jobs.list'] = () => listed([running()]);
    const user = userEvent.setup();
    render(<Jobs />);
    await user.click(await screen.findByRole('button', { name: /^Extend by 10 days, started / }));
    const detail = screen.getByRole('region', { name: 'Extend by 10 days' });
    const line = () => within(detail).getAllByRole('status')[0]?.textContent ?? '';
    expect(line()).toMatch(/60 keys\/s/);

    // Main's event once the silence has passed: the four requests timed out (unknown), one probe awaits an answer.
    act(() => {
      emit(
        'jobs.progress',
        running({
          counts: { pending: 1_999, sent: 1, done: 2_996, failed: 0, unknown: 4 },
          ratePerSecond: null,
          etaSeconds: null,
          notAnswering: { since: new Date(T0 - 65_000).toISOString(), awaiting: 1 },
        }),
      );
    });
    expect(line()).toMatch(
      /^Extend by 10 days, running: 2,996 of 5,000 done, 4 unknown; the service has not answered since .+; 1 request awaits an answer; until it answers, at most one request at a time is sent, to check \(it may take effect\), and the job stops once 3 of those in a row get no answer\. No answer for 1 min 5 s\.$/,
    );
    expect(line()).not.toMatch(/keys\/s|left/);
    // With no further event, the time without an answer moves on.
    vi.setSystemTime(T0 + 10_000);
    await waitFor(() => {
      expect(line()).toMatch(/ No answer for 1 min 15 s\.$/);
    });

    // It answers again: main's next event has no silence in it, and neither has the line.
    act(() => {
      emit(
        'jobs.progress',
        running({ counts: { pending: 1_900, sent: 4, done: 3_092, failed: 0, unknown: 4 }, ratePerSecond: null, etaSeconds: null }),
      );
    });
    expect(line()).not.toMatch(/not answered|No answer for/);
    expect(line()).toMatch(/^Extend by 10 days, running: 3,092 of 5,000 done, 4 unknown/);
  });
});
