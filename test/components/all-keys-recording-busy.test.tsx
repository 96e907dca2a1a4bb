// All keys while the ledger writer waits for keydesk.db (another program holds its lock): the recording line says
// the keys wait for that program, and goes back to its usual words once the writes go in again.
import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { emit, fake, ledgerRow, readyStore, sandboxProfile, useKeydesk } from '../support/fake-bridge.ts';
import { listed } from '../support/fake-jobs.ts';
import { AllKeys } from '../../src/renderer/src/views/AllKeys/AllKeys.tsx';

const WAITING = /Another program \(a backup tool, the sqlite3 tool\) holds keydesk\.db locked: they go in once it lets go\./;

beforeEach(() => {
  readyStore([sandboxProfile]);
  fake.impl['jobs.list'] = () => listed([]);
  useKeydesk.getState().followJobs();
});

describe('All keys while keydesk.db is locked by another program', () => {
  it('says recorded keys wait for the file, then that they go in', async () => {
    fake.impl['ledger.query'] = () =>
      Promise.resolve({ ok: true, data: { rows: [ledgerRow('KD-A')], total: 1, totalCapped: false, recording: 5_000 } });
    render(<AllKeys />);
    await screen.findByText(/^Recording 5,000 keys in the ledger… The list refreshes when they are all in\.$/);
    emit('ledger.changed', { profileId: 'sandbox', recording: 5_000, failure: null, busy: true });
    await screen.findByText(WAITING);
    emit('ledger.changed', { profileId: 'sandbox', recording: 3_000, failure: null, busy: false });
    await screen.findByText(/^Recording 3,000 keys in the ledger… The list refreshes when they are all in\.$/);
    expect(screen.queryByText(WAITING)).toBeNull();
  });

  it('says so on a first read made while they wait', async () => {
    fake.impl['ledger.query'] = () =>
      Promise.resolve({
        ok: true,
        data: { rows: [ledgerRow('KD-A')], total: 1, totalCapped: false, recording: 2_000, recordingBusy: true },
      });
    render(<AllKeys />);
    await screen.findByText(WAITING);
  });
});
