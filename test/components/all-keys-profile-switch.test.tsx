// All keys across a switch of service: nothing of the service left behind stays on screen, such as the row menu of
// one of its keys (its Extend, Reset HWID and Delete would act on the new service's key of that name).
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fake, ledgerRow, remoteProfile, sandboxProfile, useKeydesk } from '../support/fake-bridge.ts';
import { readyWithNoJobs } from '../support/job-fixtures.ts';
import { AllKeys } from '../../src/renderer/src/views/AllKeys/AllKeys.tsx';

beforeEach(() => {
  readyWithNoJobs();
  useKeydesk.setState({ profiles: [sandboxProfile, remoteProfile], activeProfileId: sandboxProfile.id });
  fake.impl['ledger.query'] = () =>
    Promise.resolve({
      ok: true,
      data:
        useKeydesk.getState().activeProfileId === sandboxProfile.id
          ? { rows: [ledgerRow('KD-SANDBOX')], total: 1, totalCapped: false }
          : { rows: [], total: 0, totalCapped: false },
    });
  fake.impl['profiles.select'] = () => Promise.resolve({ ok: true, data: remoteProfile });
});

describe('All keys: a switch of service', () => {
  it("closes the row menu of the other service's key", async () => {
    const user = userEvent.setup();
    render(<AllKeys />);
    await screen.findByText('1 key');
    await user.click(screen.getByRole('button', { name: 'Actions for KD-SANDBOX' }));
    expect(within(screen.getByRole('menu', { name: 'Actions for KD-SANDBOX' })).getAllByRole('menuitem').length).toBeGreaterThan(0);
    await act(() => useKeydesk.getState().selectProfile(remoteProfile.id));
    await screen.findByText('No keys yet: the keys this app generates or looks up are listed here.');
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
