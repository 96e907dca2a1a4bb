// A failed request says when it failed, and that it is from before once the service has answered a later request
// (RequestFailure): an error left under a form must not read as of now. Keys' search also offers the search again,
// and leads to Profiles when no API key is stored; Generate's failure says the same.
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { OperationResult } from '../../src/shared/contract.ts';
import type { Failure } from '../../src/shared/result.ts';
import { fake, key, readyStore, useKeydesk } from '../support/fake-bridge.ts';
import { Identifier } from '../../src/renderer/src/views/Identifier/Identifier.tsx';
import { GenerateForm } from '../../src/renderer/src/views/Keys/GenerateForm.tsx';
import { Keys } from '../../src/renderer/src/views/Keys/Keys.tsx';

beforeEach(() => {
  readyStore();
});

const UNREACHABLE = {
  ok: false,
  code: 'NETWORK',
  message: 'Keydesk could not reach the service. Check that it is running and that the address is right.',
} as const;
const refused = (): Promise<OperationResult<'keys.fetchActive'>> => Promise.resolve(UNREACHABLE);
const found = (): Promise<OperationResult<'keys.fetchActive'>> =>
  Promise.resolve({ ok: true, data: { keys: [key('ACME-1', 'active')], total: 1 } });
const none = (): Promise<OperationResult<'keys.fetchGenerated'>> => Promise.resolve({ ok: true, data: { keys: [], total: 0 } });
/** The service answers a later read (the offline probe's, or Overview's). */
async function serviceAnswers(): Promise<void> {
  fake.impl['executions.get'] = () => Promise.resolve({ ok: true, data: { executionCount: 3, sampledAt: new Date().toISOString() } });
  await act(() => useKeydesk.getState().refreshExecutions());
}
const failure = () => {
  const alert = screen.getByText(UNREACHABLE.message).closest('[role="alert"]');
  if (!(alert instanceof HTMLElement)) throw new Error('no failure shown');
  return alert;
};

/** Keys searched for "acme trial" while the service could not be reached, the failure on screen. */
async function searchUnreachable(): Promise<ReturnType<typeof userEvent.setup>> {
  const user = userEvent.setup();
  fake.impl['keys.fetchActive'] = refused;
  fake.impl['keys.fetchGenerated'] = refused;
  render(<Keys />);
  await user.type(screen.getByRole('searchbox', { name: 'Key value, note or HWID' }), 'acme trial{Enter}');
  await screen.findByText(UNREACHABLE.message);
  return user;
}

describe('Keys: a search that could not reach the service', () => {
  it('says when it failed, and offers the search again', async () => {
    await searchUnreachable();
    const at = useKeydesk.getState().lookupRequest.failedAt?.at;
    expect(at).toBeTruthy();
    expect(within(failure()).getByText(/^Searching for “acme trial” failed at/)).toBeTruthy();
    expect(
      within(failure())
        .getByText(/^Searching for “acme trial” failed at/)
        .querySelector('time')
        ?.getAttribute('datetime'),
    ).toBe(at);
    expect(screen.getByRole('button', { name: 'Search again' })).toBeTruthy();
  });

  it('is marked as from before once a later request is answered', async () => {
    const user = await searchUnreachable();
    expect(failure().textContent).not.toMatch(/answered since/);
    await serviceAnswers();
    expect(useKeydesk.getState().online).toBe(true);
    const note = within(failure()).getByText(/while the service could not be reached; it has answered since/);
    expect(note.textContent).toMatch(
      /^That was while the service could not be reached; it has answered since, at .+: search again to see the keys\.$/,
    );
    expect(note.querySelector('time')?.getAttribute('datetime')).toBe(useKeydesk.getState().serviceAnswered?.at);
    expect(within(failure()).getByText(/^Searching for “acme trial” failed at/)).toBeTruthy();
    fake.impl['keys.fetchActive'] = found;
    fake.impl['keys.fetchGenerated'] = none;
    await user.click(screen.getByRole('button', { name: 'Search again' }));
    await screen.findByText(/Results for “acme trial”/);
    expect(screen.queryByText(UNREACHABLE.message)).toBeNull();
  });

  it("marks an answering service's refusal as from before too", async () => {
    const user = userEvent.setup();
    const busy = () =>
      Promise.resolve({
        ok: false as const,
        code: 'INTERNAL' as const,
        message: 'The service failed while handling the request. Try again later.',
      });
    fake.impl['keys.fetchActive'] = busy;
    fake.impl['keys.fetchGenerated'] = busy;
    render(<Keys />);
    await user.type(screen.getByRole('searchbox', { name: 'Key value, note or HWID' }), 'acme{Enter}');
    const alert = (await screen.findByText('The service failed while handling the request. Try again later.')).closest(
      '[role="alert"]',
    ) as HTMLElement;
    expect(within(alert).getByText(/^Searching for “acme” failed at/)).toBeTruthy();
    await serviceAnswers();
    expect(alert.querySelector('.stale-note')?.textContent).toMatch(
      /^The service has answered since, at .+: search again to see whether it still fails\.$/,
    );
  });
});

describe('Keys: a Generate that could not reach the service', () => {
  it('says when it failed, and that the service has answered since', async () => {
    const user = userEvent.setup();
    fake.impl['keys.generate'] = () => Promise.resolve(UNREACHABLE);
    render(<GenerateForm />);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await screen.findByText(UNREACHABLE.message);
    expect(within(failure()).getByText(/^Generating failed at/)).toBeTruthy();
    expect(failure().textContent).not.toMatch(/answered since/);
    await serviceAnswers();
    expect(within(failure()).getByText(/it has answered since/).textContent).toMatch(
      /^That was while the service could not be reached; it has answered since, at .+: generate again\.$/,
    );
  });
});

describe('Keys: a search with no API key stored', () => {
  it('offers the way to Profiles beside the words', async () => {
    const user = userEvent.setup();
    const gone: Failure = {
      ok: false,
      code: 'KEYCHAIN_UNAVAILABLE',
      message:
        'No API key is stored for "Remote Shop" (API keys kept for the session only are gone after a restart). Enter it again in Profiles.',
    };
    useKeydesk.setState({ view: 'keys', lookupRequest: { status: 'error', error: gone }, lookupTerm: 'KEY', lookupResult: null });
    render(<Keys />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Enter it again in Profiles.');
    await user.click(within(alert).getByRole('button', { name: 'Go to Profiles' }));
    await waitFor(() => {
      expect(useKeydesk.getState().view).toBe('profiles');
    });
  });

  it('offers no way to Profiles for a keychain that is only locked', () => {
    const locked: Failure = {
      ok: false,
      code: 'KEYCHAIN_UNAVAILABLE',
      message: 'The OS keychain did not give Keydesk the API key for "Remote Shop". It may be locked: unlock it and try again.',
    };
    useKeydesk.setState({ view: 'keys', lookupRequest: { status: 'error', error: locked }, lookupTerm: 'KEY', lookupResult: null });
    render(<Keys />);
    expect(within(screen.getByRole('alert')).queryByRole('button', { name: 'Go to Profiles' })).toBeNull();
  });
});

describe('a failed identifier check', () => {
  it('says when it failed, and later that the service was unreachable then', async () => {
    const user = userEvent.setup();
    fake.impl['identifier.check'] = () => Promise.resolve(UNREACHABLE);
    render(<Identifier />);
    await user.type(screen.getByRole('textbox', { name: 'Identifier' }), 'shop{Enter}');
    const alert = (await screen.findByText(UNREACHABLE.message)).closest('[role="alert"]') as HTMLElement;
    const when = within(alert).getByText(/^Checking the identifier failed at/);
    expect(when.querySelector('time')?.getAttribute('datetime')).toBe(useKeydesk.getState().identifierRequest.failedAt?.at);
    expect(alert.textContent).not.toMatch(/answered since/);
    await serviceAnswers();
    expect(alert.querySelector('.stale-note')?.textContent).toMatch(
      /^That was while the service could not be reached; it has answered since, at .+: check again\.$/,
    );
  });
});
