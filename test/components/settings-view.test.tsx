// The Settings view: the theme applied at once, each number checked beside its field before anything is sent, the
// sandbox's port moved and shown, a settings file that was not used said, and the data folder opened.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { SETTINGS_DEFAULTS, type Settings as Values, type SettingsState } from '../../src/shared/contract.ts';
import { Settings } from '../../src/renderer/src/views/Settings/Settings.tsx';
import { fake, readyStore } from '../support/fake-bridge.ts';

let state: SettingsState;
const sent = (name: string) => fake.calls.filter((c) => c.name === name).map((c) => c.input);

beforeEach(() => {
  readyStore();
  state = {
    settings: { ...SETTINGS_DEFAULTS },
    problem: null,
    sandbox: { url: 'http://127.0.0.1:8787', running: true, error: null, port: 8787 },
    dataFolder: '/home/vendor/.config/Keydesk',
  };
  fake.impl['settings.get'] = () => Promise.resolve({ ok: true, data: state });
  fake.impl['settings.set'] = (input) => {
    state = { ...state, settings: { ...state.settings, ...(input as Partial<Values>) } };
    return Promise.resolve({ ok: true, data: state });
  };
  fake.impl['settings.setSandboxPort'] = (input) => {
    const port = (input as { port: number | null }).port ?? 40123;
    state = { ...state, sandbox: { url: `http://127.0.0.1:${port}`, running: true, error: null, port } };
    return Promise.resolve({ ok: true, data: state });
  };
  fake.impl['settings.openDataFolder'] = () => Promise.resolve({ ok: true, data: null });
});

describe('Settings', () => {
  it('applies a theme at once and saves it', async () => {
    const user = userEvent.setup();
    render(<Settings />);
    await user.click(await screen.findByRole('radio', { name: 'Dark' }));
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('dark'));
    expect(sent('settings.set')).toEqual([{ theme: 'dark' }]);
    await user.click(screen.getByRole('radio', { name: 'Light' }));
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('light'));
    expect(screen.getByRole('radio', { name: 'Light' })).toHaveProperty('checked', true);
  });

  it('refuses a port below 1024, then moves the sandbox and shows where', async () => {
    const user = userEvent.setup();
    render(<Settings />);
    // The form starts afresh once the port is known: found after that.
    await screen.findByText('Listening at http://127.0.0.1:8787.');
    const form = screen.getByRole('form', { name: 'Local sandbox port' });
    const port = within(form).getByLabelText('Port');
    await user.clear(port);
    await user.type(port, '80');
    await user.click(within(form).getByRole('button', { name: 'Move the sandbox' }));
    expect(within(form).getByText('Enter a port from 1024 to 65535.')).toBeTruthy();
    expect(sent('settings.setSandboxPort')).toEqual([]);
    await user.clear(port);
    await user.type(port, '9000');
    await user.click(within(form).getByRole('button', { name: 'Move the sandbox' }));
    await screen.findByText('Listening at http://127.0.0.1:9000.');
    const moved = screen.getByRole('form', { name: 'Local sandbox port' });
    await user.click(within(moved).getByRole('button', { name: 'Any free port' }));
    await screen.findByText('Listening at http://127.0.0.1:40123.');
    expect(sent('settings.setSandboxPort')).toEqual([{ port: 9000 }, { port: null }]);
  });

  it('checks the sampling interval and the bulk limit before sending them', async () => {
    const user = userEvent.setup();
    render(<Settings />);
    const sampling = await screen.findByRole('form', { name: 'Read the execution count every (seconds)' });
    const field = within(sampling).getByLabelText('Read the execution count every (seconds)');
    await user.clear(field);
    await user.type(field, '5');
    await user.click(within(sampling).getByRole('button', { name: 'Save' }));
    expect(within(sampling).getByText('At least 10 seconds.')).toBeTruthy();
    await user.clear(field);
    await user.type(field, '120');
    await user.click(within(sampling).getByRole('button', { name: 'Save' }));
    const bulk = screen.getByRole('form', { name: 'Default bulk limit' });
    const limit = within(bulk).getByLabelText('Default bulk limit');
    await user.clear(limit);
    await user.type(limit, 'many');
    await user.click(within(bulk).getByRole('button', { name: 'Save' }));
    expect(within(bulk).getByText('Enter a whole number.')).toBeTruthy();
    await user.clear(limit);
    await user.type(limit, '16');
    await user.click(within(bulk).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent('settings.set')).toEqual([{ sampleEverySeconds: 120 }, { bulkLimit: 16 }]));
  });

  it('changes the log level and opens the data folder', async () => {
    const user = userEvent.setup();
    render(<Settings />);
    await screen.findByText('/home/vendor/.config/Keydesk');
    await user.selectOptions(screen.getByLabelText('Log level'), 'Errors only');
    await user.click(screen.getByRole('button', { name: 'Open data folder' }));
    await waitFor(() => expect(sent('settings.openDataFolder')).toHaveLength(1));
    expect(sent('settings.set')).toEqual([{ logLevel: 'error' }]);
  });

  it('says when the settings file was not used as it stood', async () => {
    state = { ...state, problem: 'Keydesk did not use all of settings.json: bulkLimit 0 is refused (At least 1.), so it is 64.' };
    render(<Settings />);
    expect((await screen.findByRole('alert')).textContent).toBe(state.problem);
  });
});
