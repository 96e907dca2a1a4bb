// Profiles' change watch on a remote profile: when it last checked, a check on demand, and the change it found
// with the fields gained and lost, both raw answers, and what Keydesk can no longer read.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DriftStatus } from '../../src/shared/domain.ts';
import { Profiles } from '../../src/renderer/src/views/Profiles/Profiles.tsx';
import { fake, readyStore, remoteProfile, sandboxProfile } from '../support/fake-bridge.ts';

const NEVER: DriftStatus = { checkedAt: null, changes: [], changedAt: null, unreadable: [], unanswered: [] };
const CHANGED: DriftStatus = {
  checkedAt: '2026-11-29T10:00:00.000Z',
  changedAt: '2026-11-29T10:00:00.000Z',
  changes: [
    {
      read: 'the execution count',
      gained: ['count'],
      lost: ['executionCount'],
      retyped: [],
      before: '{"executionCount":7}',
      after: '{"count":7}',
    },
  ],
  unreadable: ['the execution count (executionCount)'],
  unanswered: [],
};

beforeEach(() => {
  readyStore([sandboxProfile, remoteProfile]);
  fake.impl['drift.status'] = () => Promise.resolve({ ok: true, data: NEVER });
  fake.impl['drift.check'] = () => Promise.resolve({ ok: true, data: CHANGED });
});

describe('Profiles: the change watch', () => {
  it('is offered for the remote profile only, unchecked at first', async () => {
    render(<Profiles />);
    const watch = await screen.findByRole('region', { name: `Answer changes on ${remoteProfile.name}` });
    expect(within(watch).getByText(/Not checked yet\./)).toBeTruthy();
    expect(screen.queryByRole('region', { name: `Answer changes on ${sandboxProfile.name}` })).toBeNull();
  });

  it('checks on demand and shows the change with both answers', async () => {
    const user = userEvent.setup();
    render(<Profiles />);
    const watch = await screen.findByRole('region', { name: `Answer changes on ${remoteProfile.name}` });
    await user.click(within(watch).getByRole('button', { name: 'Check for changes now' }));
    const change = await within(watch).findByRole('status', { name: 'Last change seen' });
    expect(within(change).getByText(/^The answer to the execution count gained count and lost executionCount\.$/)).toBeTruthy();
    expect(within(change).getByText('{"executionCount":7}')).toBeTruthy();
    expect(within(change).getByText('{"count":7}')).toBeTruthy();
    expect(within(watch).getByRole('note').textContent).toBe(
      'Keydesk goes on working by its tolerance rules, but can no longer read the execution count (executionCount).',
    );
    expect(fake.calls.filter((c) => c.name === 'drift.check')).toEqual([{ name: 'drift.check', input: { profileId: remoteProfile.id } }]);
  });
});
