// CopyButton as a keyboard user meets it: reached with Tab, pressed with Enter or Space, named for what it
// copies, and it says what happened.
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CopyButton } from '../../src/renderer/src/components/CopyButton.tsx';

const KEY = 'KD-7Q2M-XR4P-99AB';

describe('CopyButton', () => {
  it('is reached with Tab, copies on Enter and announces "Copied"', async () => {
    const user = userEvent.setup();
    render(
      <>
        <input aria-label="before" />
        <CopyButton value={KEY} label={`Copy key ${KEY}`} />
      </>,
    );
    await user.click(screen.getByLabelText('before'));
    await user.tab();
    const button = screen.getByRole('button', { name: `Copy key ${KEY}` });
    expect(document.activeElement).toBe(button);
    await user.keyboard('{Enter}');
    expect(await navigator.clipboard.readText()).toBe(KEY);
    expect(screen.getByRole('status').textContent).toBe('Copied');
    expect(button.getAttribute('data-state')).toBe('copied');
  });

  it('copies on Space as well', async () => {
    const user = userEvent.setup();
    render(<CopyButton value="HWID-123" label="Copy HWID HWID-123" />);
    screen.getByRole('button', { name: 'Copy HWID HWID-123' }).focus();
    await user.keyboard(' ');
    expect(await navigator.clipboard.readText()).toBe('HWID-123');
  });

  it('says so when the clipboard refuses, and copies nothing silently', async () => {
    const user = userEvent.setup();
    const refuse = vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new DOMException('denied', 'NotAllowedError'));
    render(<CopyButton value={KEY} label="Copy key" />);
    await user.click(screen.getByRole('button', { name: 'Copy key' }));
    expect(refuse).toHaveBeenCalledWith(KEY);
    expect(screen.getByRole('status').textContent).toBe('Could not copy: the clipboard refused');
  });

  it('returns to its resting state after the confirmation', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
      render(<CopyButton value={KEY} label="Copy key" />);
      await user.click(screen.getByRole('button', { name: 'Copy key' }));
      expect(screen.getByRole('status').textContent).toBe('Copied');
      act(() => {
        vi.advanceTimersByTime(5_000);
      });
      expect(screen.getByRole('status').textContent).toBe('');
      expect(screen.getByRole('button', { name: 'Copy key' }).getAttribute('data-state')).toBe('idle');
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not also press the row it sits in', async () => {
    const user = userEvent.setup();
    const onRow = vi.fn();
    render(
      <div onClick={onRow}>
        <CopyButton value={KEY} label="Copy key" />
      </div>,
    );
    await user.click(screen.getByRole('button', { name: 'Copy key' }));
    expect(onRow).not.toHaveBeenCalled();
  });
});
