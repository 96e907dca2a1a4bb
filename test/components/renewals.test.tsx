// Renewals, All keys' date filters and a job's story against the real store: the weeks and a week's live keys,
// Extend these… as one labelled job over the week's filter, the messages to copy once it ends, and the filters sent.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { JobSummary } from '../../src/shared/domain.ts';
import { renewalWeeks } from '../../src/shared/renewals.ts';
import { eventWords, JobStory } from '../../src/renderer/src/components/JobStory.tsx';
import type { LedgerFilter } from '../../src/renderer/src/store/types.ts';
import { Toolbar } from '../../src/renderer/src/views/AllKeys/Toolbar.tsx';
import { renewalMessages } from '../../src/renderer/src/views/Renewals/RenewalMessage.tsx';
import { Renewals } from '../../src/renderer/src/views/Renewals/Renewals.tsx';
import { emit, fake, ledgerRow, readyStore, useKeydesk } from '../support/fake-bridge.ts';
import { jobSummaries } from '../support/fake-jobs.ts';

const NOW = Date.parse('2026-12-02T10:00:00.000Z');
const weeks = renewalWeeks(NOW).map((w, i) => ({ ...w, count: i === 1 ? 2 : i }));
/** The week of Dec 7's live keys, as Renewals asks for them: Monday's start to the next Monday's. */
const WEEK_SPAN = { span: { of: 'expiresAt', from: '2026-12-07T00:00:00.000Z', to: '2026-12-14T00:00:00.000Z' } };
const job = jobSummaries({
  id: '00000000-0000-4000-8000-000000000001',
  profileId: 'sandbox',
  action: 'extend',
  days: 14,
  note: null,
  state: 'running',
  reason: null,
  createdAt: '2026-12-02T10:00:00.000Z',
  finishedAt: null,
  total: 2,
  counts: { pending: 2, sent: 0, done: 0, failed: 0, unknown: 0 },
  ratePerSecond: null,
  etaSeconds: null,
  concurrency: 1,
  ceiling: 64,
  pausedUntil: null,
  label: 'expiring the week of Dec 7',
  history: [],
});

beforeEach(() => {
  readyStore();
});

describe('Renewals', () => {
  it("lists the weeks, then extends one week's keys as a labelled job", async () => {
    const user = userEvent.setup();
    fake.impl['renewals.weeks'] = () => Promise.resolve({ ok: true, data: { weeks } });
    fake.impl['renewals.getTemplate'] = () =>
      Promise.resolve({ ok: true, data: { template: 'Renewed {key} to {expires} (+{days})', isDefault: false } });
    fake.impl['ledger.query'] = () =>
      Promise.resolve({
        ok: true,
        data: {
          rows: [
            ledgerRow('KD-ONE', { expiresAt: '2026-12-08T23:59:59.999Z', daysKey: null, customer: 'Acme Corp' }),
            ledgerRow('KD-TWO', { expiresAt: '2026-12-10T23:59:59.999Z', daysKey: null }),
          ],
          total: 2,
          totalCapped: false,
          targets: 2,
        },
      });
    fake.impl['jobs.start'] = () => Promise.resolve({ ok: true, data: job({}) });
    render(<Renewals />);
    const strip = await screen.findByRole('group', { name: 'Weeks' });
    const buttons = within(strip).getAllByRole('button');
    expect(buttons).toHaveLength(weeks.length);
    weeks.forEach((w, i) => {
      expect(within(strip).getAllByRole('button', { name: new RegExp(`^the week of .+: ${w.count} keys?$`) })).toContain(buttons[i]);
    });
    await user.click(within(strip).getByRole('button', { name: 'the week of Dec 7: 2 keys' }));
    await screen.findByText('KD-TWO');
    expect(screen.getByText('KD-ONE').closest('tr')?.textContent).toContain('Acme Corp');
    expect(fake.calls.filter((c) => c.name === 'ledger.query').at(-1)?.input).toMatchObject({ filter: WEEK_SPAN });

    await user.click(screen.getByRole('button', { name: 'Extend these…' }));
    await user.clear(screen.getByLabelText('Extend by (days)'));
    await user.type(screen.getByLabelText('Extend by (days)'), '14');
    await user.click(screen.getByRole('button', { name: 'Extend 2 keys' }));
    await waitFor(() => {
      expect(fake.calls.find((c) => c.name === 'jobs.start')?.input).toEqual({
        action: 'extend',
        target: { filter: WEEK_SPAN },
        days: 14,
        label: 'expiring the week of Dec 7',
      });
    });
    expect((await screen.findByText(/^Extending/)).textContent).toMatch(
      /^Extending expiring the week of Dec 7 by 14 days: running \(0 of 2 done\)/,
    );
  });

  it('offers messages after the extend ends, for the keys it extended', async () => {
    const user = userEvent.setup();
    weekOfKeys('KD-ONE', 'KD-TWO');
    fake.impl['jobs.start'] = () => Promise.resolve({ ok: true, data: job({}) });
    // KD-TWO's extend failed: only KD-ONE's item is done.
    fake.impl['jobs.items'] = (input) =>
      Promise.resolve({
        ok: true,
        data:
          (input as { state?: string }).state === 'done'
            ? { items: [{ seq: 0, target: 'KD-ONE', size: 1, state: 'done', code: null, message: null }], total: 1 }
            : { items: [{ seq: 1, target: 'KD-TWO', size: 1, state: 'failed', code: 'NOT_FOUND', message: 'gone' }], total: 1 },
      });
    render(<Renewals />);
    const strip = await screen.findByRole('group', { name: 'Weeks' });
    await user.click(within(strip).getByRole('button', { name: 'the week of Dec 7: 2 keys' }));
    await screen.findByText('KD-TWO');
    await user.click(screen.getByRole('button', { name: 'Extend these…' }));
    await user.click(screen.getByRole('button', { name: 'Extend 2 keys' }));
    await screen.findByText(/^Extending/);
    expect(screen.getByText(/can be copied once the extend has ended/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Copy the renewal messages' })).toBeNull();
    expect(fake.calls.some((c) => c.name === 'jobs.items')).toBe(false);

    // Main's progress events, as the store hears them once it follows jobs.
    useKeydesk.getState().followJobs();
    emit(
      'jobs.progress',
      job({ state: 'finished', finishedAt: '2026-12-02T10:01:00.000Z', counts: { pending: 0, sent: 0, done: 1, failed: 1, unknown: 0 } }),
    );
    const copy = await screen.findByRole('button', { name: 'Copy the renewal messages' });
    expect(copy.closest('p')?.textContent).toMatch(/^Messages for the 1 key extended \(of 2 listed\)/);
    expect(fake.calls.filter((c) => c.name === 'jobs.items').map((c) => c.input)).toContainEqual({
      jobId: job({}).id,
      state: 'done',
      offset: 0,
      limit: 1_000,
    });
    await user.click(copy);
    expect(await navigator.clipboard.readText()).toBe('Renewed KD-ONE');
  });

  it('offers no messages when the extended keys cannot be read', async () => {
    const user = userEvent.setup();
    weekOfKeys('KD-ONE');
    fake.impl['jobs.start'] = () => Promise.resolve({ ok: true, data: job({ total: 1 }) });
    fake.impl['jobs.items'] = () => Promise.resolve({ ok: false, code: 'INTERNAL', message: 'The job list could not be read.' });
    render(<Renewals />);
    const strip = await screen.findByRole('group', { name: 'Weeks' });
    await user.click(within(strip).getByRole('button', { name: 'the week of Dec 7: 2 keys' }));
    await screen.findByText('KD-ONE');
    await user.click(screen.getByRole('button', { name: 'Extend these…' }));
    await user.click(screen.getByRole('button', { name: 'Extend 1 key' }));
    await screen.findByText(/^Extending/);
    useKeydesk.getState().followJobs();
    emit(
      'jobs.progress',
      job({
        total: 1,
        state: 'finished',
        finishedAt: '2026-12-02T10:01:00.000Z',
        counts: { pending: 0, sent: 0, done: 1, failed: 0, unknown: 0 },
      }),
    );
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Keydesk could not read which keys were extended, so there are no messages yet: The job list could not be read.',
    );
    expect(screen.queryByRole('button', { name: 'Copy the renewal messages' })).toBeNull();
  });

  it("fills each key's message with its new expiry, deleted keys left out", () => {
    const rows = [
      ledgerRow('KD-ONE', { expiresAt: '2026-12-08T23:59:59.999Z', note: 'Acme' }),
      ledgerRow('KD-GONE', { status: 'deleted', expiresAt: '2026-12-09T23:59:59.999Z' }),
    ];
    const text = renewalMessages('{key} for {note}: {expires}, +{days}, {unknown}', rows, 30);
    expect(text).toMatch(/^KD-ONE for Acme: .*2027.*, \+30, \{unknown\}$/);
    expect(text).not.toContain('KD-GONE');
  });
});

describe("All keys' date filters", () => {
  function Harness({ seen }: { seen: LedgerFilter[] }) {
    const [filter, setFilter] = useState<LedgerFilter>({ status: 'active' });
    const set = (next: LedgerFilter) => {
      seen.push(next);
      setFilter(next);
    };
    return (
      <Toolbar
        filter={filter}
        setFilter={set}
        ready
        count={0}
        capped={false}
        selectAll={{ canSelectAll: false, button: '', allDeleted: false, offer: '' }}
      />
    );
  }

  it('sends each expiry and creation choice as its filter, keeping the others', async () => {
    const user = userEvent.setup();
    const seen: LedgerFilter[] = [];
    render(<Harness seen={seen} />);
    await user.selectOptions(screen.getByLabelText('Expiry', { exact: true }), 'within');
    expect(seen.at(-1)).toEqual({ status: 'active', expiresWithin: 30 });
    fireEvent.change(screen.getByLabelText('Expiring within (days)'), { target: { value: '7' } });
    expect(seen.at(-1)).toEqual({ status: 'active', expiresWithin: 7 });
    await user.selectOptions(screen.getByLabelText('Expiry', { exact: true }), 'expired');
    expect(seen.at(-1)).toEqual({ status: 'active', expired: true });
    await user.selectOptions(screen.getByLabelText('Expiry', { exact: true }), 'between');
    expect(seen.at(-1)).toEqual({ status: 'active' });
    await user.type(screen.getByLabelText('Expiry from'), '2027-01-04');
    expect(seen.at(-1)).toEqual({ status: 'active', expiresFrom: '2027-01-04' });
    await user.selectOptions(screen.getByLabelText('Created'), 'between');
    await user.type(screen.getByLabelText('Created to'), '2026-11-30');
    expect(seen.at(-1)).toEqual({ status: 'active', expiresFrom: '2027-01-04', createdTo: '2026-11-30' });
    await user.selectOptions(screen.getByLabelText('Expiry', { exact: true }), 'unactivated');
    expect(seen.at(-1)).toEqual({ status: 'active', createdTo: '2026-11-30', unactivated: true });
    await user.selectOptions(screen.getByLabelText('Created'), '');
    expect(seen.at(-1)).toEqual({ status: 'active', unactivated: true });
  });
});

describe("a job's story", () => {
  it('says its target and each step with where it stood', () => {
    const history: JobSummary['history'] = [
      { at: '2026-12-02T10:00:00.000Z', event: 'started', done: 0, total: 499 },
      { at: '2026-12-02T10:01:00.000Z', event: 'cancelled', done: 8, total: 499 },
      { at: '2026-12-02T10:05:00.000Z', event: 'resumed', done: 8, total: 499 },
      { at: '2026-12-02T10:09:00.000Z', event: 'finished', done: 499, total: 499 },
    ];
    expect(history.map(eventWords)).toEqual(['started', 'cancelled at 8 of 499', 'resumed at 8 of 499', 'finished, 499 of 499']);
    render(<JobStory job={{ label: 'keys containing launch-2026', history }} />);
    expect(screen.getByText('keys containing launch-2026')).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'History' })).getAllByRole('listitem')[0]?.textContent).toMatch(/^Started \(/);
  });
});

/** Renewals with the week of Dec 7 listing `values`, each expiring that week, and a renewal template. */
function weekOfKeys(...values: string[]) {
  fake.impl['renewals.weeks'] = () => Promise.resolve({ ok: true, data: { weeks } });
  fake.impl['renewals.getTemplate'] = () => Promise.resolve({ ok: true, data: { template: 'Renewed {key}', isDefault: false } });
  const rows = values.map((v, i) =>
    ledgerRow(v, { expiresAt: `2026-12-${String(8 + 2 * i).padStart(2, '0')}T23:59:59.999Z`, daysKey: null }),
  );
  fake.impl['ledger.query'] = () =>
    Promise.resolve({ ok: true, data: { rows, total: rows.length, totalCapped: false, targets: rows.length } });
}
