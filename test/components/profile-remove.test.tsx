// Removing a profile says what stops being shown, and while a job runs for that profile it is not offered: the
// dialog says which job, and leads to it (main refuses such a removal too; its words reach the screen).
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { JobSummary } from '../../src/shared/domain.ts';
import { fake, readyStore, remoteProfile, sandboxProfile, useKeydesk } from '../support/fake-bridge.ts';
import { Profiles } from '../../src/renderer/src/views/Profiles/Profiles.tsx';

const extend = (over: Partial<JobSummary>): JobSummary => ({
  id: '55555555-5555-4555-8555-555555555555',
  profileId: remoteProfile.id,
  action: 'extend',
  days: 2,
  note: null,
  state: 'running',
  reason: null,
  createdAt: '2026-01-01T10:00:00.000Z',
  finishedAt: null,
  total: 5000,
  counts: { pending: 3396, sent: 0, done: 1604, failed: 0, unknown: 0 },
  ratePerSecond: null,
  etaSeconds: null,
  concurrency: 1,
  ceiling: 8,
  pausedUntil: null,
  version: 1,
  ...over,
});

beforeEach(() => {
  readyStore([sandboxProfile, { ...remoteProfile, local: { ledgerKeys: 5000, jobs: 1 } }]);
});

const removes = () => fake.calls.filter((c) => c.name === 'profiles.remove');

describe('Profiles: removing a service', () => {
  it('says the API key goes and the local records are not shown', async () => {
    const user = userEvent.setup();
    render(<Profiles />);
    await user.click(screen.getByRole('button', { name: 'Remove Remote Shop' }));
    const counted = await screen.findByRole('dialog', { name: 'Remove this profile?' });
    expect(within(counted).getByText(/^Its API key/).textContent).toBe(
      "Its API key is deleted from the OS keychain. Keydesk's local record of it, its ledger of 5,000 keys and its history of 1 job, is no longer shown (adding the service again starts both empty). The keys on the service are not touched.",
    );
    await user.click(within(counted).getByRole('button', { name: 'Cancel' }));
  });

  it("states main's counts as the dialog opens", async () => {
    const user = userEvent.setup();
    fake.impl['profiles.list'] = () =>
      Promise.resolve({
        ok: true,
        data: { profiles: [sandboxProfile, { ...remoteProfile, local: { ledgerKeys: 7000, jobs: 2 } }], activeProfileId: 'sandbox' },
      });
    render(<Profiles />);
    await user.click(screen.getByRole('button', { name: 'Remove Remote Shop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove this profile?' });
    expect(within(dialog).getByText(/^Its API key/).textContent).toContain('its ledger of 7,000 keys and its history of 2 jobs');
  });

  it('speaks in general words when the counts are not known', async () => {
    const user = userEvent.setup();
    useKeydesk.setState({ profiles: [sandboxProfile, { ...remoteProfile, local: undefined }] });
    render(<Profiles />);
    await user.click(screen.getByRole('button', { name: 'Remove Remote Shop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove this profile?' });
    expect(within(dialog).getByText(/^Its API key/).textContent).toBe(
      "Its API key is deleted from the OS keychain. Keydesk's local record of it, the ledger of its keys and its job history, is no longer shown (adding the service again starts both empty). The keys on the service are not touched.",
    );
  });

  it('names a running job, offers no Remove, and leads to it', async () => {
    const user = userEvent.setup();
    fake.impl['profiles.select'] = () => Promise.resolve({ ok: true, data: remoteProfile });
    const elsewhere = extend({});
    useKeydesk.setState({ jobs: { [elsewhere.id]: elsewhere }, elsewhereJobId: elsewhere.id });
    render(<Profiles />);
    await user.click(screen.getByRole('button', { name: 'Remove Remote Shop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remote Shop cannot be removed now' });
    expect(within(dialog).getByText(/^A job/).textContent).toBe(
      'A job is running for this profile: Extend by 2 days, 1,604 of 5,000 done. Cancel it first, or wait for it to end.',
    );
    expect(within(dialog).queryByRole('button', { name: 'Remove' })).toBeNull();
    expect(within(dialog).queryByText(/not touched/)).toBeNull();
    // "Cancel it first" is about the job: the button that only closes the dialog must not read as cancelling it.
    expect(
      within(dialog)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Close', 'Switch to Remote Shop and open the job']);
    await user.click(within(dialog).getByRole('button', { name: 'Switch to Remote Shop and open the job' }));
    await waitFor(() => {
      expect(useKeydesk.getState().view).toBe('jobs');
    });
    expect(useKeydesk.getState()).toMatchObject({ activeProfileId: remoteProfile.id, openJobId: extend({}).id });
    expect(removes()).toEqual([]);
  });

  it('names a job this window heard nothing of, asking main', async () => {
    const user = userEvent.setup();
    fake.impl['jobs.list'] = () =>
      Promise.resolve({
        ok: true,
        data: { jobs: [], elsewhere: [extend({ counts: { pending: 4997, sent: 0, done: 3, failed: 0, unknown: 0 } })] },
      });
    render(<Profiles />);
    await user.click(screen.getByRole('button', { name: 'Remove Remote Shop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remote Shop cannot be removed now' });
    expect(within(dialog).getByText(/^A job/).textContent).toBe(
      'A job is running for this profile: Extend by 2 days, 3 of 5,000 done. Cancel it first, or wait for it to end.',
    );
    expect(within(dialog).queryByRole('button', { name: 'Remove' })).toBeNull();
  });

  it("offers to open the selected profile's own running job", async () => {
    const user = userEvent.setup();
    const job = extend({});
    useKeydesk.setState({ activeProfileId: remoteProfile.id, jobs: { [job.id]: job }, bulkJobId: job.id, currentJobId: job.id });
    render(<Profiles />);
    await user.click(screen.getByRole('button', { name: 'Remove Remote Shop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remote Shop cannot be removed now' });
    expect(
      within(dialog)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Close', 'Open the job in Jobs']);
    await user.click(within(dialog).getByRole('button', { name: 'Open the job in Jobs' }));
    await waitFor(() => {
      expect(useKeydesk.getState().view).toBe('jobs');
    });
    expect(removes()).toEqual([]);
  });

  it("shows main's refusal and does not say the profile was removed", async () => {
    const user = userEvent.setup();
    const words =
      'A job is running for this profile: Extend by 2 days, 3 of 5,000 done. Cancel it first, or wait for it to end. The profile was kept.';
    fake.impl['profiles.remove'] = () => Promise.resolve({ ok: false, code: 'CONFLICT', message: words });
    render(<Profiles />);
    await user.click(screen.getByRole('button', { name: 'Remove Remote Shop' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Remove this profile?' })).getByRole('button', { name: 'Remove' }));
    await waitFor(() => {
      expect(useKeydesk.getState().toasts.map((t) => t.text)).toContain(`Remove a service: ${words}`);
    });
    expect(useKeydesk.getState().toasts.map((t) => t.text)).not.toContain('Profile removed.');
  });
});

describe('Profiles: the cannot-be-removed dialog', () => {
  it('closes with Close, leaving the job running', async () => {
    const user = userEvent.setup();
    const job = extend({});
    useKeydesk.setState({ activeProfileId: remoteProfile.id, jobs: { [job.id]: job }, bulkJobId: job.id, currentJobId: job.id });
    render(<Profiles />);
    await user.click(screen.getByRole('button', { name: 'Remove Remote Shop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remote Shop cannot be removed now' });
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fake.calls.filter((c) => c.name === 'jobs.cancel' || c.name === 'profiles.remove')).toEqual([]);
  });
});

describe('Profiles: removing one', () => {
  it('says a session-only API key is forgotten, not deleted', async () => {
    const user = userEvent.setup();
    useKeydesk.setState({ profiles: [sandboxProfile, { ...remoteProfile, storage: 'session-only' }] });
    render(<Profiles />);
    await user.click(screen.getByRole('button', { name: 'Remove Remote Shop' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).not.toMatch(/keychain\. /);
    expect(dialog.textContent).toContain('kept only for this session (no keychain), is forgotten');
  });
});
