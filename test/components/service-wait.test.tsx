// Every action that needs the service waits the same way while it does not answer: disabled, one sentence saying
// why (its button points to it), a Check now that asks at once, and enabled again as soon as the service answers.
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Failure } from '../../src/shared/result.ts';
import { fake, fakeStartedMain, useKeydesk } from '../support/fake-bridge.ts';
import { readyWithNoHwid } from '../support/view-start.ts';
import { App } from '../../src/renderer/src/App.tsx';
import type { ViewName } from '../../src/renderer/src/store/index.ts';

const REFUSED: Failure = {
  ok: false,
  code: 'NETWORK',
  message: 'Keydesk could not reach the service. Check that it is running and that the address is right.',
  detail: 'POST http://127.0.0.1:1/api/generate: 127.0.0.1:1 refused the connection. Is the service running?',
};
const down = () => Promise.resolve(REFUSED);
const executionsCalls = () => fake.calls.filter((c) => c.name === 'executions.get').length;

beforeEach(() => {
  readyWithNoHwid();
  fakeStartedMain();
  useKeydesk.setState({ view: 'keys' });
});

/** The button's state and the words its aria-describedby points to ('' when it points nowhere). */
function waiting(button: HTMLButtonElement): { disabled: boolean; why: string } {
  const id = button.getAttribute('aria-describedby');
  return { disabled: button.disabled, why: id ? (document.getElementById(id)?.textContent ?? '') : '' };
}

async function shown(view: ViewName, name: string): Promise<HTMLButtonElement> {
  act(() => useKeydesk.getState().setView(view));
  return screen.findByRole<HTMLButtonElement>('button', { name });
}

describe('actions during an outage', () => {
  it('Generate waits once a call fails, and comes back on Check now', async () => {
    const user = userEvent.setup();
    fake.impl['keys.generate'] = down;
    fake.impl['executions.get'] = down;
    render(<App />);
    const generate = await screen.findByRole<HTMLButtonElement>('button', { name: 'Generate' });
    await user.click(generate);
    await screen.findByText('Generating waits until the service answers again.');
    expect(waiting(generate)).toEqual({ disabled: true, why: 'Generating waits until the service answers again.' });
    // The service is back: Check now asks it at once, and Generate is offered again.
    fake.impl['executions.get'] = () => Promise.resolve({ ok: true, data: { executionCount: 4, sampledAt: '2026-01-02T00:00:00.000Z' } });
    const asked = executionsCalls();
    // Keys shows it under Generate and under Search: the same sentence form, the same button.
    const [checkNow] = screen.getAllByRole('button', { name: 'Check now' });
    if (!checkNow) throw new Error('no Check now');
    await user.click(checkNow);
    expect(executionsCalls()).toBe(asked + 1);
    expect(await screen.findByRole('button', { name: 'Generate' })).toHaveProperty('disabled', false);
    expect(screen.queryByText(/waits until the service answers again/)).toBeNull();
    expect(waiting(generate).why).toBe('');
  });

  it('search, identifier check, keyless add and validate wait the same way', async () => {
    const user = userEvent.setup();
    fake.impl['keys.fetchActive'] = down;
    fake.impl['keys.fetchGenerated'] = down;
    fake.impl['executions.get'] = down;
    render(<App />);
    await user.type(await screen.findByRole('searchbox', { name: 'Key value, note or HWID' }), 'K{Enter}');
    await screen.findByText('Searching waits until the service answers again.');
    expect(waiting(await shown('keys', 'Search'))).toEqual({ disabled: true, why: 'Searching waits until the service answers again.' });
    expect(waiting(await shown('keys', 'Generate'))).toEqual({ disabled: true, why: 'Generating waits until the service answers again.' });
    expect(waiting(await shown('identifier', 'Check'))).toEqual({ disabled: true, why: 'Checking waits until the service answers again.' });
    expect(waiting(await shown('keyless', 'Add'))).toEqual({ disabled: true, why: 'Adding waits until the service answers again.' });
    expect(waiting(await shown('validate', 'Validate'))).toEqual({
      disabled: true,
      why: 'Validating waits until the service answers again.',
    });
    // Any answer from the service ends the wait everywhere, with no click.
    fake.impl['identifier.check'] = () => Promise.resolve({ ok: true, data: { exists: true, service: 'Demo' } });
    await act(() => useKeydesk.getState().checkIdentifier('demo'));
    expect(waiting(await shown('validate', 'Validate'))).toEqual({ disabled: false, why: '' });
    expect(waiting(await shown('identifier', 'Check'))).toEqual({ disabled: false, why: '' });
    expect(waiting(await shown('keys', 'Generate'))).toEqual({ disabled: false, why: '' });
  });

  it('the key panel’s actions wait, and say why once', async () => {
    fake.impl['executions.get'] = down;
    render(<App />);
    await screen.findByLabelText('Active service');
    act(() => {
      useKeydesk.getState().selectKey({
        id: 'k1',
        value: 'AAAAA-BBBBB',
        note: 'n',
        status: 'active',
        isPremium: false,
        expire: '2099-01-01',
        expiresByDaysKey: false,
        daysKey: null,
        expiresAt: '2099-01-01T23:59:59.999Z',
        hwid: 'HW-1',
        createdAt: '2026-01-01T00:00:00.000Z',
        activatedAt: null,
        lastResetAt: null,
        serviceId: 's',
      });
      useKeydesk.setState({ online: false, offlineReason: REFUSED });
    });
    const why = 'Acting on this key waits until the service answers again.';
    for (const name of ['Refresh', 'Extend', 'Reset HWID', 'Delete key'])
      expect(waiting(await screen.findByRole<HTMLButtonElement>('button', { name })), name).toEqual({ disabled: true, why });
    expect(screen.getAllByText(why)).toHaveLength(1);
  });
});
