// Integration's end-user reset: the public link for the active service and key and a button snippet that reads the
// cooldown, where the capability check found the public reset; where it did not, why not and a check.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { Integration } from '../../src/renderer/src/views/Integration/Integration.tsx';
import type { Capability } from '../../src/shared/domain.ts';
import { fake, readyStore, remoteProfile, sandboxProfile, useKeydesk } from '../support/fake-bridge.ts';

const publicReset = (state: Capability['state']): Capability => ({ state, checkedAt: '2026-11-29T10:00:00.000Z', evidence: 'HTTP 404.' });

beforeEach(() => {
  readyStore([sandboxProfile, remoteProfile]);
  useKeydesk.setState({ capabilities: { [sandboxProfile.id]: { publicReset: publicReset('present') }, [remoteProfile.id]: {} } });
});

const section = () => screen.getByRole('region', { name: 'End-user HWID reset' });

describe('Integration: end-user HWID reset', () => {
  it('gives the public reset link for the sandbox’s identifier, no API key', () => {
    useKeydesk.setState({ activeProfileId: sandboxProfile.id });
    render(<Integration />);
    const link = within(section()).getByText(/\/api\/reset-hwid\?/);
    expect(link.textContent).toBe('http://127.0.0.1:1/api/reset-hwid?service=demo&key=YOUR-KEY');
    expect(within(section()).queryByRole('note')).toBeNull();
    expect(within(section()).getByText(/no cooldown; a standalone one sets one/)).toBeTruthy();
  });

  it('puts the test key, once made, in the link and button snippet', () => {
    useKeydesk.setState({
      activeProfileId: sandboxProfile.id,
      testKey: { profileId: sandboxProfile.id, key: { ...fakeKey(), value: 'TEST-KEY-1' } },
    });
    render(<Integration />);
    expect(within(section()).getByText(/\/api\/reset-hwid\?/).textContent).toBe(
      'http://127.0.0.1:1/api/reset-hwid?service=demo&key=TEST-KEY-1',
    );
    const js = within(section()).getByLabelText('JavaScript reset snippet').textContent;
    expect(js).toContain(`fetch("http://127.0.0.1:1/api/reset-hwid" + '?' + params)`);
    expect(js).toContain("res.headers.get('Retry-After')");
    expect(js).toContain('resetMyHwid("TEST-KEY-1")');
    expect(js).not.toMatch(/apiKey/);
  });

  it('is hidden until the check finds it, checked on demand', async () => {
    const user = userEvent.setup();
    fake.impl['service.checkCapabilities'] = () =>
      Promise.resolve({ ok: true, data: { capabilities: { publicReset: publicReset('absent') } } });
    useKeydesk.setState({ activeProfileId: remoteProfile.id });
    render(<Integration />);
    expect(within(section()).getByTestId('not-offered').textContent).toMatch(
      /^Keydesk has not yet checked whether this service can reset HWIDs for end users/,
    );
    expect(within(section()).queryByText(/\/api\/reset-hwid\?/)).toBeNull();
    await user.click(within(section()).getByRole('button', { name: 'Check now' }));
    await waitFor(() => {
      expect(within(section()).getByTestId('not-offered').textContent).toMatch(/^This service cannot reset HWIDs for end users/);
    });
  });
});

function fakeKey() {
  return {
    id: 'k_1',
    value: 'K',
    note: 'integration test',
    status: 'generated' as const,
    isPremium: false,
    expire: '2099-01-01',
    expiresByDaysKey: false,
    daysKey: null,
    expiresAt: '2099-01-01T23:59:59.999Z',
    hwid: null,
    createdAt: null,
    activatedAt: null,
    lastResetAt: null,
    serviceId: 'svc_1',
  };
}
