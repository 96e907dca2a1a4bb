// The Generate, Keyless and Profiles forms in jsdom against the fake bridge: a problem shown beside its field until
// that field changes, nothing sent meanwhile; the add form cleared after adding; a new origin asks for the API key.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fake, remoteProfile } from '../support/fake-bridge.ts';
import { readyWithNoHwid } from '../support/view-start.ts';
import { GenerateForm } from '../../src/renderer/src/views/Keys/GenerateForm.tsx';
import { Profiles } from '../../src/renderer/src/views/Profiles/Profiles.tsx';
import { Keyless } from '../../src/renderer/src/views/Keyless/Keyless.tsx';

beforeEach(readyWithNoHwid);

describe('Generate form', () => {
  it('refuses 1e3 and a past date beside their fields, sending nothing', async () => {
    const user = userEvent.setup();
    render(<GenerateForm />);
    await user.clear(screen.getByLabelText('Count'));
    await user.type(screen.getByLabelText('Count'), '1e3');
    await user.clear(screen.getByLabelText('Expiry date'));
    await user.type(screen.getByLabelText('Expiry date'), '2020-01-01');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    // The limit the form really has: above one request's 100,000 it runs a job.
    expect(
      screen.getByText('Count must be a whole number from 1 to 1,000,000; above 100,000 runs as a job of several requests.'),
    ).toBeTruthy();
    expect(screen.getByText(/^The expiry date \(2020-01-01\) is before today/)).toBeTruthy();
    expect(fake.calls.filter((c) => c.name === 'keys.generate')).toHaveLength(0);
  });

  it('shows a service error beside its field until that field changes', async () => {
    const user = userEvent.setup();
    fake.impl['keys.generate'] = () =>
      Promise.resolve({ ok: false, code: 'INVALID_INPUT', message: 'note must be at most 1000 characters.' });
    render(<GenerateForm />);
    await user.type(screen.getByLabelText('Note', { exact: true }), 'spring');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    const note = screen.getByLabelText('Note', { exact: true });
    await waitFor(() => {
      expect(note.getAttribute('aria-invalid')).toBe('true');
    });
    expect(screen.getByText('note must be at most 1000 characters.')).toBeTruthy();
    await user.type(screen.getByLabelText('Count'), '0');
    expect(screen.getByText('note must be at most 1000 characters.')).toBeTruthy();
    await user.type(note, 'x');
    expect(screen.queryByText('note must be at most 1000 characters.')).toBeNull();
    expect(note.getAttribute('aria-invalid')).toBeNull();
  });
});

describe('Keyless', () => {
  it('refuses 1e3 days beside the field', async () => {
    const user = userEvent.setup();
    fake.impl['keyless.add'] = () =>
      Promise.resolve({ ok: false, code: 'CONFLICT', message: 'That HWID is already authorized without a key.' });
    render(<Keyless />);
    const form = screen.getByRole('form', { name: 'Add an entry' });
    await user.type(within(form).getByLabelText('HWID'), 'HW-1');
    await user.type(within(form).getByLabelText('Days (empty: no expiry)'), '1e3');
    await user.click(within(form).getByRole('button', { name: 'Add' }));
    expect(within(form).getByText('Days must be a whole number from 1 to 999,999.')).toBeTruthy();
    expect(fake.calls.filter((c) => c.name === 'keyless.add')).toHaveLength(0);
    await user.clear(within(form).getByLabelText('Days (empty: no expiry)'));
    expect(within(form).queryByText('Days must be a whole number from 1 to 999,999.')).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Add' }));
    expect(await within(form).findByText('That HWID is already authorized without a key.')).toBeTruthy();
  });
});

describe('Profiles', () => {
  it('clears every field of the add form after adding a profile', async () => {
    const user = userEvent.setup();
    fake.impl['profiles.add'] = () => Promise.resolve({ ok: true, data: { ...remoteProfile, id: 'p3', name: 'EU Shop' } });
    render(<Profiles />);
    const form = screen.getByRole('form', { name: 'Add a remote service' });
    await user.type(within(form).getByLabelText('Name'), 'EU Shop');
    await user.type(within(form).getByLabelText('Base URL'), 'https://eu.example.com');
    await user.type(within(form).getByLabelText('API key'), 'kd_secret');
    await user.type(within(form).getByLabelText('Validation URL (optional)'), 'https://eu.example.com/v2_validation');
    await user.type(within(form).getByLabelText('Service identifier (optional)'), 'eu-shop');
    await user.click(within(form).getByRole('button', { name: 'Add service' }));
    await screen.findByText('EU Shop');
    for (const label of ['Name', 'Base URL', 'API key', 'Validation URL (optional)', 'Service identifier (optional)']) {
      expect(within(form).getByLabelText<HTMLInputElement>(label).value, label).toBe('');
    }
  });

  it('asks for the API key again when the base URL changes origin', async () => {
    const user = userEvent.setup();
    fake.impl['profiles.update'] = () => Promise.resolve({ ok: true, data: { ...remoteProfile, baseUrl: 'https://new.example.net' } });
    render(<Profiles />);
    await user.click(screen.getByRole('button', { name: 'Edit Remote Shop' }));
    const edit = screen.getByRole('form', { name: 'Edit Remote Shop' });
    // A new path on the same origin keeps the stored key.
    await user.clear(within(edit).getByLabelText('Base URL'));
    await user.type(within(edit).getByLabelText('Base URL'), 'https://shop.example.com/v1');
    expect(within(edit).getByLabelText('Replace API key (leave empty to keep it)')).toBeTruthy();
    await user.clear(within(edit).getByLabelText('Base URL'));
    await user.type(within(edit).getByLabelText('Base URL'), 'https://new.example.net');
    const keyField = within(edit).getByLabelText('API key (required: the address changes)');
    expect(
      within(edit).getByText('The stored key was given for https://shop.example.com; it is never sent to another address.'),
    ).toBeTruthy();
    await user.click(within(edit).getByRole('button', { name: 'Save' }));
    expect(
      within(edit).getByText('Type the API key for https://new.example.net: Keydesk never sends a stored key to a new address.'),
    ).toBeTruthy();
    expect(fake.calls.filter((c) => c.name === 'profiles.update')).toHaveLength(0);
    await user.type(keyField, 'kd_new');
    await user.click(within(edit).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(fake.calls.filter((c) => c.name === 'profiles.update').map((c) => c.input)).toEqual([
        { id: 'p2', baseUrl: 'https://new.example.net', validationUrl: 'https://new.example.net/v2_validation', apiKey: 'kd_new' },
      ]);
    });
  });
});
