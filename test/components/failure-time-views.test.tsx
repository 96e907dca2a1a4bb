// A failed request says when it failed, and that it is from before once the service has answered a later request
// (RequestFailure: Keys' search, Identifier check, Validate, Keyless): an error left under a form must not read as of now.
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fake, installBridge, readySession } from '../support/fake-bridge.ts';

installBridge();
const { useKeydesk } = await import('../../src/renderer/src/store/index.ts');
const { Identifier } = await import('../../src/renderer/src/views/Identifier/Identifier.tsx');
const initial = useKeydesk.getState();

beforeEach(() => {
  readySession(useKeydesk, initial);
});

const UNREACHABLE = {
  ok: false,
  code: 'NETWORK',
  message: 'Keydesk could not reach the service. Check that it is running and that the address is right.',
} as const;

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
    fake.impl['executions.get'] = () => Promise.resolve({ ok: true, data: { executionCount: 3, sampledAt: new Date().toISOString() } });
    await act(() => useKeydesk.getState().refreshExecutions());
    expect(alert.querySelector('.stale-note')?.textContent).toMatch(
      /^That was while the service could not be reached; it has answered since, at .+: check again\.$/,
    );
  });
});
