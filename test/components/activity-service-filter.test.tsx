// Activity's service filter: the active service's acts at first, any other service's or all of them on request,
// following the active service while none other is picked; the export writes what the list shows.
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/shared/domain.ts';
import { fake, freshStore, remoteProfile, sandboxProfile, useKeydesk } from '../support/fake-bridge.ts';
import { Activity } from '../../src/renderer/src/views/Activity/Activity.tsx';

const entry = (id: number, profileId: string, profileName: string, target: string): AuditEntry => ({
  id,
  at: '2026-01-01T00:00:00.000Z',
  profileId,
  profileName,
  action: 'keys.delete',
  target,
  outcome: 'ok',
  message: '',
});
const ENTRIES = [entry(2, 'sandbox', 'Local sandbox', 'KD-SANDBOX'), entry(1, remoteProfile.id, remoteProfile.name, 'KD-REMOTE')];

beforeEach(() => {
  freshStore({ activeProfileId: 'sandbox', profiles: [sandboxProfile, remoteProfile] });
  // main's rule: a service's acts only, when one is named.
  fake.impl['audit.list'] = (input) => {
    const { filter } = input as { filter: { profileId?: string } };
    const entries = ENTRIES.filter((e) => filter.profileId === undefined || e.profileId === filter.profileId);
    return Promise.resolve({ ok: true, data: { entries, total: entries.length } });
  };
  fake.impl['audit.export'] = () => Promise.resolve({ ok: true, data: { path: '/tmp/activity.csv' } });
});

const sentFilters = () => fake.calls.filter((c) => c.name === 'audit.list').map((c) => (c.input as { filter: unknown }).filter);

describe('Activity: the service filter', () => {
  it('lists the active service’s acts first, and every service’s on request', async () => {
    const user = userEvent.setup();
    render(<Activity />);
    await screen.findByText('KD-SANDBOX');
    expect(screen.queryByText('KD-REMOTE')).toBeNull();
    const service = screen.getByRole('combobox', { name: /Service/ });
    expect((service as HTMLSelectElement).value).toBe('sandbox');
    expect(sentFilters()).toEqual([{ profileId: 'sandbox' }]);

    await user.selectOptions(service, 'All services');
    await screen.findByText('KD-REMOTE');
    expect(screen.getByText('KD-SANDBOX')).toBeTruthy();
    expect(sentFilters().at(-1)).toEqual({});

    await user.selectOptions(service, remoteProfile.name);
    await waitFor(() => {
      expect(screen.queryByText('KD-SANDBOX')).toBeNull();
    });
    expect(sentFilters().at(-1)).toEqual({ profileId: remoteProfile.id });
    await user.click(screen.getByRole('button', { name: /^Export CSV/ }));
    await waitFor(() => {
      expect(fake.calls.find((c) => c.name === 'audit.export')?.input).toEqual({ filter: { profileId: remoteProfile.id }, format: 'csv' });
    });
  });

  it('follows the active service while no other is picked', async () => {
    render(<Activity />);
    await screen.findByText('KD-SANDBOX');
    act(() => {
      useKeydesk.setState({ activeProfileId: remoteProfile.id });
    });
    await screen.findByText('KD-REMOTE');
    expect(screen.queryByText('KD-SANDBOX')).toBeNull();
    expect(sentFilters().at(-1)).toEqual({ profileId: remoteProfile.id });
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: /Service/ }).value).toBe(remoteProfile.id);
  });
});
