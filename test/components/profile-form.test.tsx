// The profile forms say what is wrong with an address in the page, beside the field (not in the browser's own
// popup), and warn before an apiKey would cross the network unencrypted.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fake, readyStore, remoteProfile, sandboxProfile, useKeydesk } from '../support/fake-bridge.ts';
import { Profiles } from '../../src/renderer/src/views/Profiles/Profiles.tsx';
import { EditProfile } from '../../src/renderer/src/views/Profiles/EditProfile.tsx';

beforeEach(() => {
  readyStore();
});

const addForm = () => screen.getByRole('form', { name: 'Add a remote service' });
const adds = () => fake.calls.filter((c) => c.name === 'profiles.add').map((c) => c.input);

describe('Profiles: adding a service', () => {
  it('says beside each field what is missing, sending nothing', async () => {
    const user = userEvent.setup();
    render(<Profiles />);
    const form = addForm();
    await user.click(within(form).getByRole('button', { name: 'Add service' }));
    expect(within(form).getByText('Name is required.')).toBeTruthy();
    expect(within(form).getByText('Base URL is required.')).toBeTruthy();
    expect(within(form).getByText('API key is required.')).toBeTruthy();
    await user.type(within(form).getByLabelText('Base URL'), 'shop.example.com');
    expect(within(form).queryByText('Base URL is required.')).toBeNull();
    await user.type(within(form).getByLabelText('Validation URL (optional)'), 'ftp://shop.example.com/v');
    await user.click(within(form).getByRole('button', { name: 'Add service' }));
    expect(within(form).getByText('Base URL must be a full web address, e.g. https://api.example.com.')).toBeTruthy();
    expect(within(form).getByText('Validation URL must start with https:// (or http://).')).toBeTruthy();
    expect(adds()).toEqual([]);
  });

  it('warns that an http:// remote sends the API key in clear', async () => {
    const user = userEvent.setup();
    fake.impl['profiles.add'] = () => Promise.resolve({ ok: true, data: { ...remoteProfile, id: 'p3', name: 'Plain' } });
    render(<Profiles />);
    const form = addForm();
    const base = within(form).getByLabelText('Base URL');
    await user.type(base, 'http://127.0.0.1:8787');
    expect(within(form).queryByText(/sent in clear/)).toBeNull();
    await user.clear(base);
    await user.type(base, 'http://shop.example.com');
    const warning = within(form).getByText(
      'http:// is not encrypted: the API key is sent in clear to shop.example.com on every request. Use https:// unless you trust every network in between.',
    );
    expect(base.getAttribute('aria-describedby')).toContain(warning.closest('small')?.id);
    await user.type(within(form).getByLabelText('Name'), 'Plain');
    await user.type(within(form).getByLabelText('API key'), 'kd_1');
    await user.click(within(form).getByRole('button', { name: 'Add service' }));
    await waitFor(() => {
      expect(adds()).toEqual([{ name: 'Plain', baseUrl: 'http://shop.example.com', apiKey: 'kd_1' }]);
    });
  });
});

describe('Profiles: editing a service', () => {
  it('refuses an empty or malformed address beside its field', async () => {
    const user = userEvent.setup();
    render(<Profiles />);
    await user.click(screen.getByRole('button', { name: 'Edit Remote Shop' }));
    const edit = screen.getByRole('form', { name: 'Edit Remote Shop' });
    await user.clear(within(edit).getByLabelText('Base URL'));
    await user.click(within(edit).getByRole('button', { name: 'Save' }));
    expect(within(edit).getByText('Base URL is required.')).toBeTruthy();
    await user.type(within(edit).getByLabelText('Base URL'), 'http://shop.example.com');
    expect(within(edit).getByText(/the API key is sent in clear to shop\.example\.com/)).toBeTruthy();
    await user.clear(within(edit).getByLabelText('Validation URL'));
    await user.type(within(edit).getByLabelText('Validation URL'), 'nope');
    await user.click(within(edit).getByRole('button', { name: 'Save' }));
    expect(within(edit).getByText('Validation URL must be a full web address, e.g. https://api.example.com.')).toBeTruthy();
    expect(fake.calls.filter((c) => c.name === 'profiles.update')).toEqual([]);
  });
});

describe('Profiles: the edit form beside the bulk limit', () => {
  it('puts the edit form before the limit form, naming each button', async () => {
    const user = userEvent.setup();
    fake.impl['jobs.getCeiling'] = () => Promise.resolve({ ok: true, data: { ceiling: 64, isDefault: true } });
    render(<Profiles />);
    const limit = await screen.findByRole('form', { name: 'Parallel requests for bulk actions on Remote Shop' });
    expect(within(limit).getByRole('button', { name: 'Save bulk limit' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save limit' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Edit Remote Shop' }));
    const edit = screen.getByRole('form', { name: 'Edit Remote Shop' });
    // The edit form's Save comes first in the page, and the limit's button is not in the edit form.
    expect(edit.compareDocumentPosition(limit) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(edit).queryByRole('button', { name: /limit/ })).toBeNull();
  });
});

describe('Profiles: a remote profile whose apiKey is gone (session-only storage after a restart)', () => {
  const gone = { ...remoteProfile, hasKey: false, keyHint: null, storage: 'session-only' as const };

  it('says no API key is stored and to enter it again', async () => {
    const user = userEvent.setup();
    useKeydesk.setState({ profiles: [sandboxProfile, gone] });
    render(<Profiles />);
    expect(screen.getByText(/^No API key is stored/).textContent).toBe(
      'No API key is stored for "Remote Shop" (API keys kept for the session only are gone after a restart). Enter it again with Edit Remote Shop.',
    );
    expect(screen.queryByText(/stored in this session only/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Edit Remote Shop' }));
    const form = screen.getByRole('form', { name: 'Edit Remote Shop' });
    expect(within(form).queryByLabelText(/leave empty to keep it/)).toBeNull();
    expect(within(form).getByLabelText('API key (none is stored: enter it again)')).toBeTruthy();
  });
});

describe('Profiles: editing the base URL', () => {
  it('moves a validation URL that was the default along with it', async () => {
    const user = userEvent.setup();
    render(<EditProfile profile={remoteProfile} onDone={() => undefined} />);
    await user.clear(screen.getByLabelText('Base URL'));
    await user.type(screen.getByLabelText('Base URL'), 'https://new.example.com');
    expect(screen.getByLabelText('Validation URL')).toHaveProperty('value', 'https://new.example.com/v2_validation');
  });

  it('leaves a validation URL the person set where it is', async () => {
    const user = userEvent.setup();
    render(<EditProfile profile={{ ...remoteProfile, validationUrl: 'https://auth.example.net/check' }} onDone={() => undefined} />);
    await user.clear(screen.getByLabelText('Base URL'));
    await user.type(screen.getByLabelText('Base URL'), 'https://new.example.com');
    expect(screen.getByLabelText('Validation URL')).toHaveProperty('value', 'https://auth.example.net/check');
  });
});

describe('Profiles: adding one after a failure', () => {
  it('drops could not reach the service when a field refuses next', async () => {
    const user = userEvent.setup();
    fake.impl['profiles.add'] = () => Promise.resolve({ ok: false, code: 'NETWORK', message: 'Keydesk could not reach the service.' });
    render(<Profiles />);
    await user.type(screen.getByLabelText('Name'), 'Shop');
    await user.type(screen.getByLabelText('Base URL'), 'https://shop.example.org');
    await user.type(screen.getByLabelText('API key'), 'kd_1');
    await user.click(screen.getByRole('button', { name: 'Add service' }));
    await screen.findByText('Keydesk could not reach the service.');
    await user.clear(screen.getByLabelText('Name'));
    await user.click(screen.getByRole('button', { name: 'Add service' }));
    expect(screen.queryByText('Keydesk could not reach the service.')).toBeNull();
    expect(fake.calls.filter((c) => c.name === 'profiles.add')).toHaveLength(1);
  });
});
