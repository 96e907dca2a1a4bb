// Where the focus goes: a refused Generate puts it on the field in error, Edit in the form it opens, and Esc in
// Generate's Note keeps it there with the key panel open.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { key, readyStore, useKeydesk } from '../support/fake-bridge.ts';
import { GenerateForm } from '../../src/renderer/src/views/Keys/GenerateForm.tsx';
import { Keys } from '../../src/renderer/src/views/Keys/Keys.tsx';
import { Profiles } from '../../src/renderer/src/views/Profiles/Profiles.tsx';

beforeEach(() => {
  readyStore();
});

describe('Generate refused by the form', () => {
  it('puts the focus on the first field in error', async () => {
    const user = userEvent.setup();
    render(<GenerateForm />);
    await user.clear(screen.getByLabelText('Count'));
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Count'));
    expect(screen.getByLabelText('Count').getAttribute('aria-invalid')).toBe('true');

    await user.type(screen.getByLabelText('Count'), '3');
    await user.clear(screen.getByLabelText('Expiry date'));
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Expiry date'));
  });
});

describe('Profiles: Edit', () => {
  it('puts the focus in the form it opens, on its first field', async () => {
    const user = userEvent.setup();
    render(<Profiles />);
    await user.click(screen.getByRole('button', { name: 'Edit Remote Shop' }));
    const form = screen.getByRole('form', { name: 'Edit Remote Shop' });
    expect(document.activeElement).toBe(within(form).getByLabelText('Name'));
  });
});

describe("Keys: Esc in Generate's Note while the key panel is open", () => {
  it('leaves the panel open and the focus in the Note', async () => {
    const user = userEvent.setup();
    useKeydesk.setState({
      lookupRequest: { status: 'ready', error: null },
      lookupTerm: 'KEY',
      lookupResult: { active: [], generated: [key('KEY-A')] },
    });
    render(<Keys />);
    await user.click(screen.getByRole('button', { name: 'KEY-A' }));
    const note = screen.getByLabelText('Note');
    await user.click(note);
    await user.type(note, 'spring');
    await user.keyboard('{Escape}');
    expect(screen.getByRole('complementary', { name: 'Key detail' })).toBeTruthy();
    expect(document.activeElement).toBe(note);
    expect((note as HTMLInputElement).value).toBe('spring');
  });
});
