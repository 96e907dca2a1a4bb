// All keys' density in Chromium through the harness, scrollbars drawn, over a ledger of 300 keys: the rows a person
// sees whole inside the table at 1280x800 and at 960x600, and the shortcuts sheet that `?` opens.
import { beforeAll, describe, expect, it } from 'vitest';
import { openApp, useApp } from '../support/app-page.ts';

const app = useApp(() => openApp(undefined, undefined, true));

beforeAll(async () => {
  const made = await app.page.evaluate(async () => {
    const k = window.keydesk;
    const r = await k['keys.generate']({ expire: '2099-06-30', count: 298, isPremium: false, note: 'Spring launch' });
    const days = await k['keys.generate']({
      expire: '2099-06-30',
      count: 1,
      isPremium: true,
      note: 'Trial',
      expiresByDaysKey: true,
      daysKey: 30,
    });
    // One deleted key: its expiry shows as past ("was …"), the widest date the table holds.
    const gone = await k['keys.generate']({ expire: '2099-12-31', count: 1, isPremium: false, note: 'Refunded' });
    if (!r.ok || !days.ok || !gone.ok) return 0;
    const [value] = JSON.parse(new TextDecoder().decode(gone.data.generated.values)) as string[];
    const deleted = await k['keys.delete']({ keyValue: value ?? '', state: 'generated' });
    return deleted.ok ? 300 : 0;
  });
  expect(made).toBe(300);
});

/** The rows whose whole box lies inside the table's visible area (its rows' viewport, within the window). */
const rowsInView = () =>
  app.page.evaluate<number>(`(() => {
    const body = document.querySelector('.vbody').getBoundingClientRect();
    const top = Math.max(body.top, 0);
    const bottom = Math.min(body.top + document.querySelector('.vbody').clientHeight, window.innerHeight);
    return [...document.querySelectorAll('.vbody [role="row"]')].filter((r) => {
      const b = r.getBoundingClientRect();
      return r.querySelector('input[type="checkbox"]') !== null && b.top >= top - 0.5 && b.bottom <= bottom + 0.5;
    }).length;
  })()`);

describe('All keys: rows in sight', () => {
  for (const [width, height, least] of [
    [1280, 800, 15],
    [960, 600, 6],
  ] as const) {
    it(`shows at least ${String(least)} whole rows at ${String(width)}x${String(height)}`, async () => {
      await app.page.setViewportSize({ width, height });
      await app.nav('All keys');
      await app.page.getByText('300 keys', { exact: true }).waitFor();
      await app.page
        .getByRole('checkbox', { name: /^Select / })
        .nth(least)
        .waitFor({ state: 'attached' });
      expect(await rowsInView()).toBeGreaterThanOrEqual(least);
      // The filters stay on one line: every one of them level with every other.
      const boxes = await app.page.locator('.toolbar > *').evaluateAll((els) =>
        els.map((e) => {
          const b = (e as unknown as { getBoundingClientRect(): { top: number; bottom: number } }).getBoundingClientRect();
          return { top: b.top, bottom: b.bottom };
        }),
      );
      expect(boxes.length).toBeGreaterThanOrEqual(4);
      expect(Math.max(...boxes.map((b) => b.top))).toBeLessThan(Math.min(...boxes.map((b) => b.bottom)));
    });
  }

  it('cuts no key value, status or date at 1280x800', async () => {
    await app.page.setViewportSize({ width: 1280, height: 800 });
    await app.page.getByLabel('Filter (key, note or HWID)').fill('r');
    await app.page
      .getByRole('checkbox', { name: /^Select / })
      .first()
      .waitFor();
    // Every cell but the note's and the HWID's (which end in "…", whole in their title) shows its text whole.
    const cut = await app.page.evaluate<(string | null)[]>(`[...document.querySelectorAll('.vbody [role="row"]')].flatMap((r) =>
      [...r.children].filter((c, i) => i !== 4 && i !== 5 && c.scrollWidth > c.clientWidth + 0.5).map((c) => c.textContent))`);
    expect(cut).toEqual([]);
    expect(await app.page.getByText(/^was Dec 31, 2099/).count()).toBe(1);
    expect(await app.page.getByText('+30 days', { exact: true }).count()).toBe(1);
    // Nothing of the table lies past the window: the row menu's column too.
    const grid = await app.page.getByRole('grid', { name: 'All keys' }).evaluate((g) => {
      const e = g as unknown as { scrollWidth: number; clientWidth: number };
      return e.scrollWidth <= e.clientWidth;
    });
    expect(grid).toBe(true);
    await app.page.getByLabel('Filter (key, note or HWID)').fill('');
  });

  it('opens the shortcuts sheet on ? and closes it on Escape', async () => {
    await app.page
      .getByRole('checkbox', { name: /^Select / })
      .first()
      .focus();
    await app.page.keyboard.press('?');
    const sheet = app.page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await sheet.waitFor();
    expect(await sheet.getByText('Shift+F10', { exact: true }).isVisible()).toBe(true);
    await app.page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'hidden' });
  });
});
