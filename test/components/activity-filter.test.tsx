// Activity's filter: spaces alone are no filter (as in All keys), not a filter
// that hides every operation; a term's surrounding spaces are not part of it, in the list and the export.
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/shared/domain.ts';
import { fake, freshStore, sandboxProfile } from '../support/fake-bridge.ts';
import { Activity } from '../../src/renderer/src/views/Activity/Activity.tsx';

const entry = (id: number, target: string): AuditEntry => ({
  id,
  at: '2026-01-01T00:00:00.000Z',
  profileId: 'sandbox',
  profileName: 'Local sandbox',
  action: 'keys.generate',
  target,
  outcome: 'ok',
  message: '',
});

beforeEach(() => {
  freshStore({ activeProfileId: 'sandbox', profiles: [sandboxProfile] });
  // main's rule: an operation matches when its target contains the term as sent.
  fake.impl['audit.list'] = (input) => {
    const { filter } = input as { filter: { text?: string } };
    const entries = [entry(2, 'KD-ALPHA'), entry(1, 'KD-BETA')].filter((e) => filter.text === undefined || e.target.includes(filter.text));
    return Promise.resolve({ ok: true, data: { entries, total: entries.length } });
  };
  fake.impl['audit.export'] = () => Promise.resolve({ ok: true, data: { path: '/tmp/activity.csv' } });
});

const sentFilters = () => fake.calls.filter((c) => c.name === 'audit.list').map((c) => (c.input as { filter: unknown }).filter);

describe('Activity: the filter', () => {
  it('takes spaces alone as no filter and still lists every operation', async () => {
    const user = userEvent.setup();
    render(<Activity />);
    await screen.findByText('KD-BETA');
    await user.type(screen.getByLabelText('Filter'), '   ');
    await waitFor(() => {
      expect(sentFilters().at(-1)).toEqual({ profileId: 'sandbox' });
    });
    expect(screen.queryByText('No operation matches this filter.')).toBeNull();
    expect(screen.getByText('KD-ALPHA')).toBeTruthy();
    expect(screen.getByText('KD-BETA')).toBeTruthy();
  });

  it('sends the term without surrounding spaces to the list and export', async () => {
    const user = userEvent.setup();
    render(<Activity />);
    await screen.findByText('KD-BETA');
    await user.type(screen.getByLabelText('Filter'), ' ALPHA ');
    await waitFor(() => {
      expect(screen.queryByText('KD-BETA')).toBeNull();
    });
    expect(screen.getByText('KD-ALPHA')).toBeTruthy();
    expect(sentFilters().at(-1)).toEqual({ text: 'ALPHA', profileId: 'sandbox' });
    await user.click(screen.getByRole('button', { name: /^Export CSV/ }));
    await waitFor(() => {
      expect(fake.calls.find((c) => c.name === 'audit.export')?.input).toEqual({
        filter: { text: 'ALPHA', profileId: 'sandbox' },
        format: 'csv',
      });
    });
  });
});

describe('Activity: an operation whose answer was lost', () => {
  it('shows an unknown outcome as Unknown, offered in the Outcome filter', async () => {
    const user = userEvent.setup();
    const lost: AuditEntry = {
      ...entry(3, 'execution count'),
      action: 'executions.push',
      outcome: 'unknown',
      message: 'The service did not confirm the outcome: it may or may not have taken effect. Check before retrying.',
    };
    fake.impl['audit.list'] = (input) => {
      const { filter } = input as { filter: { outcome?: string } };
      const entries = [lost, entry(2, 'KD-ALPHA')].filter((e) => filter.outcome === undefined || e.outcome === filter.outcome);
      return Promise.resolve({ ok: true, data: { entries, total: entries.length } });
    };
    render(<Activity />);
    const row = (await screen.findByText('execution count')).closest('tr');
    expect(row?.textContent).toContain('Unknown — may or may not have taken effect');
    expect(row?.textContent).not.toContain('Failed');
    await user.selectOptions(screen.getByRole('combobox', { name: /Outcome/ }), 'unknown');
    await waitFor(() => {
      expect(sentFilters().at(-1)).toEqual({ outcome: 'unknown', profileId: 'sandbox' });
    });
    await waitFor(() => {
      expect(screen.queryByText('KD-ALPHA')).toBeNull();
    });
    expect(screen.getByText('execution count')).toBeTruthy();
  });
});
