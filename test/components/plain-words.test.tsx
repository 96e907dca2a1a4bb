// The words views use for their things: the service's key is an "API key" as its field says, plurals agree, a copy
// names what was copied, a wait is said once, the thing removed has one name, and unsent items are "not sent yet".
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppStatus } from '../../src/shared/domain.ts';
import { toKeyBatch } from '../../src/shared/key-batch.ts';
import { fake, key, readyStore, remoteProfile, sandboxProfile, useKeydesk } from '../support/fake-bridge.ts';
import { jobSummaries, listed } from '../support/fake-jobs.ts';
import { Profiles } from '../../src/renderer/src/views/Profiles/Profiles.tsx';
import { GenerateForm } from '../../src/renderer/src/views/Keys/GenerateForm.tsx';
import { FailureMessage } from '../../src/renderer/src/components/FailureMessage.tsx';
import { Jobs } from '../../src/renderer/src/views/Jobs/Jobs.tsx';

const status: AppStatus = {
  version: '1.0.0',
  platform: 'linux',
  sandbox: { url: 'http://127.0.0.1:1', running: true, error: null },
  secretStorage: 'session-only',
  secretStorageReason: 'No OS keychain answered.',
  profilesFileProblem: null,
  activeProfileId: 'sandbox',
};
const toasts = () => useKeydesk.getState().toasts.map((t) => t.text);

beforeEach(() => {
  readyStore([
    sandboxProfile,
    remoteProfile,
    { ...remoteProfile, id: 'p3', name: 'Gone Shop', hasKey: false, keyHint: null, storage: 'session-only' },
  ]);
});

describe('Profiles: the service key is an API key, as its field says', () => {
  it("calls the service's key an API key everywhere in Profiles", () => {
    useKeydesk.setState({ appStatus: status });
    render(<Profiles />);
    expect(screen.getByText(/session only and are gone/).textContent).toBe(
      'API keys are kept for this session only and are gone when Keydesk quits. No OS keychain answered.',
    );
    const remote = screen.getByText('Remote Shop').closest('li') as HTMLElement;
    expect(within(remote).getByText(/…wxyz/).textContent).toBe('API key …wxyz · stored in OS keychain');
    expect(screen.getByText(/^No API key is stored/).textContent).toBe(
      'No API key is stored for "Gone Shop" (API keys kept for the session only are gone after a restart). Enter it again with Edit Gone Shop.',
    );
    expect(document.body.textContent).not.toMatch(/apiKey/);
  });

  it('names the thing removed a profile, in question and toast', async () => {
    const user = userEvent.setup();
    fake.impl['profiles.remove'] = () => Promise.resolve({ ok: true, data: null });
    render(<Profiles />);
    await user.click(screen.getByRole('button', { name: 'Remove Remote Shop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove this profile?' });
    expect(within(dialog).getByText(/^Its API key/).textContent).toMatch(/^Its API key is deleted from the OS keychain\./);
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => {
      expect(toasts()).toContain('Profile removed.');
    });
  });

  it('says a limit of one request in the singular', async () => {
    const user = userEvent.setup();
    let ceiling = { ceiling: 64, isDefault: true };
    fake.impl['jobs.getCeiling'] = () => Promise.resolve({ ok: true, data: ceiling });
    fake.impl['jobs.setCeiling'] = (input) => {
      ceiling = { ceiling: (input as { ceiling: number }).ceiling, isDefault: false };
      return Promise.resolve({ ok: true, data: ceiling });
    };
    render(<Profiles />);
    const form = await screen.findByRole('form', { name: 'Parallel requests for bulk actions on Remote Shop' });
    const field = within(form).getByLabelText('Parallel requests for bulk actions');
    await user.clear(field);
    await user.type(field, '1');
    await user.click(within(form).getByRole('button', { name: 'Save bulk limit' }));
    await waitFor(() => {
      expect(toasts()).toContain('Bulk jobs send at most 1 request at a time.');
    });
  });
});

describe('Keys: Copy all of the generated keys', () => {
  it('names the count of keys copied, not the view', async () => {
    const user = userEvent.setup();
    fake.impl['keys.generate'] = () =>
      Promise.resolve({ ok: true, data: { generated: toKeyBatch([key('AAAAA-1'), key('AAAAA-2'), key('AAAAA-3')]) } });
    render(<GenerateForm />);
    await user.clear(screen.getByLabelText('Count'));
    await user.type(screen.getByLabelText('Count'), '3');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await screen.findByText('3 keys generated.');
    await user.click(screen.getByRole('button', { name: 'Copy all' }));
    await waitFor(() => {
      expect(toasts()).toContain('3 keys copied.');
    });
    expect(await navigator.clipboard.readText()).toBe('AAAAA-1\nAAAAA-2\nAAAAA-3');
  });
});

describe('Keys: Copy all, refused by the clipboard', () => {
  it('says which copy failed: the keys generated, by their count', async () => {
    const user = userEvent.setup();
    fake.impl['keys.generate'] = () => Promise.resolve({ ok: true, data: { generated: toKeyBatch([key('AAAAA-1'), key('AAAAA-2')]) } });
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new DOMException('denied', 'NotAllowedError'));
    render(<GenerateForm />);
    await user.clear(screen.getByLabelText('Count'));
    await user.type(screen.getByLabelText('Count'), '2');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await screen.findByText('2 keys generated.');
    await user.click(screen.getByRole('button', { name: 'Copy all' }));
    await waitFor(() => {
      expect(toasts()).toContain('Copy the 2 keys generated: the clipboard refused; use an export instead.');
    });
  });
});

describe('A cooldown failure', () => {
  it('says how long to wait once', () => {
    render(
      <FailureMessage
        failure={{
          ok: false,
          code: 'COOLDOWN',
          message: "This key's HWID was reset recently and the service enforces a cooldown. Try again in 60 minutes.",
          retryAfterSeconds: 3600,
        }}
      />,
    );
    expect(screen.getByRole('alert').textContent).toBe(
      "This key's HWID was reset recently and the service enforces a cooldown. Try again in 60 minutes.",
    );
  });

  it('still says the time left when the message does not', () => {
    render(<FailureMessage failure={{ ok: false, code: 'RATE_LIMITED', message: 'The service is busy.', retryAfterSeconds: 600 }} />);
    expect(screen.getByRole('alert').textContent).toBe('The service is busy. (about 10 min left)');
  });
});

describe('Jobs: what a job has not sent', () => {
  const summary = jobSummaries({
    id: '11111111-1111-4111-8111-111111111111',
    profileId: 'sandbox',
    action: 'extend',
    days: 3,
    note: null,
    state: 'running',
    reason: null,
    createdAt: '2026-01-01T10:00:00.000Z',
    finishedAt: null,
    total: 2000,
    counts: { pending: 1366, sent: 7, done: 627, failed: 0, unknown: 0 },
    ratePerSecond: null,
    etaSeconds: null,
    concurrency: 8,
    ceiling: 8,
    pausedUntil: null,
  });

  it('is "not sent yet" while the job runs', async () => {
    fake.impl['jobs.list'] = () => listed([summary({})]);
    render(<Jobs />);
    const table = await screen.findByRole('table', { name: 'Jobs' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent)
        .at(-1),
    ).toBe('Not sent yet');
  });

  it('is "not sent" once the job has ended', async () => {
    fake.impl['jobs.list'] = () =>
      listed([
        summary({
          state: 'cancelled',
          finishedAt: '2026-01-01T10:05:00.000Z',
          counts: { pending: 1373, sent: 0, done: 627, failed: 0, unknown: 0 },
        }),
      ]);
    render(<Jobs />);
    const table = await screen.findByRole('table', { name: 'Jobs' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent)
        .at(-1),
    ).toBe('Not sent');
  });
});
