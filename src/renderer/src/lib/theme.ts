// The window's theme: Settings' choice (system, light, dark) resolved to light or dark on <html data-theme>, which
// the design tokens read; "system" follows the OS as it changes.
import { useSyncExternalStore } from 'react';
import type { Settings } from '../../../shared/contract.ts';

type Theme = Settings['theme'];
const DARK_QUERY = '(prefers-color-scheme: dark)';
let chosen: Theme = 'system';
let following: MediaQueryList | null = null;
const listeners = new Set<() => void>();

function resolve(): void {
  const dark = chosen === 'dark' || (chosen === 'system' && window.matchMedia(DARK_QUERY).matches);
  const root = document.documentElement;
  if (root.dataset.theme === (dark ? 'dark' : 'light')) return;
  root.dataset.theme = dark ? 'dark' : 'light';
  for (const listener of listeners) listener();
}

/** Applies `theme` at once; with "system", again whenever the OS switches. */
export function applyTheme(theme: Theme): void {
  chosen = theme;
  if (theme === 'system' && following === null) {
    following = window.matchMedia(DARK_QUERY);
    following.addEventListener('change', resolve);
  } else if (theme !== 'system' && following !== null) {
    following.removeEventListener('change', resolve);
    following = null;
  }
  resolve();
}

const subscribe = (listener: () => void): (() => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Whether the window shows the dark theme now, for what draws its own colours (the history chart). */
export function useDarkTheme(): boolean {
  return useSyncExternalStore(subscribe, () => document.documentElement.dataset.theme === 'dark');
}
