// A validation URL on another host than the base URL's is saved only after a plain yes that names that host, in the
// Add and the Edit form; the yes goes to main with the request (main refuses the URL without it).
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fake, installBridge, readySession, remoteProfile } from '../support/fake-bridge.ts';

installBridge();
const { useKeydesk } = await import('../../src/renderer/src/store/index.ts');
const { Profiles } = await import('../../src/renderer/src/views/Profiles/Profiles.tsx');
const initial = useKeydesk.getState();

beforeEach(() => {
  readySession(useKeydesk, initial);
});

const sent = (name: string) => fake.calls.filter((c) => c.name === name).map((c) => c.input);

describe('Profiles: a validation URL on another host', () => {
  it('asks, naming the host, before an edit saves it', async () => {
    const user = userEvent.setup();
    fake.impl['profiles.update'] = () => Promise.resolve({ ok: true, data: remoteProfile });
    render(<Profiles />);
    await user.click(screen.getByRole('button', { name: 'Edit Remote Shop' }));
    const edit = screen.getByRole('form', { name: 'Edit Remote Shop' });
    await user.clear(within(edit).getByLabelText('Validation URL'));
    await user.type(within(edit).getByLabelText('Validation URL'), 'https://elsewhere.example/v2_validation');
    await user.click(within(edit).getByRole('button', { name: 'Save' }));
    const ask = screen.getByRole('dialog', { name: 'Send validations to elsewhere.example?' });
    expect(within(ask).getByText(/not on shop\.example\.com like the base URL/)).toBeTruthy();
    expect(sent('profiles.update')).toEqual([]);
    await user.click(within(ask).getByRole('button', { name: 'Use elsewhere.example' }));
    await waitFor(() => {
      expect(sent('profiles.update')).toEqual([
        { id: 'p2', validationUrl: 'https://elsewhere.example/v2_validation', confirmValidationOrigin: 'https://elsewhere.example' },
      ]);
    });
  });

  it('sends nothing when the person says no on adding', async () => {
    const user = userEvent.setup();
    render(<Profiles />);
    const form = screen.getByRole('form', { name: 'Add a remote service' });
    await user.type(within(form).getByLabelText('Name'), 'Other');
    await user.type(within(form).getByLabelText('Base URL'), 'https://api.example.com');
    await user.type(within(form).getByLabelText('API key'), 'kd_1');
    await user.type(within(form).getByLabelText('Validation URL (optional)'), 'https://check.example.net/v2_validation');
    await user.click(within(form).getByRole('button', { name: 'Add service' }));
    const ask = screen.getByRole('dialog', { name: 'Send validations to check.example.net?' });
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(sent('profiles.add')).toEqual([]);
  });
});
