// Generate's expiry date: a calendar and presets (+30 days, +90 days, +1 year, from today UTC) fill the typed field;
// typing YYYY-MM-DD still works, and a bad date still gets its own words.
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toKeyBatch } from '../../src/shared/key-batch.ts';
import { fake, freshStore } from '../support/fake-bridge.ts';
import { GenerateForm } from '../../src/renderer/src/views/Keys/GenerateForm.tsx';
import { EXPIRY_PRESETS } from '../../src/renderer/src/components/ExpiryPicks.tsx';

beforeEach(() => {
  freshStore();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2028-02-29T23:30:00.000Z'));
  fake.impl['keys.generate'] = () => Promise.resolve({ ok: true, data: { generated: toKeyBatch([]) } });
});
afterEach(() => {
  vi.useRealTimers();
});

const field = () => screen.getByLabelText<HTMLInputElement>('Expiry date');
const sentExpiry = () => fake.calls.filter((c) => c.name === 'keys.generate').map((c) => (c.input as { expire: string }).expire);

describe('Generate: picking the expiry date', () => {
  it('fills the typed field from each preset, counted from today UTC', async () => {
    const user = userEvent.setup();
    render(<GenerateForm />);
    expect(EXPIRY_PRESETS.map((p) => p.label)).toEqual(['+30 days', '+90 days', '+1 year']);
    await user.click(screen.getByRole('button', { name: '+30 days' }));
    expect(field().value).toBe('2028-03-30');
    await user.click(screen.getByRole('button', { name: '+90 days' }));
    expect(field().value).toBe('2028-05-29');
    // A year from 29 February is the first of March.
    await user.click(screen.getByRole('button', { name: '+1 year' }));
    expect(field().value).toBe('2029-03-01');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => {
      expect(sentExpiry()).toEqual(['2029-03-01']);
    });
  });

  it('fills the typed field from the calendar, and the calendar follows typing', async () => {
    const user = userEvent.setup();
    render(<GenerateForm />);
    const calendar = screen.getByLabelText<HTMLInputElement>('Pick on a calendar');
    expect(calendar.type).toBe('date');
    fireEvent.change(calendar, { target: { value: '2031-07-14' } });
    expect(field().value).toBe('2031-07-14');
    await user.clear(field());
    await user.type(field(), '2032-01-02');
    expect(calendar.value).toBe('2032-01-02');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => {
      expect(sentExpiry()).toEqual(['2032-01-02']);
    });
  });

  it('still says what is wrong with a typed non-date', async () => {
    const user = userEvent.setup();
    render(<GenerateForm />);
    await user.clear(field());
    await user.type(field(), '2030-02-30');
    expect(screen.getByLabelText<HTMLInputElement>('Pick on a calendar').value).toBe('');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    expect(await screen.findByText('“2030-02-30” is not a real calendar date: check the month and the day.')).toBeTruthy();
    expect(sentExpiry()).toEqual([]);
  });
});
