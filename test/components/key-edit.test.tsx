// Key edits and what each service can do, in jsdom against the fake bridge: the panel's edit sends only the fields
// changed, is offered only where the check found it (with a check where it could not tell); the HWID history with the next
// reset allowed; Profiles' check; Generate's "Works on any machine"; All keys' bulk edit.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Capability, ServiceCapabilities } from '../../src/shared/domain.ts';
import { GenerateForm } from '../../src/renderer/src/views/Keys/GenerateForm.tsx';
import { Keys } from '../../src/renderer/src/views/Keys/Keys.tsx';
import { Profiles } from '../../src/renderer/src/views/Profiles/Profiles.tsx';
import { AllKeys } from '../../src/renderer/src/views/AllKeys/AllKeys.tsx';
import { fake, key, useKeydesk } from '../support/fake-bridge.ts';
import { readyWithNoJobs, row, summary } from '../support/job-fixtures.ts';
import { readyWithNoHwid } from '../support/view-start.ts';

const at = '2026-11-29T10:00:00.000Z';
const all = (state: Capability['state']): ServiceCapabilities => ({
  keyEdit: { state, checkedAt: at, evidence: 'HTTP 404.' },
  generatedKeyEdit: { state, checkedAt: at, evidence: 'HTTP 404.' },
  publicReset: { state, checkedAt: at, evidence: 'HTTP 404.' },
});
const serviceCan = (capabilities: ServiceCapabilities) => {
  fake.impl['service.capabilities'] = () => Promise.resolve({ ok: true, data: { capabilities } });
};
const calls = (name: string) => fake.calls.filter((c) => c.name === name).map((c) => c.input);

beforeEach(() => {
  readyWithNoHwid();
  fake.impl['keys.hwidHistory'] = () => Promise.resolve({ ok: true, data: { events: [] } });
});

const openPanel = async (user: ReturnType<typeof userEvent.setup>, k = key('KEY-A')) => {
  useKeydesk.setState({ lookupRequest: { status: 'ready', error: null }, lookupResult: { active: [], generated: [k] } });
  render(<Keys />);
  await user.click(screen.getByRole('button', { name: k.value }));
  return screen.getByRole('complementary', { name: 'Key detail' });
};

describe('the key panel: Edit key', () => {
  it('sends only the changed fields and shows the key the service returns', async () => {
    const user = userEvent.setup();
    serviceCan(all('present'));
    fake.impl['keys.edit'] = () =>
      Promise.resolve({ ok: true, data: { key: key('KEY-A', 'generated', { note: 'VIP', noHwidValidation: true }) } });
    const detail = await openPanel(user);
    await user.click(within(detail).getByText('Edit key'));
    await user.clear(within(detail).getByLabelText('Key note'));
    await user.type(within(detail).getByLabelText('Key note'), 'VIP');
    await user.click(within(detail).getByLabelText('Works on any machine'));
    await user.click(within(detail).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => {
      expect(calls('keys.edit')).toEqual([{ keyValue: 'KEY-A', state: 'generated', note: 'VIP', noHwidValidation: true }]);
    });
    await waitFor(() => {
      expect(within(screen.getByRole('complementary', { name: 'Key detail' })).getByText('VIP')).toBeTruthy();
    });
  });

  it("offers a generated key's days term, saying an active key's is extended", async () => {
    const user = userEvent.setup();
    serviceCan(all('present'));
    fake.impl['keys.edit'] = () => Promise.resolve({ ok: true, data: { key: null } });
    const detail = await openPanel(user);
    await user.click(within(detail).getByText('Edit key'));
    await user.click(within(detail).getByLabelText('Expires a number of days after activation'));
    await user.clear(within(detail).getByLabelText('Days after activation'));
    await user.type(within(detail).getByLabelText('Days after activation'), '45');
    await user.click(within(detail).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => {
      expect(calls('keys.edit')).toEqual([{ keyValue: 'KEY-A', state: 'generated', expiresByDaysKey: true, daysKey: 45 }]);
    });
  });

  it('is not offered where the service has no edit endpoint', async () => {
    const user = userEvent.setup();
    serviceCan(all('absent'));
    const detail = await openPanel(user, key('KEY-B', 'active', { hwid: 'HW-1' }));
    await waitFor(() => {
      expect(within(detail).getByText(/This service cannot edit keys/)).toBeTruthy();
    });
    expect(within(detail).queryByText('Edit key')).toBeNull();
  });

  it('is not offered where the check could not tell, and checks again', async () => {
    const user = userEvent.setup();
    serviceCan(all('unknown'));
    fake.impl['service.checkCapabilities'] = () => Promise.resolve({ ok: true, data: { capabilities: all('present') } });
    const detail = await openPanel(user);
    await waitFor(() => {
      expect(within(detail).getByTestId('not-offered').textContent).toMatch(/^Keydesk could not tell whether this service can edit keys/);
    });
    expect(within(detail).queryByText('Edit key')).toBeNull();
    await user.click(within(detail).getByRole('button', { name: 'Check now' }));
    expect(await within(detail).findByText('Edit key')).toBeTruthy();
    expect(calls('service.checkCapabilities')).toEqual([{ profileId: 'sandbox' }]);
  });

  it('offers no way from a days key to a fixed date', async () => {
    const user = userEvent.setup();
    serviceCan(all('present'));
    const detail = await openPanel(user, key('KEY-D', 'generated', { expiresByDaysKey: true, daysKey: 30, expire: null }));
    await user.click(within(detail).getByText('Edit key'));
    expect(within(detail).queryByLabelText('Expires a number of days after activation')).toBeNull();
    expect(within(detail).getByLabelText<HTMLInputElement>('Days after activation').value).toBe('30');
  });
});

describe('the key panel: HWID history', () => {
  it('lists what Keydesk saw, newest first, and the next allowed reset', async () => {
    const user = userEvent.setup();
    serviceCan(all('present'));
    const next = new Date(Date.now() + 3_600_000).toISOString();
    fake.impl['keys.hwidHistory'] = () =>
      Promise.resolve({
        ok: true,
        data: {
          events: [
            { at: '2026-11-29T10:05:00.000Z', kind: 'cooldown', hwid: null, nextResetAt: next, source: 'reset' },
            { at: '2026-11-29T10:00:00.000Z', kind: 'bound', hwid: 'HW-FIRST', nextResetAt: null, source: 'ledger' },
          ],
        },
      });
    const detail = await openPanel(user, key('KEY-C', 'active', { hwid: 'HW-FIRST' }));
    await user.click(within(detail).getByText('HWID history'));
    const list = await within(detail).findByRole('list', { name: 'HWID history' });
    const items = within(list)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items[0]).toContain('Reset refused: cooldown');
    expect(items[1]).toContain('Bound HW-FIRST');
    expect(
      within(detail)
        .getByText(/^Next reset allowed/)
        .querySelector('time')
        ?.getAttribute('datetime'),
    ).toBe(next);
    expect(calls('keys.hwidHistory')).toContainEqual({ keyValue: 'KEY-C' });
  });
});

describe('Profiles: what each service can do', () => {
  it('shows each endpoint, and checks again on demand', async () => {
    const user = userEvent.setup();
    serviceCan({});
    fake.impl['service.checkCapabilities'] = () =>
      Promise.resolve({
        ok: true,
        data: { capabilities: { ...all('present'), publicReset: { state: 'absent', checkedAt: at, evidence: 'HTTP 405.' } } },
      });
    render(<Profiles />);
    const group = await screen.findByRole('group', { name: 'What Local sandbox can do' });
    expect(within(group).getByText('Not checked yet.')).toBeTruthy();
    await user.click(within(group).getByRole('button', { name: 'Check this service' }));
    await waitFor(() => {
      expect(within(group).getByText('Edit active keys').closest('tr')?.textContent).toContain('Yes');
    });
    expect(within(group).getByText("End users' own HWID reset").closest('tr')?.textContent).toContain('No');
    expect(calls('service.checkCapabilities')).toEqual([{ profileId: 'sandbox' }]);
  });
});

describe('Generate: Works on any machine', () => {
  it('is offered where the service can, and sent when ticked', async () => {
    const user = userEvent.setup();
    serviceCan(all('present'));
    fake.impl['keys.generate'] = () => Promise.resolve({ ok: false, code: 'UNSUPPORTED', message: 'not here' });
    render(<GenerateForm />);
    await user.click(await screen.findByLabelText('Works on any machine'));
    await user.click(screen.getByRole('button', { name: /^Generate/ }));
    await waitFor(() => {
      expect(calls('keys.generate')).toHaveLength(1);
    });
    expect(calls('keys.generate')[0]).toMatchObject({ noHwidValidation: true });
  });

  it.each(['absent', 'unknown'] as const)('is not offered where the service is %s', async (state) => {
    serviceCan(all(state));
    render(<GenerateForm />);
    await waitFor(() => {
      expect(calls('service.capabilities')).toHaveLength(1);
    });
    await waitFor(() => {
      expect(useKeydesk.getState().capabilities.sandbox).toBeDefined();
    });
    expect(screen.queryByLabelText('Works on any machine')).toBeNull();
  });
});

describe('All keys: Edit selected', () => {
  it('starts a bulk edit job with the changes asked for, once confirmed', async () => {
    const user = userEvent.setup();
    readyWithNoJobs();
    serviceCan(all('present'));
    fake.impl['ledger.query'] = () =>
      Promise.resolve({ ok: true, data: { rows: [row('KD-A'), row('KD-B')], total: 2, totalCapped: false } });
    fake.impl['jobs.start'] = () =>
      Promise.resolve({
        ok: true,
        data: summary({ action: 'edit', total: 1, counts: { pending: 1, sent: 0, done: 0, failed: 0, unknown: 0 } }),
      });
    render(<AllKeys />);
    await user.click(await screen.findByRole('checkbox', { name: 'Select KD-A' }));
    const bar = within(screen.getByRole('region', { name: 'Bulk actions' }));
    await user.click(bar.getByText('Edit selected…'));
    await user.selectOptions(bar.getByLabelText('Premium'), 'on');
    await user.click(bar.getByLabelText('Set the note'));
    await user.type(bar.getByLabelText('Note'), 'VIP');
    await user.click(bar.getByRole('button', { name: 'Edit selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit 1 key?' });
    expect(dialog.textContent).toContain('note set to “VIP”, premium on');
    await user.click(within(dialog).getByRole('button', { name: 'Edit' }));
    await waitFor(() => {
      expect(calls('jobs.start')).toEqual([{ action: 'edit', target: { keyValues: ['KD-A'] }, edit: { note: 'VIP', isPremium: true } }]);
    });
  });
});
