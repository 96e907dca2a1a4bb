// The views as a person meets them, in jsdom with React Testing Library against a fake bridge typed by the
// contract: what is on screen after a refusal, a failure, a profile switch, a change of field or a crash.
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuditEntry, ValidationReport } from '../../src/shared/domain.ts';
import { fake, fakeStartedMain, key, ledgerRow, readyStore, remoteProfile, useKeydesk, validReport } from '../support/fake-bridge.ts';
import { listed } from '../support/fake-jobs.ts';
import { App } from '../../src/renderer/src/App.tsx';
import { Validate } from '../../src/renderer/src/views/Validate/Validate.tsx';
import { GenerateForm } from '../../src/renderer/src/views/Keys/GenerateForm.tsx';
import { Keys } from '../../src/renderer/src/views/Keys/Keys.tsx';
import { Activity, ACTIVITY_PAGE } from '../../src/renderer/src/views/Activity/Activity.tsx';
import { Profiles } from '../../src/renderer/src/views/Profiles/Profiles.tsx';
import { AllKeys } from '../../src/renderer/src/views/AllKeys/AllKeys.tsx';
import { Keyless } from '../../src/renderer/src/views/Keyless/Keyless.tsx';
import { ViewBoundary } from '../../src/renderer/src/components/ViewBoundary.tsx';
import { FailureMessage } from '../../src/renderer/src/components/FailureMessage.tsx';

const success = validReport;
const mismatch: ValidationReport = {
  ...success,
  outcome: 'hwid_mismatch',
  success: false,
  message: 'The key is bound to another device.',
  dryRun: true,
  hwid: 'HW-B',
  expiresAt: null,
  notes: 'The key is bound to another HWID.',
  raw: JSON.stringify(
    { V2_Authentication: 'hwid_mismatch', Key_Information: { Notes: 'The key is bound to another HWID.', Hardware_ID: 'HW-B' } },
    null,
    2,
  ),
};

beforeEach(() => {
  readyStore();
  fake.impl['hwid.read'] = () => Promise.resolve({ ok: true, data: { readings: [] } });
});

async function validateWith(user: ReturnType<typeof userEvent.setup>, hwid: string) {
  const hwidField = screen.queryByLabelText('Custom HWID');
  if (!hwidField) await user.click(screen.getByLabelText('Type a value'));
  await user.clear(screen.getByLabelText('Custom HWID'));
  await user.type(screen.getByLabelText('Custom HWID'), hwid);
  await user.click(screen.getByRole('button', { name: 'Validate' }));
}

/** The Validate view after one success: KEY-1 let in on HW-A, as the view says. */
async function validatedOnce(): Promise<ReturnType<typeof userEvent.setup>> {
  const user = userEvent.setup();
  render(<Validate />);
  await user.type(screen.getByLabelText('Key'), 'KEY-1');
  fake.impl['validation.run'] = () => Promise.resolve({ ok: true, data: success });
  await validateWith(user, 'HW-A');
  await screen.findByText('Valid: this machine was let in; the key is now bound to it.');
  return user;
}

describe('Validate & HWID', () => {
  it('shows a refusal alone after a success, styled as a failure', async () => {
    const user = await validatedOnce();
    fake.impl['validation.run'] = () => Promise.resolve({ ok: true, data: mismatch });
    await validateWith(user, 'HW-B');
    const outcome = await screen.findByRole('status', { name: 'Validation outcome' });
    expect(within(outcome).getByText('Refused: The key is bound to another machine.')).toBeTruthy();
    expect(within(outcome).getByText('hwid_mismatch')).toBeTruthy();
    expect(within(outcome).getByText('The key is bound to another HWID.')).toBeTruthy();
    expect(within(outcome).getByText('Raw JSON')).toBeTruthy();
    expect(outcome.querySelector('pre')?.textContent).toContain('"Hardware_ID": "HW-B"');
    expect(outcome.className).toContain('bad');
    expect(screen.queryByText('Valid: this machine was let in; the key is now bound to it.')).toBeNull();
    expect(screen.queryByText('spring batch')).toBeNull();
    expect(screen.getAllByRole('status', { name: 'Validation outcome' })).toHaveLength(1);
  });

  it("shows a flat refusal's words with no guessed outcome", async () => {
    const user = userEvent.setup();
    render(<Validate />);
    await user.type(screen.getByLabelText('Key'), 'KEY-1');
    const wordless: ValidationReport = {
      ...success,
      outcome: 'invalid_key',
      reportedOutcome: null,
      success: false,
      message: 'Invalid key for this service',
      premium: false,
      notes: '',
      raw: JSON.stringify({ success: false, message: 'Invalid key for this service' }, null, 2),
    };
    fake.impl['validation.run'] = () => Promise.resolve({ ok: true, data: wordless });
    await validateWith(user, 'HW-A');
    const outcome = await screen.findByRole('status', { name: 'Validation outcome' });
    expect(within(outcome).getByText('Refused: the service gave no outcome word; its message says why.')).toBeTruthy();
    expect(within(outcome).getByText('Invalid key for this service')).toBeTruthy();
    expect(within(outcome).getByText('— (not sent)')).toBeTruthy();
    expect(within(outcome).queryByText(/No such key for this service/)).toBeNull();
    expect(outcome.className).toContain('bad');
  });

  it("shows a failed call's message with nothing of the earlier answer", async () => {
    const user = await validatedOnce();
    fake.impl['validation.run'] = () =>
      Promise.resolve({
        ok: false,
        code: 'HTTP_ERROR',
        message: 'The service could not answer.',
        detail: 'POST http://127.0.0.1:1/v2_validation?key=***: HTTP 502',
      });
    await validateWith(user, 'HW-B');
    await screen.findByText('The service could not answer.');
    expect(screen.getByText('Details')).toBeTruthy();
    expect(screen.getByText(/HTTP 502/)).toBeTruthy();
    expect(screen.queryByRole('status', { name: 'Validation outcome' })).toBeNull();
  });
});

describe('FailureMessage', () => {
  it('puts technical detail under a closed Details disclosure', () => {
    const { rerender, container } = render(
      <FailureMessage
        failure={{
          ok: false,
          code: 'NOT_FOUND',
          message: 'The service has no key with that value.',
          detail: 'HTTP 404 from GET /api/key/fetch',
        }}
      />,
    );
    expect(screen.getByRole('alert').textContent).toContain('The service has no key with that value.');
    const details = container.querySelector('details');
    expect(details?.open).toBe(false);
    expect(details?.textContent).toContain('HTTP 404 from GET /api/key/fetch');
    rerender(<FailureMessage failure={{ ok: false, code: 'NOT_FOUND', message: 'The service has no key with that value.' }} />);
    expect(container.querySelector('details')).toBeNull();
  });
});

describe('a view that throws', () => {
  it('shows a recoverable error in its boundary; Try again renders anew', async () => {
    const user = userEvent.setup();
    let fail = true;
    function Fragile() {
      if (fail) throw new RangeError('Maximum call stack size exceeded');
      return <p>Chart drawn</p>;
    }
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <div>
        <nav>still here</nav>
        <ViewBoundary name="Overview">
          <Fragile />
        </ViewBoundary>
      </div>,
    );
    expect(screen.getByRole('heading', { name: 'Overview could not be shown' })).toBeTruthy();
    expect(screen.getByText('still here')).toBeTruthy();
    expect(screen.getByText('Maximum call stack size exceeded')).toBeTruthy();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByText('Chart drawn')).toBeTruthy();
    quiet.mockRestore();
  });
});

describe('the header, the offline notice and a profile switch', () => {
  beforeEach(() => {
    fakeStartedMain();
    fake.impl['profiles.select'] = () => Promise.resolve({ ok: true, data: remoteProfile });
  });

  it('names the active profile, and nothing of the first after a switch', async () => {
    const user = userEvent.setup();
    render(<App />);
    const header = await screen.findByLabelText('Active service');
    expect(header.textContent).toBe('Local sandbox at http://127.0.0.1:1');
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
      expect(screen.getByLabelText('Active service').textContent).toBe('Remote Shop at https://shop.example.com');
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

describe('Keys: the detail panel', () => {
  it('does not carry a field error over to the next key opened', async () => {
    const user = userEvent.setup();
    useKeydesk.setState({
      lookupRequest: { status: 'ready', error: null },
      lookupResult: { active: [], generated: [key('KEY-A'), key('KEY-B')] },
    });
    render(<Keys />);
    await user.click(screen.getByRole('button', { name: 'KEY-A' }));
    const detail = screen.getByRole('complementary', { name: 'Key detail' });
    await user.clear(within(detail).getByLabelText('Extend by days'));
    await user.type(within(detail).getByLabelText('Extend by days'), '0');
    await user.click(within(detail).getByRole('button', { name: 'Extend' }));
    expect(within(detail).getByText('Days must be a whole number from 1 to 999,999.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'KEY-B' }));
    const next = screen.getByRole('complementary', { name: 'Key detail' });
    expect(within(next).getByText('KEY-B', { selector: 'dd span.mono' })).toBeTruthy();
    expect(within(next).queryByText('Days must be a whole number from 1 to 999,999.')).toBeNull();
    expect(within(next).getByLabelText<HTMLInputElement>('Extend by days').value).toBe('30');
  });

  it('shows the new expiry and HWID in the row after changes', async () => {
    const user = userEvent.setup();
    const bound = key('KEY-A', 'active', { hwid: 'HW-OLD', expire: '2099-01-01', expiresAt: '2099-01-01T23:59:59.999Z' });
    const extended = { ...bound, expire: '2099-01-06', expiresAt: '2099-01-06T23:59:59.999Z' };
    const expiry = (iso: string) => table.querySelector(`time[datetime="${iso}"]`);
    useKeydesk.setState({ lookupRequest: { status: 'ready', error: null }, lookupResult: { active: [bound], generated: [] } });
    fake.impl['keys.extend'] = () => Promise.resolve({ ok: true, data: { key: extended } });
    fake.impl['keys.resetHwid'] = () => Promise.resolve({ ok: true, data: { key: { ...extended, hwid: null } } });
    render(<Keys />);
    const table = screen.getByRole('table', { name: 'Matching keys' });
    expect(expiry('2099-01-01T23:59:59.999Z')).not.toBeNull();
    await user.click(screen.getByRole('button', { name: 'KEY-A' }));
    const detail = screen.getByRole('complementary', { name: 'Key detail' });
    await user.clear(within(detail).getByLabelText('Extend by days'));
    await user.type(within(detail).getByLabelText('Extend by days'), '5');
    await user.click(within(detail).getByRole('button', { name: 'Extend' }));
    await waitFor(() => {
      expect(expiry('2099-01-06T23:59:59.999Z')).not.toBeNull();
    });
    expect(expiry('2099-01-01T23:59:59.999Z')).toBeNull();
    await user.click(within(detail).getByRole('button', { name: 'Reset HWID' }));
    await user.click(within(screen.getByRole('dialog', { name: "Reset this key's HWID?" })).getByRole('button', { name: 'Reset' }));
    await waitFor(() => {
      expect(within(table).queryByText('HW-OLD')).toBeNull();
    });
  });
});

describe('Keys: asking first, and the keyboard', () => {
  const bound = key('KEY-A', 'active', { hwid: 'HW-CUSTOMER' });
  const open = async (user: ReturnType<typeof userEvent.setup>, value = 'KEY-A') => {
    await user.click(screen.getByRole('button', { name: value }));
    return screen.getByRole('complementary', { name: 'Key detail' });
  };
  beforeEach(() => {
    useKeydesk.setState({
      lookupRequest: { status: 'ready', error: null },
      lookupResult: { active: [bound], generated: [key('KEY-B'), key('KEY-C')] },
    });
  });

  it('asks before an HWID reset, naming the machine; Cancel sends nothing', async () => {
    const user = userEvent.setup();
    fake.impl['keys.resetHwid'] = () => Promise.resolve({ ok: true, data: { key: { ...bound, hwid: null } } });
    render(<Keys />);
    const detail = await open(user);
    await user.click(within(detail).getByRole('button', { name: 'Reset HWID' }));
    const dialog = screen.getByRole('dialog', { name: "Reset this key's HWID?" });
    expect(dialog.textContent).toContain('KEY-A is bound to HW-CUSTOMER.');
    expect(dialog.textContent).toContain("The customer's machine is unbound");
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fake.calls.filter((c) => c.name === 'keys.resetHwid')).toEqual([]);
    await user.click(within(detail).getByRole('button', { name: 'Reset HWID' }));
    await user.click(within(screen.getByRole('dialog', { name: "Reset this key's HWID?" })).getByRole('button', { name: 'Reset' }));
    await waitFor(() => {
      expect(fake.calls.filter((c) => c.name === 'keys.resetHwid').map((c) => c.input)).toEqual([{ keyValue: 'KEY-A' }]);
    });
  });

  it('asks before extending past ten years only', async () => {
    const user = userEvent.setup();
    fake.impl['keys.extend'] = (input) =>
      Promise.resolve({ ok: true, data: { key: { ...bound, note: String((input as { days: number }).days) } } });
    render(<Keys />);
    const detail = await open(user);
    const days = within(detail).getByLabelText('Extend by days');
    await user.clear(days);
    await user.type(days, '3650');
    await user.click(within(detail).getByRole('button', { name: 'Extend' }));
    await waitFor(() => {
      expect(fake.calls.filter((c) => c.name === 'keys.extend').map((c) => c.input)).toEqual([{ keyValue: 'KEY-A', days: 3650 }]);
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.clear(days);
    await user.type(days, '36500');
    await user.click(within(detail).getByRole('button', { name: 'Extend' }));
    const dialog = screen.getByRole('dialog', { name: 'Extend by 36,500 days?' });
    expect(dialog.textContent).toContain('about 100 years');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fake.calls.filter((c) => c.name === 'keys.extend')).toHaveLength(1);
    await user.click(within(detail).getByRole('button', { name: 'Extend' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Extend by 36,500 days?' })).getByRole('button', { name: 'Extend by 36,500 days' }),
    );
    await waitFor(() => {
      expect(fake.calls.filter((c) => c.name === 'keys.extend').map((c) => c.input)).toEqual([
        { keyValue: 'KEY-A', days: 3650 },
        { keyValue: 'KEY-A', days: 36500 },
      ]);
    });
  });

  it('takes the focus on open and gives it back on Esc', async () => {
    const user = userEvent.setup();
    render(<Keys />);
    const detail = await open(user, 'KEY-B');
    expect(detail.contains(document.activeElement)).toBe(true);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('complementary', { name: 'Key detail' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'KEY-B' }));
    // The close button does the same.
    await user.keyboard('{Enter}');
    await user.click(
      within(screen.getByRole('complementary', { name: 'Key detail' })).getByRole('button', { name: 'Close the key detail' }),
    );
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'KEY-B' }));
  });

  it('keeps the panel open when Esc only cancels a confirmation inside it', async () => {
    const user = userEvent.setup();
    render(<Keys />);
    const detail = await open(user);
    await user.click(within(detail).getByRole('button', { name: 'Delete key' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this key?' });
    // With the focus in the dialog, Esc is the dialog's (a browser cancels the dialog itself), not the panel's.
    within(dialog).getByRole('button', { name: 'Cancel' }).focus();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('complementary', { name: 'Key detail' })).toBeTruthy();
  });

  it('moves the focus to a neighbouring row after a delete', async () => {
    const user = userEvent.setup();
    fake.impl['keys.delete'] = () => Promise.resolve({ ok: true, data: { deletedKey: 'x' } });
    render(<Keys />);
    const remove = async (value: string) => {
      const detail = await open(user, value);
      await user.click(within(detail).getByRole('button', { name: 'Delete key' }));
      await user.click(within(screen.getByRole('dialog', { name: 'Delete this key?' })).getByRole('button', { name: 'Delete' }));
      await waitFor(() => {
        expect(screen.queryByRole('button', { name: value })).toBeNull();
      });
    };
    await remove('KEY-B');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'KEY-C' }));
    await remove('KEY-C');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'KEY-A' }));
    await remove('KEY-A');
    expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Key value, note or HWID' }));
  });
});

describe('Activity', () => {
  const entries = (from: number, n: number): AuditEntry[] =>
    Array.from({ length: n }, (_, i) => ({
      id: 250 - from - i,
      at: '2026-01-01T00:00:00.000Z',
      profileId: 'sandbox',
      profileName: 'Local sandbox',
      action: 'keys.generate',
      target: `T-${from + i}`,
      outcome: 'ok',
      message: '',
    }));

  it("pages through every entry and shows a refused filter's reason", async () => {
    const user = userEvent.setup();
    fake.impl['audit.list'] = (input) => {
      const { offset, limit, filter } = input as { offset: number; limit: number; filter: { text?: string } };
      if ((filter.text?.length ?? 0) > 256)
        return Promise.resolve({ ok: false, code: 'INVALID_INPUT', message: 'The filter must be at most 256 characters.' });
      return Promise.resolve({ ok: true, data: { entries: entries(offset, Math.min(limit, 250 - offset)), total: 250 } });
    };
    render(<Activity />);
    await screen.findByText('1–100 of 250 operations, newest first');
    await user.click(screen.getByRole('button', { name: 'Older' }));
    await screen.findByText('101–200 of 250 operations, newest first');
    await user.click(screen.getByRole('button', { name: 'Older' }));
    await screen.findByText('201–250 of 250 operations, newest first');
    expect(screen.getByText('T-249')).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Older' }).disabled).toBe(true);
    expect(fake.calls.filter((c) => c.name === 'audit.list').map((c) => (c.input as { offset: number }).offset)).toEqual([
      0,
      ACTIVITY_PAGE,
      2 * ACTIVITY_PAGE,
    ]);

    act(() => {
      useKeydesk.getState().setDraft('activity.text', 'x'.repeat(257));
    });
    await screen.findByText('The filter must be at most 256 characters.');
    expect(screen.queryByRole('table', { name: 'Activity' })).toBeNull();
    expect(screen.queryByText(/of 250 operations/)).toBeNull();
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

describe('All keys: a count past the cap', () => {
  const row = (value: string) => ledgerRow(value, { note: 'spring' });
  it('says more than 10,000 match; Count exactly shows the whole count', async () => {
    fake.impl['jobs.list'] = () => listed([]);
    fake.impl['ledger.query'] = (input) => {
      const exact = (input as { exactCount?: boolean }).exactCount === true;
      return Promise.resolve({
        ok: true,
        data: { rows: [row('KD-A'), row('KD-B')], total: exact ? 123_456 : 10_000, totalCapped: !exact },
      });
    };
    const user = userEvent.setup();
    render(<AllKeys />);
    const status = await screen.findByText(/More than 10,000 keys match/);
    expect(screen.getByRole('button', { name: 'Select all matching (more than 10,000)' })).toBeTruthy();
    await user.click(within(status).getByRole('button', { name: 'Count exactly' }));
    await waitFor(() => {
      expect(screen.getByRole('status').textContent).toBe('123,456 keys');
    });
    expect(fake.calls.filter((c) => c.name === 'ledger.query').map((c) => (c.input as { exactCount?: boolean }).exactCount)).toContain(
      true,
    );
    expect(screen.queryByRole('button', { name: 'Count exactly' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Select all 123,456' })).toBeTruthy();
  });

  it('counts for select all only the keys a job would act on', async () => {
    fake.impl['jobs.list'] = () => listed([]);
    // Five keys match; two of them are known deleted, so a job over all matching would act on three.
    fake.impl['ledger.query'] = () =>
      Promise.resolve({
        ok: true,
        data: { rows: ['KD-A', 'KD-B', 'KD-C', 'KD-D', 'KD-E'].map(row), total: 5, totalCapped: false, targets: 3, targetsCapped: false },
      });
    const user = userEvent.setup();
    render(<AllKeys />);
    await screen.findByText('5 keys');
    await user.click(screen.getByRole('button', { name: 'Select all 3 (2 deleted left out)' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    expect(within(bar).getByText('All 3 matching').textContent).toBe('All 3 matching');
  });
});
