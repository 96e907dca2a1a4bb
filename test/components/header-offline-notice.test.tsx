// The window's header and offline notice in jsdom against the fake bridge: the active profile named, nothing of the
// first after a switch, and an outage said once, by its cause, claiming only what is true of what failed.
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fake, fakeStartedMain, key, remoteProfile, useKeydesk } from '../support/fake-bridge.ts';
import { mismatch, readyWithNoHwid } from '../support/view-start.ts';
import { App } from '../../src/renderer/src/App.tsx';

beforeEach(readyWithNoHwid);

describe('the header, the offline notice and a profile switch', () => {
  beforeEach(() => {
    fakeStartedMain();
    fake.impl['profiles.select'] = () => Promise.resolve({ ok: true, data: remoteProfile });
  });

  it('names the active profile, and nothing of the first after a switch', async () => {
    const user = userEvent.setup();
    render(<App />);
    await screen.findByLabelText('Active service');
    const shown = () => screen.getByRole<HTMLSelectElement>('combobox', { name: 'Service' }).selectedOptions[0]?.textContent;
    expect(shown()).toBe('Local sandbox — sandbox at http://127.0.0.1:1');
    act(() => {
      useKeydesk.setState({
        view: 'validate',
        validation: mismatch,
        validationRequest: { status: 'idle', error: null },
        lookupResult: { active: [], generated: [key('FROM-SANDBOX')] },
      });
    });
    await screen.findByText('Refused: The key is bound to another machine.');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Service' }), 'p2');
    await waitFor(() => {
      expect(shown()).toBe('Remote Shop — remote at https://shop.example.com');
    });
    expect(screen.queryByText('Refused: The key is bound to another machine.')).toBeNull();
    expect(useKeydesk.getState().lookupResult).toBeNull();
  });

  it('says only what is true while the service does not answer', async () => {
    fake.impl['executions.get'] = () =>
      Promise.resolve({
        ok: false,
        code: 'NETWORK',
        message: 'Keydesk could not reach the service. Check that it is running and that the address is right.',
        detail: 'GET http://127.0.0.1:1/api/executions: 127.0.0.1:1 refused the connection. Is the service running?',
      });
    render(<App />);
    const headline = 'Local sandbox refused the connection: it is probably not running. Start it, or check the port in its address.';
    const banner = await screen.findByText(headline);
    const text = banner.closest('[role="alert"]')?.textContent ?? '';
    expect(text).toContain('nothing is queued');
    expect(text).not.toMatch(/will go through|once it is back, actions/);
    // A failed read leaves the last count marked as such.
    expect(await screen.findByText('No count could be read.')).toBeTruthy();
    fake.impl['identifier.check'] = () => Promise.resolve({ ok: true, data: { exists: true, service: 'Demo' } });
    await act(() => useKeydesk.getState().checkIdentifier('demo'));
    expect(screen.queryByText(headline)).toBeNull();
  });

  it('does not say a change whose answer was lost was not done', async () => {
    fake.impl['executions.get'] = () =>
      Promise.resolve({
        ok: false,
        code: 'TIMEOUT',
        message: 'The service did not answer in time. Try again.',
        detail: 'GET http://127.0.0.1:1/api/executions: the service did not answer in time.',
      });
    fake.impl['executions.push'] = () =>
      Promise.resolve({
        ok: false,
        code: 'OUTCOME_UNKNOWN',
        message: 'The service did not confirm the outcome: it may or may not have taken effect. Check before retrying.',
      });
    await act(() => useKeydesk.getState().pushExecution());
    render(<App />);
    const banner = (await screen.findByText('Local sandbox did not answer in time: it may be overloaded or far away.')).closest(
      '[role="alert"]',
    );
    const text = banner?.textContent ?? '';
    expect(text).toContain('“Push an execution” may or may not have taken effect: check before trying it again.');
    expect(text).not.toContain('What just failed was not done');
    expect(text).toContain('nothing is queued');
  });

  it("says a running job's unanswered requests may have taken effect", async () => {
    fake.impl['executions.get'] = () =>
      Promise.resolve({
        ok: false,
        code: 'TIMEOUT',
        message: 'The service did not answer in time. Try again.',
        detail: 'GET http://127.0.0.1:1/api/executions: the service did not answer in time.',
      });
    fake.impl['jobs.list'] = () =>
      Promise.resolve({
        ok: true,
        data: {
          jobs: [
            {
              id: '11111111-1111-4111-8111-111111111111',
              profileId: 'sandbox',
              action: 'extend',
              days: 1,
              note: null,
              state: 'running',
              reason: null,
              createdAt: '2026-01-02T09:50:00.000Z',
              finishedAt: null,
              total: 2_000,
              counts: { pending: 1_816, sent: 1, done: 168, failed: 0, unknown: 15 },
              ratePerSecond: null,
              etaSeconds: null,
              concurrency: 1,
              ceiling: 4,
              pausedUntil: null,
              version: 1,
              notAnswering: { since: '2026-01-02T09:51:00.000Z', awaiting: 1 },
            },
          ],
          elsewhere: [],
        },
      });
    await act(() => useKeydesk.getState().loadJobList());
    render(<App />);
    const banner = (await screen.findByText('Local sandbox did not answer in time: it may be overloaded or far away.')).closest(
      '[role="alert"]',
    );
    const text = banner?.textContent ?? '';
    expect(text).not.toContain('What just failed was not done');
    expect(text).toContain(
      'A running job’s requests that got no answer may or may not have taken effect: its line counts them as unknown.',
    );
    expect(text).toContain('Anything else that failed was not done, and nothing is queued');
  });

  it('Overview says an outage once, in the notice', async () => {
    fake.impl['executions.get'] = () =>
      Promise.resolve({
        ok: false,
        code: 'TIMEOUT',
        message: 'The service did not answer in time. Try again.',
        detail: 'GET http://127.0.0.1:1/api/executions: the service did not answer in time.',
      });
    render(<App />);
    await screen.findByText('Local sandbox did not answer in time: it may be overloaded or far away.');
    const card = screen.getByRole('heading', { name: 'Executions' }).closest('.card');
    if (!(card instanceof HTMLElement)) throw new Error('no Executions card');
    await within(card).findByText('No count could be read.');
    expect(within(card).queryByRole('alert')).toBeNull();
    expect(card.textContent).not.toContain('Try again');
  });

  it('Overview says why a count read was refused, with Try again', async () => {
    const user = userEvent.setup();
    fake.impl['executions.get'] = () =>
      Promise.resolve({ ok: false, code: 'INTERNAL', message: 'The service failed while handling the request. Try again later.' });
    render(<App />);
    const card = (await screen.findByRole('heading', { name: 'Executions' })).closest('.card');
    if (!(card instanceof HTMLElement)) throw new Error('no Executions card');
    await within(card).findByText('The service failed while handling the request. Try again later.');
    fake.impl['executions.get'] = () => Promise.resolve({ ok: true, data: { executionCount: 12, sampledAt: '2026-01-01T00:00:00.000Z' } });
    await user.click(within(card).getByRole('button', { name: 'Try again' }));
    expect((await within(card).findByLabelText('Execution count')).textContent).toBe('12');
    expect(within(card).queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it.each([
    [
      'a refused connection',
      { code: 'NETWORK', detail: 'GET http://127.0.0.1:1/api/executions: 127.0.0.1:1 refused the connection. Is the service running?' },
      true,
      'Local sandbox refused the connection: it is probably not running. Start it, or check the port in its address.',
    ],
    [
      'a host no name server knows',
      { code: 'NETWORK', detail: 'GET https://shop.example.com/api/executions: the host shop.example.com was not found (DNS).' },
      true,
      'Keydesk cannot reach Local sandbox: this computer seems to have no network. Check the connection.',
    ],
    [
      'no network on this machine',
      { code: 'NETWORK', detail: 'GET http://127.0.0.1:1/api/executions: the request failed (network error).' },
      false,
      'Keydesk cannot reach Local sandbox: this computer seems to have no network. Check the connection.',
    ],
    [
      'an answer that never came',
      { code: 'TIMEOUT', detail: 'GET http://127.0.0.1:1/api/executions: no answer within 15 s.' },
      true,
      'Local sandbox did not answer in time: it may be overloaded or far away.',
    ],
    [
      'a connection reset',
      { code: 'NETWORK', detail: 'GET http://127.0.0.1:1/api/executions: the connection was reset.' },
      true,
      'Local sandbox is not answering.',
    ],
  ] as const)('names the cause of the outage in its first words: %s', async (_cause, failure, networkUp, headline) => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(networkUp);
    fake.impl['executions.get'] = () => Promise.resolve({ ok: false, message: 'Keydesk could not reach the service.', ...failure });
    render(<App />);
    const banner = await screen.findByText(headline);
    expect(banner.tagName).toBe('STRONG');
    // The client's own words stay under Details.
    expect(banner.closest('[role="alert"]')?.querySelector('details pre')?.textContent).toContain(failure.detail);
  });
});
