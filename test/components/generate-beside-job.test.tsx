// The Generate form while a bulk job of the profile runs: one request's worth of keys is a single call and goes
// beside the job; more than one request's worth is itself a job, and the form says why it waits and until when.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { JobSummary, Key } from '../../src/shared/domain.ts';
import { toKeyBatch } from '../../src/shared/key-batch.ts';
import { fake, key, readyStore, sandboxProfile, useKeydesk } from '../support/fake-bridge.ts';
import { listed } from '../support/fake-jobs.ts';
import { GenerateForm } from '../../src/renderer/src/views/Keys/GenerateForm.tsx';

const running: JobSummary = {
  id: 'job-del',
  profileId: 'sandbox',
  action: 'delete',
  days: null,
  note: null,
  state: 'running',
  reason: null,
  createdAt: '2026-11-23T06:00:00.000Z',
  finishedAt: null,
  total: 5_000,
  counts: { pending: 4_000, sent: 16, done: 984, failed: 0, unknown: 0 },
  ratePerSecond: 900,
  etaSeconds: 5,
  concurrency: 16,
  ceiling: 64,
  pausedUntil: null,
  version: 1,
};
const generated = (value: string): Key => key(value, 'generated', { note: '' });

beforeEach(() => {
  readyStore([sandboxProfile]);
  useKeydesk.setState({ jobs: { [running.id]: running }, currentJobId: running.id });
  fake.impl['jobs.list'] = () => listed([running]);
  fake.impl['keys.generate'] = () =>
    Promise.resolve({ ok: true, data: { generated: toKeyBatch([generated('CCCCC-1'), generated('CCCCC-2')]) } });
});

describe('Generate while a bulk job runs', () => {
  it("generates one request's worth beside the job; more waits for it", async () => {
    const user = userEvent.setup();
    render(<GenerateForm />);
    expect(screen.getByRole('status').textContent).toBe(
      'The job “Delete” is running for this profile (see All keys); up to 100,000 keys generate beside it.',
    );
    await user.clear(screen.getByLabelText('Count'));
    await user.type(screen.getByLabelText('Count'), '2');
    await user.clear(screen.getByLabelText('Expiry date'));
    await user.type(screen.getByLabelText('Expiry date'), '2099-01-01');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    expect(await screen.findByText('2 keys generated.')).toBeTruthy();
    expect(fake.calls.filter((c) => c.name === 'keys.generate')).toHaveLength(1);

    await user.clear(screen.getByLabelText('Count'));
    await user.type(screen.getByLabelText('Count'), '150000');
    const asJob = screen.getByRole('button', { name: 'Generate as a job of 2 requests' });
    expect((asJob as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(/is running for this profile/).textContent).toBe(
      'The job “Delete” is running for this profile (see All keys). More than 100,000 keys run as a job, and a profile runs one job at a time: this can start once that job ends or is cancelled. Up to 100,000 keys generate now.',
    );
    expect(fake.calls.some((c) => c.name === 'jobs.start')).toBe(false);
  });
});
