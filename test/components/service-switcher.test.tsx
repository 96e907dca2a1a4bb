// The header's service switcher and sandbox mark in jsdom against the fake bridge: each service listed by name, kind
// and address, and "Sandbox: test data" shown while, and only while, a sandbox profile is active.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fake, fakeStartedMain, remoteProfile, sandboxProfile } from '../support/fake-bridge.ts';
import { readyWithNoHwid } from '../support/view-start.ts';
import { App } from '../../src/renderer/src/App.tsx';

beforeEach(readyWithNoHwid);

const optionTexts = () =>
  within(screen.getByRole('combobox', { name: 'Service' }))
    .getAllByRole('option')
    .map((o) => o.textContent);

describe('the service switcher and the sandbox mark', () => {
  beforeEach(() => {
    fake.impl['profiles.select'] = () => Promise.resolve({ ok: true, data: remoteProfile });
  });

  it('lists each service with its kind and its address', async () => {
    fakeStartedMain();
    render(<App />);
    await screen.findByLabelText('Active service');
    expect(optionTexts()).toEqual(['Local sandbox — sandbox at http://127.0.0.1:1', 'Remote Shop — remote at https://shop.example.com']);
  });

  it('marks the header "Sandbox: test data" while the sandbox is active', async () => {
    fakeStartedMain();
    render(<App />);
    const mark = await within(await screen.findByRole('banner')).findByText('Sandbox: test data');
    expect(mark.closest('header')?.getAttribute('data-kind')).toBe('sandbox');
  });

  it('shows no sandbox mark while a remote service is active', async () => {
    fakeStartedMain([sandboxProfile, remoteProfile], 'p2');
    render(<App />);
    await screen.findByLabelText('Active service');
    await waitFor(() => expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Service' }).value).toBe('p2'));
    expect(screen.queryByText('Sandbox: test data')).toBeNull();
    expect(screen.getByRole('banner').getAttribute('data-kind')).toBe('remote');
  });

  it('drops the sandbox mark on a switch to a remote service', async () => {
    const user = userEvent.setup();
    fakeStartedMain();
    render(<App />);
    await screen.findByText('Sandbox: test data');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Service' }), 'p2');
    await waitFor(() => expect(screen.queryByText('Sandbox: test data')).toBeNull());
  });
});
