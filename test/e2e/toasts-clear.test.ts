// Toasts in Chromium at both window sizes: after Extend in the key panel, the toast it makes covers no control
// of the view, and the focus is back on Extend.
import { describe, expect, it } from 'vitest';
import type { Locator } from '@playwright/test';
import { openApp } from '../support/app-page.ts';

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box): boolean => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function boxes(controls: Locator): Promise<Box[]> {
  const found: Box[] = [];
  for (const control of await controls.all()) {
    const box = await control.boundingBox();
    if (box && box.width > 0 && box.height > 0) found.push(box);
  }
  return found;
}

describe('toasts beside the key panel', () => {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 960, height: 600 },
  ]) {
    it(`cover no control of the view at ${String(viewport.width)}×${String(viewport.height)}`, async () => {
      const app = await openApp(viewport);
      try {
        const { page } = app;
        const value = await page.evaluate(async () => {
          const r = await window.keydesk['keys.generate']({ expire: '2099-01-01', count: 1, isPremium: false, note: 'toast check' });
          return r.ok ? ((JSON.parse(new TextDecoder().decode(r.data.generated.values)) as string[])[0] ?? '') : '';
        });
        await app.nav('Keys');
        await app.search(value);
        await page.getByRole('button', { name: value, exact: true }).click();
        const panel = page.getByRole('complementary', { name: 'Key detail' });
        await panel.getByRole('button', { name: 'Extend', exact: true }).click();
        await app.toast('Extended by 30 days.');
        await expect.poll(() => page.locator(':focus').textContent()).toBe('Extend');
        const toasts = await boxes(page.locator('.toasts .toast'));
        expect(toasts.length).toBe(1);
        const controls = await boxes(page.locator('main').locator('button, input, select, a[href], [role="button"]'));
        expect(controls.length).toBeGreaterThan(5);
        expect(controls.filter((c) => toasts.some((t) => overlaps(c, t)))).toEqual([]);
      } finally {
        await app.close();
      }
    });
  }
});
