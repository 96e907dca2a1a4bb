// Activity's lines: a bulk act is one line with its counts, opening to its keys a page at a time (its job's items);
// an act on one key says the value before it and after it.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry, JobItem } from '../../src/shared/domain.ts';
import { fmt } from '../../src/renderer/src/lib/format.ts';
import { fake, freshStore, remoteProfile, sandboxProfile } from '../support/fake-bridge.ts';
import { Activity } from '../../src/renderer/src/views/Activity/Activity.tsx';

const JOB = '6f1c2a8e-5b0d-4c47-9d53-0c3f6a9e2b11';
const base = { at: '2026-01-01T00:00:00.000Z', profileId: 'sandbox', profileName: 'Local sandbox', outcome: 'ok', message: '' } as const;
const bulk: AuditEntry = {
  ...base,
  id: 3,
  action: 'keys.extend',
  target: '100,000 keys by 30 days',
  outcome: 'unknown',
  job: { id: JOB, state: 'finished', kept: true, counts: { done: 99_998, failed: 1, unknown: 1, pending: 0, sent: 0 } },
};
const item = (seq: number): JobItem => ({
  seq,
  target: `KD-${String(seq).padStart(6, '0')}`,
  size: 1,
  state: 'done',
  code: null,
  message: null,
});

beforeEach(() => {
  freshStore({ activeProfileId: 'sandbox', profiles: [sandboxProfile, remoteProfile] });
  fake.impl['jobs.items'] = (input) => {
    const { offset, limit } = input as { offset: number; limit: number };
    const items = Array.from({ length: limit }, (_, i) => item(offset + i + 1));
    return Promise.resolve({ ok: true, data: { items, total: 100_000 } });
  };
});

const itemCalls = () => fake.calls.filter((c) => c.name === 'jobs.items').map((c) => c.input);

describe('Activity: a bulk act', () => {
  it('is one line with its counts, opening to its keys by page', async () => {
    const user = userEvent.setup();
    fake.impl['audit.list'] = () => Promise.resolve({ ok: true, data: { entries: [bulk], total: 1 } });
    render(<Activity />);
    const row = (await screen.findByText('100,000 keys by 30 days')).closest('tr');
    expect(screen.getByText('1 operation')).toBeTruthy();
    expect(row?.textContent).toContain('Bulk extend');
    expect(row?.textContent).toContain('99,998 done');
    expect(row?.textContent).toContain('1 failed');
    expect(row?.textContent).toContain('1 unknown');

    await user.click(within(row as HTMLElement).getByRole('button', { name: 'Show its keys' }));
    const keys = await screen.findByRole('region', { name: 'Keys of Bulk extend: 100,000 keys by 30 days' });
    await within(keys).findByText('KD-000001');
    expect(screen.getByText('1–50 of 100,000 keys')).toBeTruthy();
    expect(itemCalls()).toEqual([{ jobId: JOB, offset: 0, limit: 50 }]);

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await within(keys).findByText('KD-000051');
    expect(itemCalls().at(-1)).toEqual({ jobId: JOB, offset: 50, limit: 50 });
    await user.click(within(row as HTMLElement).getByRole('button', { name: 'Hide its keys' }));
    expect(screen.queryByRole('region', { name: /^Keys of / })).toBeNull();
  });

  it('says where its keys went when its job was removed', async () => {
    const removed: AuditEntry = { ...bulk, job: { id: JOB, state: null, kept: false, counts: bulk.job?.counts ?? null } };
    fake.impl['audit.list'] = () => Promise.resolve({ ok: true, data: { entries: [removed], total: 1 } });
    render(<Activity />);
    const row = (await screen.findByText('100,000 keys by 30 days')).closest('tr');
    expect(row?.textContent).toContain('99,998 done');
    expect(row?.textContent).toContain('Its keys went when the job was removed from Jobs.');
    expect(within(row as HTMLElement).queryByRole('button')).toBeNull();
  });

  it("says to switch services for another service's keys", async () => {
    const elsewhere: AuditEntry = { ...bulk, profileId: remoteProfile.id, profileName: remoteProfile.name };
    fake.impl['audit.list'] = () => Promise.resolve({ ok: true, data: { entries: [elsewhere], total: 1 } });
    render(<Activity />);
    const row = (await screen.findByText('100,000 keys by 30 days')).closest('tr');
    expect(row?.textContent).toContain(`Switch to ${remoteProfile.name} to see its keys.`);
  });

  it("says a removed service's keys are not shown, not to switch", async () => {
    const gone: AuditEntry = { ...bulk, profileId: 'removed-service', profileName: 'Old shop' };
    fake.impl['audit.list'] = () => Promise.resolve({ ok: true, data: { entries: [gone], total: 1 } });
    render(<Activity />);
    const row = (await screen.findByText('100,000 keys by 30 days')).closest('tr');
    expect(row?.textContent).toContain('Old shop was removed from Keydesk, so its keys are not shown.');
    expect(row?.textContent).not.toContain('Switch to');
  });
});

describe('Activity: an act on one key', () => {
  it('says the HWID before a reset and the expiry before an extend', async () => {
    const entries: AuditEntry[] = [
      {
        ...base,
        id: 2,
        action: 'keys.resetHwid',
        target: 'KD-ONE',
        change: { before: { hwid: 'HW-ABCDEFGHIJKL' }, after: { hwid: null } },
      },
      {
        ...base,
        id: 1,
        action: 'keys.extend',
        target: 'KD-TWO',
        change: { before: { expiresAt: '2026-12-01T00:00:00.000Z' }, after: { expiresAt: '2027-01-01T00:00:00.000Z' } },
      },
      { ...base, id: 0, action: 'keys.resetHwid', target: 'KD-NEVER', outcome: 'unknown', change: { before: {}, after: {} } },
    ];
    fake.impl['audit.list'] = () => Promise.resolve({ ok: true, data: { entries, total: entries.length } });
    render(<Activity />);
    await screen.findByText('KD-ONE');
    expect(screen.getByText('HWID HW-ABCDEFG… → none')).toBeTruthy();
    expect(screen.getByText(`expires ${fmt.date('2026-12-01T00:00:00.000Z')} → ${fmt.date('2027-01-01T00:00:00.000Z')}`)).toBeTruthy();
    expect(screen.getByText('HWID unknown → unknown')).toBeTruthy();
    await waitFor(() => {
      expect(screen.getByText('HWID HW-ABCDEFG… → none').getAttribute('title')).toBe('HW-ABCDEFGHIJKL');
    });
  });
});
