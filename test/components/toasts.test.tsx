// Toasts as a person meets them: a success leaves after a few seconds unless the pointer or the focus holds it;
// an error stays until dismissed; either is dismissed by keyboard; successes are a status, errors an alert.
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toasts, SUCCESS_MS, TOASTS_SHOWN } from '../../src/renderer/src/components/Toasts.tsx';
import { freshStore, useKeydesk } from '../support/fake-bridge.ts';

beforeEach(() => {
  vi.useFakeTimers();
  freshStore();
});
afterEach(() => {
  vi.useRealTimers();
});

const notify = (kind: 'success' | 'error', text: string) => {
  act(() => {
    useKeydesk.getState().notify(kind, text);
  });
};
const wait = (ms: number) => {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
};

describe('Toasts', () => {
  it('puts a success in the status region, an error in alert', () => {
    render(<Toasts />);
    const status = screen.getByRole('status', { name: 'Notifications' });
    const alert = screen.getByRole('alert', { name: 'Errors' });
    notify('success', 'Key deleted.');
    notify('error', 'The service refused: the key is not active.');
    expect(within(status).getByText('Key deleted.')).toBeTruthy();
    expect(within(status).queryByText(/refused/)).toBeNull();
    expect(within(alert).getByText('The service refused: the key is not active.')).toBeTruthy();
  });

  it('lets a success go after seconds, keeping an error until dismissed', () => {
    render(<Toasts />);
    notify('success', 'Key deleted.');
    notify('error', 'Could not reach the service.');
    wait(SUCCESS_MS - 100);
    expect(screen.getByText('Key deleted.')).toBeTruthy();
    wait(200);
    expect(screen.queryByText('Key deleted.')).toBeNull();
    wait(10 * 60_000);
    expect(screen.getByText('Could not reach the service.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss', description: 'Could not reach the service.' }));
    expect(screen.queryByText('Could not reach the service.')).toBeNull();
  });

  it('holds a success while pointed at or focused', () => {
    render(<Toasts />);
    notify('success', 'Saved to /tmp/keys.csv.');
    const toast = screen.getByText('Saved to /tmp/keys.csv.').parentElement as HTMLElement;
    fireEvent.mouseEnter(toast);
    wait(SUCCESS_MS * 3);
    expect(screen.getByText('Saved to /tmp/keys.csv.')).toBeTruthy();
    fireEvent.mouseLeave(toast);
    const button = within(toast).getByRole('button', { name: 'Dismiss' });
    act(() => {
      button.focus();
    });
    wait(SUCCESS_MS * 3);
    expect(screen.getByText('Saved to /tmp/keys.csv.')).toBeTruthy();
    act(() => {
      button.blur();
    });
    wait(SUCCESS_MS - 100);
    expect(screen.getByText('Saved to /tmp/keys.csv.')).toBeTruthy();
    wait(200);
    expect(screen.queryByText('Saved to /tmp/keys.csv.')).toBeNull();
  });

  it('dismisses the focused toast with Esc, focusing the next', () => {
    render(
      <>
        <main>
          <h1>All keys</h1>
        </main>
        <Toasts />
      </>,
    );
    notify('error', 'First problem.');
    notify('error', 'Second problem.');
    const first = screen.getByRole('button', { name: 'Dismiss', description: 'First problem.' });
    act(() => {
      first.focus();
    });
    fireEvent.keyDown(first, { key: 'Escape' });
    expect(screen.queryByText('First problem.')).toBeNull();
    const second = screen.getByRole('button', { name: 'Dismiss', description: 'Second problem.' });
    expect(document.activeElement).toBe(second);
    // Enter on the button is a click with no pointer: the focus moves on rather than being lost.
    fireEvent.click(second, { detail: 0 });
    expect(screen.queryByText('Second problem.')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'All keys' }));
  });

  it('shows the newest three, folding older ones behind "2 more"', () => {
    render(<Toasts />);
    for (const n of [1, 2, 3]) notify('error', `Problem ${String(n)}.`);
    notify('success', 'Key deleted.');
    notify('success', 'Saved to /tmp/keys.csv.');
    const shown = () => [...document.querySelectorAll('.toast > span')].map((e) => e.textContent);
    expect(shown()).toEqual(['Problem 3.', 'Key deleted.', 'Saved to /tmp/keys.csv.']);
    fireEvent.click(screen.getByRole('button', { name: '2 more' }));
    expect(shown()).toEqual(['Problem 1.', 'Problem 2.', 'Problem 3.', 'Key deleted.', 'Saved to /tmp/keys.csv.']);
    fireEvent.click(screen.getByRole('button', { name: 'Show fewer' }));
    expect(shown()).toHaveLength(TOASTS_SHOWN);
  });

  it('shows a repeated message once, at most a few per kind', () => {
    render(<Toasts />);
    for (const n of [1, 2, 3, 4, 5]) notify('error', `Problem ${String(n)}.`);
    notify('error', 'Problem 4.');
    const errors = within(screen.getByRole('alert', { name: 'Errors' }));
    expect(errors.getAllByText(/^Problem/).map((e) => e.textContent)).toEqual(['Problem 3.', 'Problem 5.', 'Problem 4.']);
  });
});
