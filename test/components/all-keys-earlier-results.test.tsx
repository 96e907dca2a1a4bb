// All keys' earlier rows when a read fails: after a failed re-read of the same filter the line under the table says
// when they were read and that reading again failed; a refused filter keeps them marked stale, with its reason.
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { OperationResult } from '../../src/shared/contract.ts';
import type { LedgerRow } from '../../src/shared/domain.ts';
import { emit, fake, ledgerRow, readyStore, sandboxProfile, useKeydesk } from '../support/fake-bridge.ts';
import { deferred, listed } from '../support/fake-jobs.ts';
import { fmt } from '../../src/renderer/src/lib/format.ts';
import { AllKeys } from '../../src/renderer/src/views/AllKeys/AllKeys.tsx';

const row = (value: string): LedgerRow => ledgerRow(value, { note: 'remote bulk' });
const rows = [row('KD-A'), row('KD-B'), row('KD-C')];
const GONE = 'The Keydesk harness is not answering (Failed to fetch).';

beforeEach(() => {
  readyStore([sandboxProfile]);
  useKeydesk.setState({ ledgerFilter: { text: 'remote bulk' } });
  fake.impl['jobs.list'] = () => listed([]);
  fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows, total: 3, totalCapped: false } });
  useKeydesk.getState().followJobs();
});

/** The ledger writer finished recording: the store reads the same filter again. */
const reread = () => {
  emit('ledger.changed', { profileId: 'sandbox', recording: 1, failure: null });
  emit('ledger.changed', { profileId: 'sandbox', recording: 0, failure: null });
};

describe('All keys: a failed re-read of the same filter', () => {
  it("says the earlier rows' read time and that reading again failed", async () => {
    const before = Date.now();
    render(<AllKeys />);
    await screen.findByText('3 keys');
    const readAt = useKeydesk.getState().ledgerReadAt;
    expect(readAt).not.toBeNull();
    expect(Date.parse(readAt ?? '')).toBeGreaterThanOrEqual(before);
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: false, code: 'NETWORK', message: GONE });
    reread();
    await screen.findByText(GONE);
    const line = `Reading this filter again failed: still showing its results as read at ${fmt.time(readAt ?? '')} (3 keys).`;
    await screen.findByText(line);
    expect(screen.queryByText(/not this filter's/)).toBeNull();
  });

  it('says “not this filter’s” when a changed filter could not be read', async () => {
    const user = userEvent.setup();
    render(<AllKeys />);
    await screen.findByText('3 keys');
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: false, code: 'NETWORK', message: GONE });
    await user.type(screen.getByRole('searchbox', { name: 'Filter (key, note or HWID)' }), ' x');
    await waitFor(() => {
      expect(screen.getByText(/^Still showing the earlier results \(3 keys, read at .*\), not this filter's\.$/)).toBeTruthy();
    });
  });
});

describe("All keys' count line", () => {
  it('tells a screen reader of loading, the count and a failed read', async () => {
    const first = deferred<OperationResult<'ledger.query'>>();
    fake.impl['ledger.query'] = () => first.promise;
    render(<AllKeys />);
    // One polite live region (role status) whose words change, not a new element each time.
    const line = await screen.findByRole('status');
    expect(line.textContent).toBe('Loading…');
    first.resolve({ ok: true, data: { rows, total: 3, totalCapped: false } });
    await waitFor(() => {
      expect(line.textContent).toBe('3 keys');
    });
    const readAt = useKeydesk.getState().ledgerReadAt ?? '';
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: false, code: 'NETWORK', message: GONE });
    reread();
    await waitFor(() => {
      expect(line.textContent).toBe(`Reading this filter again failed: still showing its results as read at ${fmt.time(readAt)} (3 keys).`);
    });
    expect(screen.getByRole('status')).toBe(line);
  });
});

describe('All keys: a filter main refuses', () => {
  it('shows the refusal in words and keeps the earlier rows marked stale', async () => {
    fake.impl['ledger.query'] = (input) => {
      const text = (input as { filter: { text?: string } }).filter.text ?? '';
      if (text.length > 256) return Promise.resolve({ ok: false, code: 'INVALID_INPUT', message: 'Use at most 256 characters.' });
      return Promise.resolve({ ok: true, data: { rows: [row('KEY-AAA'), row('KEY-BBB')], total: 2, totalCapped: false } });
    };
    render(<AllKeys />);
    await screen.findByText('KEY-AAA');
    fireEvent.change(screen.getByLabelText('Filter (key, note or HWID)'), { target: { value: 'x'.repeat(257) } });
    await screen.findByText('Use at most 256 characters.');
    expect(screen.queryByText('Loading…')).toBeNull();
    expect(screen.getByText('KEY-AAA')).toBeTruthy();
    expect(screen.getByRole('grid', { name: 'All keys' }).className).toContain('stale');
    expect(screen.getByRole('status').textContent).toContain('earlier results');
    expect(screen.getByRole('button', { name: /^Select all/ })).toHaveProperty('disabled', true);
  });
});
