// The navigation in jsdom: every view's button carries an icon of its own beside its name.
import { render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeStartedMain } from '../support/fake-bridge.ts';
import { readyWithNoHwid } from '../support/view-start.ts';
import { App } from '../../src/renderer/src/App.tsx';
import { VIEWS } from '../../src/renderer/src/views/registry.ts';

beforeEach(() => {
  readyWithNoHwid();
  fakeStartedMain();
});

describe('the navigation', () => {
  it('gives every view a distinct icon beside its name', async () => {
    render(<App />);
    const nav = await screen.findByRole('navigation', { name: 'Views' });
    const drawn = VIEWS.map((v) => {
      const button = within(nav).getByRole('button', { name: v.label });
      const icon = button.querySelector('svg[aria-hidden="true"] path');
      return icon?.getAttribute('d') ?? null;
    });
    expect(drawn.every((d) => d !== null && d.length > 0)).toBe(true);
    expect(new Set(drawn).size).toBe(VIEWS.length);
  });
});
