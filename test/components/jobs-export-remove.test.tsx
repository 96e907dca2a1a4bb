// The Jobs view while one of a job's exports is being written: "Remove from the list…" waits for it (main would
// refuse the removal; the file would otherwise end short), and is offered again once the export has answered.
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, expect, it } from 'vitest';
import type { OperationResult } from '../../src/shared/contract.ts';
import type { JobSummary } from '../../src/shared/domain.ts';
import { fake, readyStore } from '../support/fake-bridge.ts';
import { listed } from '../support/fake-jobs.ts';
import { Jobs } from '../../src/renderer/src/views/Jobs/Jobs.tsx';

const JOB = '11111111-1111-4111-8111-111111111111';
const job: JobSummary = {
  id: JOB,
  profileId: 'sandbox',
  action: 'delete',
  days: null,
  note: null,
  state: 'finished',
  reason: null,
  createdAt: '2026-01-01T10:00:00.000Z',
  finishedAt: '2026-01-01T10:05:00.000Z',
  total: 5,
  counts: { pending: 0, sent: 0, done: 5, failed: 0, unknown: 0 },
  ratePerSecond: null,
  etaSeconds: null,
  concurrency: 0,
  ceiling: 64,
  pausedUntil: null,
  version: 1,
};

beforeEach(() => {
  readyStore();
});

it("disables Remove from the list while the job's export is written", async () => {
  let answer!: (r: OperationResult<'jobs.export'>) => void;
  fake.impl['jobs.list'] = () => listed([job]);
  fake.impl['jobs.items'] = () => Promise.resolve({ ok: true, data: { items: [], total: 0 } });
  fake.impl['jobs.export'] = () => new Promise((r) => (answer = r));
  const user = userEvent.setup();
  render(<Jobs />);
  await user.click(await screen.findByRole('button', { name: /^Delete/ }));
  const detail = screen.getByRole('region', { name: 'Delete' });
  const remove = () => within(detail).getByRole<HTMLButtonElement>('button', { name: 'Remove from the list…' });
  expect(remove().disabled).toBe(false);
  await user.click(within(detail).getByRole('button', { name: 'Export results CSV' }));
  expect(remove().disabled).toBe(true);
  expect(remove().title).toMatch(/export of this job is being written/);
  await act(async () => {
    answer({ ok: true, data: { path: '/tmp/out.csv' } });
    await Promise.resolve();
  });
  expect(remove().disabled).toBe(false);
  expect(within(detail).getByText('/tmp/out.csv')).toBeTruthy();
});
