// Forms: the Generate note's limit is told as it nears, numbers written as
// everywhere else ("1,000"), and the empty expiry's error says what is wrong, not the hint over again.
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { generateInput } from '../../src/shared/contract.ts';
import { fake, freshStore } from '../support/fake-bridge.ts';
import { GenerateForm } from '../../src/renderer/src/views/Keys/GenerateForm.tsx';

beforeEach(() => {
  freshStore();
});

const described = (el: HTMLElement) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent);

describe('Generate: the note limit', () => {
  it("counts the note's characters only near and past its limit", async () => {
    const user = userEvent.setup();
    render(<GenerateForm />);
    const note = screen.getByLabelText<HTMLInputElement>('Note');
    fireEvent.change(note, { target: { value: 'x'.repeat(899) } });
    expect(described(note)).toEqual([]);
    fireEvent.change(note, { target: { value: 'x'.repeat(950) } });
    expect(described(note)).toEqual(['950 of 1,000 characters.']);
    // Characters as the rule counts them: an emoji is one, not two UTF-16 units.
    fireEvent.change(note, { target: { value: `${'x'.repeat(999)}😀😀` } });
    expect(described(note)).toEqual(['1,001 of 1,000 characters: 1 character too many.']);
    await user.clear(screen.getByLabelText('Expiry date'));
    await user.type(screen.getByLabelText('Expiry date'), '2099-01-01');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    expect(described(note)).toContain('Note must be at most 1,000 characters.');
    expect(fake.calls.some((c) => c.name === 'keys.generate')).toBe(false);
  });

  it('has the shared rule write the limit with its thousands separator', () => {
    const r = generateInput.safeParse({
      expire: '2099-01-01',
      count: 1,
      isPremium: false,
      note: 'x'.repeat(1001),
      expiresByDaysKey: false,
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.message)).toContain('Note must be at most 1,000 characters.');
  });
});

describe('Generate: an empty expiry date', () => {
  it('shows the date format in the hint and the error under it', async () => {
    const user = userEvent.setup();
    render(<GenerateForm />);
    const date = screen.getByLabelText('Expiry date');
    await user.clear(date);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    expect(described(date)).toEqual(['Enter an expiry date.', 'Written YYYY-MM-DD (year, month, day), e.g. 2030-12-31.']);
    // On screen the hint comes first, the error under it.
    const [hint, error] = [...(date.parentElement?.querySelectorAll('small') ?? [])].map((s) => s.textContent);
    expect([hint, error]).toEqual(['Written YYYY-MM-DD (year, month, day), e.g. 2030-12-31.', 'Enter an expiry date.']);
  });
});
