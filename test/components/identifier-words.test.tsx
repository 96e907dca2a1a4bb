// Identifier check says in a short line what it asks and what its answer covers: identifiers are shared by every
// vendor at the address, letter case aside; the answer says it holds for the moment of the check.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fake, readyStore, remoteProfile, sandboxProfile, useKeydesk } from '../support/fake-bridge.ts';
import { Identifier } from '../../src/renderer/src/views/Identifier/Identifier.tsx';

beforeEach(() => {
  readyStore([sandboxProfile, remoteProfile]);
  useKeydesk.setState({ activeProfileId: remoteProfile.id });
});

describe('Identifier check', () => {
  it('says what the check means, naming the profile asked', () => {
    render(<Identifier />);
    const line = screen.getByText(/whether a service identifier is taken/);
    expect(line.textContent).toBe(
      `Asks ${remoteProfile.name} whether a service identifier is taken, by any vendor there. Letter case does not count.`,
    );
  });

  it('says it is asking, then when the service answered', async () => {
    const user = userEvent.setup();
    let answer: (v: { ok: true; data: { exists: boolean; service: string | null } }) => void = () => {};
    fake.impl['identifier.check'] = () =>
      new Promise((resolve) => {
        answer = resolve;
      });
    render(<Identifier />);
    await user.type(screen.getByLabelText('Identifier'), 'shop');
    await user.click(screen.getByRole('button', { name: 'Check' }));
    expect(await screen.findByText('Asking the service…')).toBeTruthy();
    answer({ ok: true, data: { exists: false, service: null } });
    await screen.findByText('“shop” does not exist.');
    expect(screen.queryByText('Asking the service…')).toBeNull();
    expect(screen.getByText(/as the service answered at/).textContent).toMatch(
      /^Free as the service answered at .+; check again to know it now\.$/,
    );
  });
});
