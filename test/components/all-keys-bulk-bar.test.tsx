// All keys' bulk actions in jsdom against the fake bridge: none above the table until a row is ticked, and gone
// again once the selection is cleared.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fake } from '../support/fake-bridge.ts';
import { readyWithNoJobs, row } from '../support/job-fixtures.ts';
import { AllKeys } from '../../src/renderer/src/views/AllKeys/AllKeys.tsx';

beforeEach(readyWithNoJobs);

describe('All keys: bulk actions', () => {
  it('shows no bulk actions until a row is selected', async () => {
    fake.impl['ledger.query'] = () =>
      Promise.resolve({ ok: true, data: { rows: [row('KD-A'), row('KD-B')], total: 2, totalCapped: false } });
    // The service's edit endpoints were found, so Edit selected is offered.
    const found = { state: 'present' as const, checkedAt: '2026-11-29T10:00:00.000Z', evidence: 'An answer came.' };
    fake.impl['service.capabilities'] = () =>
      Promise.resolve({ ok: true, data: { capabilities: { keyEdit: found, generatedKeyEdit: found } } });
    const user = userEvent.setup();
    render(<AllKeys />);
    const box = await screen.findByRole('checkbox', { name: 'Select KD-A' });
    expect(screen.queryByRole('region', { name: 'Bulk actions' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete selected' })).toBeNull();
    expect(screen.queryByText(/selected$/)).toBeNull();

    await user.click(box);
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    expect(bar.textContent).toMatch(/^1 selected/);
    const names = within(bar)
      .getAllByRole('button')
      .map((b) => b.textContent);
    expect(names).toEqual(['Clear selection', 'Refresh selected', 'Delete selected', 'Reset HWID of selected', 'Extend selected']);
    // The edit opens as a disclosure, its fields inside.
    expect((await within(bar).findByText('Edit selected…')).tagName).toBe('SUMMARY');

    await user.click(within(bar).getByRole('button', { name: 'Clear selection' }));
    expect(screen.queryByRole('region', { name: 'Bulk actions' })).toBeNull();
  });
});
