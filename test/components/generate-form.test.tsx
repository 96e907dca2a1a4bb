// The generate form: problems beside their fields, and a days key asks only for days while the request still
// carries the valid expire the service requires.
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { isCalendarDate } from '../../src/shared/rules.ts';
import type { Key } from '../../src/shared/domain.ts';
import { fake, freshStore, key } from '../support/fake-bridge.ts';
import { toKeyBatch } from '../../src/shared/key-batch.ts';
import { GenerateForm } from '../../src/renderer/src/views/Keys/GenerateForm.tsx';

const generated = (value: string): Key => key(value, 'generated', { note: '', expiresByDaysKey: true, daysKey: 45, expiresAt: null });

beforeEach(() => {
  freshStore();
});

describe('generate form', () => {
  it('asks a days key for days only, still sending a valid expire', async () => {
    const user = userEvent.setup();
    fake.impl['keys.generate'] = () =>
      Promise.resolve({ ok: true, data: { generated: toKeyBatch([generated('AAAAA-1'), generated('AAAAA-2')]) } });
    render(<GenerateForm />);
    expect(screen.getByLabelText('Expiry date')).toBeTruthy();
    await user.click(screen.getByLabelText('Days after activation'));
    expect(screen.queryByLabelText('Expiry date')).toBeNull();
    expect(screen.queryByText(/not used for days keys/)).toBeNull();
    await user.clear(screen.getByLabelText('Count'));
    await user.type(screen.getByLabelText('Count'), '2');
    await user.clear(screen.getByLabelText('Days'));
    await user.type(screen.getByLabelText('Days'), '45');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    const sent = fake.calls.find((c) => c.name === 'keys.generate')?.input as {
      expire: string;
      expiresByDaysKey: boolean;
      daysKey: number;
      count: number;
    };
    expect(sent).toMatchObject({ count: 2, expiresByDaysKey: true, daysKey: 45 });
    expect(isCalendarDate(sent.expire)).toBe(true);
    expect(await screen.findByText('2 keys generated.')).toBeTruthy();
  });

  it('says "1 key", not "1 key(s)"', async () => {
    const user = userEvent.setup();
    fake.impl['keys.generate'] = () => Promise.resolve({ ok: true, data: { generated: toKeyBatch([generated('BBBBB-1')]) } });
    render(<GenerateForm />);
    await user.clear(screen.getByLabelText('Count'));
    await user.type(screen.getByLabelText('Count'), '1');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    expect(await screen.findByText('1 key generated.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy key BBBBB-1' })).toBeTruthy();
  });

  it('shows each problem beside its field and sends nothing', async () => {
    const user = userEvent.setup();
    render(<GenerateForm />);
    await user.clear(screen.getByLabelText('Count'));
    await user.type(screen.getByLabelText('Count'), '0');
    await user.clear(screen.getByLabelText('Expiry date'));
    await user.type(screen.getByLabelText('Expiry date'), '2023-02-29');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    const count = screen.getByLabelText('Count');
    const date = screen.getByLabelText('Expiry date');
    expect(count.getAttribute('aria-invalid')).toBe('true');
    expect(date.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(date.getAttribute('aria-describedby')!.split(' ')[0]!)?.textContent).toMatch(/real calendar date/);
    expect(fake.calls.filter((c) => c.name === 'keys.generate')).toEqual([]);
  });
});

describe('Generate: the expiry date', () => {
  const dateField = () => screen.getByLabelText('Expiry date');
  const problemOf = (el: HTMLElement) => document.getElementById(el.getAttribute('aria-describedby')!.split(' ')[0]!)?.textContent;

  it('shows its format under the field before anything is typed', () => {
    render(<GenerateForm />);
    const hintId = dateField().getAttribute('aria-describedby');
    expect(hintId && document.getElementById(hintId)?.textContent).toBe('Written YYYY-MM-DD (year, month, day), e.g. 2030-12-31.');
  });

  it.each([
    ['', 'Enter an expiry date.'],
    ['12/31/2030', '“12/31/2030” is not written YYYY-MM-DD (year, month, day), e.g. 2030-12-31.'],
    ['2030-2-3', '“2030-2-3” is not written YYYY-MM-DD (year, month, day), e.g. 2030-12-31.'],
    ['2031-02-29', '“2031-02-29” is not a real calendar date: check the month and the day.'],
    ['2030-13-01', '“2030-13-01” is not a real calendar date: check the month and the day.'],
  ])('refuses %j beside the field and sends nothing', async (typed, message) => {
    const user = userEvent.setup();
    render(<GenerateForm />);
    await user.clear(dateField());
    if (typed) await user.type(dateField(), typed);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    expect(dateField().getAttribute('aria-invalid')).toBe('true');
    expect(problemOf(dateField())).toBe(message);
    expect((dateField() as HTMLInputElement).value).toBe(typed);
    expect(fake.calls.filter((c) => c.name === 'keys.generate')).toEqual([]);
  });

  it('takes a pasted date with spaces around it as the date', async () => {
    const user = userEvent.setup();
    fake.impl['keys.generate'] = () => Promise.resolve({ ok: true, data: { generated: toKeyBatch([]) } });
    render(<GenerateForm />);
    await user.clear(dateField());
    await user.click(dateField());
    await user.paste(' 2099-12-31 ');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => {
      expect(fake.calls.filter((c) => c.name === 'keys.generate').map((c) => (c.input as { expire: string }).expire)).toEqual([
        '2099-12-31',
      ]);
    });
  });
});
