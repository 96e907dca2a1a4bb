// Form drafts across a profile switch: what was typed for one service is not carried to another, and the numbers
// of an act (count, expiry, bulk days) stay with the profile they were typed for.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { LedgerRow } from '../../src/shared/domain.ts';
import { fake, ledgerRow, readyStore, remoteProfile, sandboxProfile, useKeydesk } from '../support/fake-bridge.ts';
import { listed } from '../support/fake-jobs.ts';
import { AllKeys } from '../../src/renderer/src/views/AllKeys/AllKeys.tsx';
import { GenerateForm } from '../../src/renderer/src/views/Keys/GenerateForm.tsx';

const row = (value: string): LedgerRow => ledgerRow(value, { note: 'spring', daysKey: null, createdAt: '2026-01-01T00:00:00.000Z' });

beforeEach(() => {
  readyStore();
  fake.impl['jobs.list'] = () => listed([]);
});

describe('form drafts and a profile switch', () => {
  it("clears one service's typed terms when another profile becomes active", async () => {
    const s = useKeydesk.getState();
    s.setDraft('validate.service', 'service-of-a');
    s.setDraft('validate.keyValue', 'KEY-OF-A');
    s.setDraft('lookup.term', 'term-a');
    s.setDraft('keyless.term', 'hw-a');
    s.setDraft('identifier.value', 'id-a');
    s.setDraft('generate.note', 'big batch for a customer of A');
    s.setDraft('generate.count', '300000');
    s.setDraft('validate.hwidChoice', 'custom');
    fake.impl['profiles.select'] = () => Promise.resolve({ ok: true, data: remoteProfile });
    await act(() => useKeydesk.getState().selectProfile('p2'));
    const d = useKeydesk.getState().drafts;
    expect(d['validate.service']).toBeUndefined();
    expect(d['validate.keyValue']).toBeUndefined();
    expect(d['lookup.term']).toBeUndefined();
    expect(d['keyless.term']).toBeUndefined();
    expect(d['identifier.value']).toBeUndefined();
    expect(d['generate.note']).toBeUndefined();
    // How many to generate is the input of an act on A: it is kept for A, not carried to B.
    expect(d['generate.count']).toBeUndefined();
    // So is which HWID Validate sends, with its value: B starts from its own.
    expect(d['validate.hwidChoice']).toBeUndefined();
    await waitFor(() => {
      expect(useKeydesk.getState().activeProfileId).toBe('p2');
    });
  });

  it('keeps count, expiry and bulk days with the profile typed for', async () => {
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: [row('KEY-AAA')], total: 1, totalCapped: false } });
    const user = userEvent.setup();
    const { unmount } = render(
      <>
        <GenerateForm />
        <AllKeys />
      </>,
    );
    const count = () => screen.getByLabelText<HTMLInputElement>('Count');
    const expiry = () => screen.getByLabelText<HTMLInputElement>('Expiry date');
    // The bulk bar, with its Days, shows while a key is selected.
    const days = () => {
      if (useKeydesk.getState().selection.size === 0) act(() => useKeydesk.getState().setSelected(['KEY-AAA'], true));
      return within(screen.getByRole('region', { name: 'Bulk actions' })).getByLabelText<HTMLInputElement>('Days');
    };
    const defaults = { count: count().value, expiry: expiry().value, days: days().value };
    await user.clear(count());
    await user.type(count(), '2000');
    fireEvent.change(expiry(), { target: { value: '2028-03-01' } });
    await user.clear(days());
    await user.type(days(), '5');

    fake.impl['profiles.select'] = (input) =>
      Promise.resolve({ ok: true, data: (input as { id: string }).id === 'p2' ? remoteProfile : sandboxProfile });
    await act(() => useKeydesk.getState().selectProfile('p2'));
    // The other service: none of A's numbers, each field as it starts.
    expect({ count: count().value, expiry: expiry().value, days: days().value }).toEqual(defaults);
    expect(defaults).not.toEqual({ count: '2000', expiry: '2028-03-01', days: '5' });
    await user.clear(days());
    await user.type(days(), '9');

    await act(() => useKeydesk.getState().selectProfile('sandbox'));
    expect({ count: count().value, expiry: expiry().value, days: days().value }).toEqual({
      count: '2000',
      expiry: '2028-03-01',
      days: '5',
    });
    await act(() => useKeydesk.getState().selectProfile('p2'));
    expect(days().value).toBe('9');
    unmount();
  });
});
