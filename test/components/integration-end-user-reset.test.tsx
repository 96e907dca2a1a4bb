// Integration's end-user reset: the public link for the active service and key, a button snippet that reads the
// cooldown, and a word that a remote service may not offer it.
import { render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { Integration } from '../../src/renderer/src/views/Integration/Integration.tsx';
import { readyStore, remoteProfile, sandboxProfile, useKeydesk } from '../support/fake-bridge.ts';

beforeEach(() => {
  readyStore([sandboxProfile, remoteProfile]);
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

  it('says a remote service may not offer it', () => {
    useKeydesk.setState({ activeProfileId: remoteProfile.id });
    render(<Integration />);
    expect(within(section()).getByRole('note').textContent).toMatch(new RegExp(`^${remoteProfile.name} may not offer this`));
    expect(within(section()).getByText(/answers 429 with a/)).toBeTruthy();
    expect(within(section()).queryByText(/embedded sandbox/)).toBeNull();
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
