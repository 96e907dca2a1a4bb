// What the forms send when a HWID or key is blank or has spaces at its ends. The service trims nothing
// (wire.md "Parameters"), so the form refuses blank beside the field and sends a padded value only once the
// person has been told and said so.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ValidationReport } from '../../src/shared/domain.ts';
import { fake, installBridge, readySession } from '../support/fake-bridge.ts';

installBridge();
const { useKeydesk } = await import('../../src/renderer/src/store/index.ts');
const { Validate } = await import('../../src/renderer/src/views/Validate/Validate.tsx');
const { Keyless } = await import('../../src/renderer/src/views/Keyless/Keyless.tsx');
const initial = useKeydesk.getState();

const valid: ValidationReport = {
  outcome: 'success',
  success: true,
  message: 'The key is valid.',
  dryRun: true,
  hwid: 'HW-A',
  premium: false,
  expiresAt: '2027-11-23T23:59:59.999Z',
  notes: '',
  keyless: false,
  registeredServiceId: 'demo',
  raw: JSON.stringify({ V2_Authentication: 'success' }, null, 2),
};

beforeEach(() => {
  readySession(useKeydesk, initial);
  fake.impl['hwid.read'] = () => Promise.resolve({ ok: true, data: { readings: [] } });
  fake.impl['validation.run'] = () => Promise.resolve({ ok: true, data: valid });
});

const entry = (hwid: string) => ({
  id: '1',
  hwid,
  isPremium: false,
  expiresAt: null,
  lastUsedAt: null,
  createdAt: '2026-11-23T00:00:00.000Z',
});
const calls = (name: string) => fake.calls.filter((c) => c.name === name).map((c) => c.input);

describe('Keyless: adding a HWID', () => {
  it('refuses an HWID of only spaces beside the field', async () => {
    const user = userEvent.setup();
    render(<Keyless />);
    const form = screen.getByRole('form', { name: 'Add an entry' });
    const field = within(form).getByLabelText('HWID');
    await user.type(field, '   ');
    await user.click(within(form).getByRole('button', { name: 'Add' }));
    expect(within(form).getByRole('alert').textContent).toBe('HWID is required.');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(calls('keyless.add')).toEqual([]);
    await user.type(field, 'x');
    expect(within(form).queryByText('HWID is required.')).toBeNull();
  });

  it('asks before adding an HWID with spaces at its ends', async () => {
    const user = userEvent.setup();
    fake.impl['keyless.add'] = (input) => Promise.resolve({ ok: true, data: { entry: entry((input as { hwid: string }).hwid) } });
    render(<Keyless />);
    const form = screen.getByRole('form', { name: 'Add an entry' });
    await user.type(within(form).getByLabelText('HWID'), ' HW-1 ');
    expect(within(form).getByText(/The HWID starts or ends with a space/)).toBeTruthy();
    await user.click(within(form).getByRole('button', { name: 'Add' }));
    const dialog = screen.getByRole('dialog', { name: 'Add the HWID with its spaces?' });
    // In words, not a ␠ glyph (a box in fonts without it, silent to a screen reader).
    expect(within(dialog).getByText(/^The HWID/).textContent).toBe(
      'The HWID “HW-1” has a space before it and a space after it. The service keeps it as typed: a machine reporting “HW-1” will not match this entry.',
    );
    expect(dialog.textContent).not.toContain('␠');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls('keyless.add')).toEqual([]);
    await user.click(within(form).getByRole('button', { name: 'Add' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Add the HWID with its spaces?' })).getByRole('button', { name: 'Add as typed' }),
    );
    await waitFor(() => {
      expect(calls('keyless.add')).toEqual([{ hwid: ' HW-1 ', isPremium: false }]);
    });
  });

  it('adds a HWID without spaces at once, without asking', async () => {
    const user = userEvent.setup();
    fake.impl['keyless.add'] = () => Promise.resolve({ ok: true, data: { entry: entry('HW-2') } });
    render(<Keyless />);
    const form = screen.getByRole('form', { name: 'Add an entry' });
    await user.type(within(form).getByLabelText('HWID'), 'HW-2');
    await user.click(within(form).getByRole('button', { name: 'Add' }));
    await waitFor(() => {
      expect(calls('keyless.add')).toEqual([{ hwid: 'HW-2', isPremium: false }]);
    });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('Validate: the key and the typed HWID', () => {
  it('says Key is required for a blank key and sends nothing', async () => {
    const user = userEvent.setup();
    render(<Validate />);
    const keyField = screen.getByLabelText('Key');
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    const message = screen.getByText('Key is required.');
    expect(keyField.getAttribute('aria-describedby')).toContain(message.id);
    await user.type(keyField, '  ');
    expect(screen.queryByText('Key is required.')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(screen.getByText('Key is required.')).toBeTruthy();
    expect(calls('validation.run')).toEqual([]);
    await user.type(keyField, 'K');
    expect(screen.queryByText('Key is required.')).toBeNull();
  });

  it('asks before sending a padded key, which goes as typed', async () => {
    const user = userEvent.setup();
    render(<Validate />);
    await user.type(screen.getByLabelText('Key'), 'KEY-1 ');
    await user.click(screen.getByLabelText('Type a value'));
    await user.type(screen.getByLabelText('Custom HWID'), ' ');
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(screen.getByText('HWID is required.')).toBeTruthy();
    expect(calls('validation.run')).toEqual([]);
    await user.type(screen.getByLabelText('Custom HWID'), 'HW-A');
    expect(screen.getByText(/The key starts or ends with a space/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    const dialog = screen.getByRole('dialog', { name: 'Send it with its spaces?' });
    expect(within(dialog).getByText(/^Key/).textContent).toBe(
      'Key “KEY-1” has a space after it, and HWID “HW-A” has a space before it. The service keeps spaces as typed, so it may not match the value without them.',
    );
    expect(dialog.textContent).not.toContain('␠');
    await user.click(within(dialog).getByRole('button', { name: 'Validate as typed' }));
    await waitFor(() => {
      expect(calls('validation.run')).toEqual([{ mode: 'key', keyValue: 'KEY-1 ', hwid: { custom: ' HW-A' }, dryRun: true }]);
    });
    const outcome = await screen.findByRole('status', { name: 'Validation outcome' });
    // The expiry in the app's date words, and the HWID with a copy button.
    expect(within(outcome).queryByText(/11:59:59/)).toBeNull();
    expect(within(outcome).getByRole('button', { name: 'Copy HWID HW-A' })).toBeTruthy();
  });
});

describe("Validate: this machine's HWIDs", () => {
  it('gives each HWID read a copy button for exactly that value', async () => {
    const user = userEvent.setup();
    fake.impl['hwid.read'] = () =>
      Promise.resolve({
        ok: true,
        data: {
          readings: [
            { method: 'machine-id-hashed', label: 'Machine id (hashed)', value: 'abc123', unavailableReason: null },
            { method: 'machine-id-raw', label: 'Machine id (raw)', value: null, unavailableReason: 'no file' },
          ],
        },
      });
    render(<Validate />);
    const copy = await screen.findByRole('button', { name: 'Copy Machine id (hashed) HWID' });
    expect(screen.queryByRole('button', { name: 'Copy Machine id (raw) HWID' })).toBeNull();
    await user.click(copy);
    expect(await navigator.clipboard.readText()).toBe('abc123');
  });
});

describe('spaces at the ends, in words', () => {
  it('counts them on each side', async () => {
    const { endsInWords } = await import('../../src/renderer/src/lib/text.ts');
    expect([endsInWords('  A '), endsInWords('A   '), endsInWords(' A')]).toEqual([
      '2 spaces before it and a space after it',
      '3 spaces after it',
      'a space before it',
    ]);
  });
});
