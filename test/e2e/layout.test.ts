// Layout at the sizes a person's window has (1280x800, 960x600), in Chromium through the harness, measured with
// bounding boxes: what a person needs to read or press is inside what they can see, not past a card's edge or
// hidden by a narrow window.
import type { Locator } from '@playwright/test';
import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../support/app-page.ts';

const app = useApp();

/** A 64-character HWID, as a real machine reader gives: the widest value a results cell holds. */
const LONG_HWID = '0035969ec53f6e7f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7081';

beforeAll(async () => {
  const made = await app.page.evaluate(async (hwid) => {
    const days = await window.keydesk['keys.generate']({
      expire: '2099-01-01',
      count: 3,
      isPremium: false,
      note: 'Trial 45d',
      expiresByDaysKey: true,
      daysKey: 45,
    });
    const dated = await window.keydesk['keys.generate']({ expire: '2099-01-01', count: 2, isPremium: true, note: 'Trial dated' });
    if (!days.ok || !dated.ok) return 0;
    // One key bound to a machine, so a row carries a long HWID beside its dates.
    const [keyValue] = JSON.parse(new TextDecoder().decode(dated.data.generated.values)) as string[];
    if (keyValue === undefined) return 0;
    const r = await window.keydesk['validation.run']({
      mode: 'key',
      keyValue,
      hwid: { custom: hwid },
      dryRun: false,
      confirmActivation: true,
    });
    return r.ok && r.data.success ? 5 : 0;
  }, LONG_HWID);
  expect(made).toBe(5);
});
type Box = { x: number; y: number; width: number; height: number };
const box = async (l: Locator): Promise<Box> => {
  const b = await l.boundingBox({ timeout: 5_000 });
  if (b === null) throw new Error(`not rendered: ${l.toString()}`);
  return b;
};
/** `inner` lies within `outer` left to right (half a pixel of rounding allowed). */
const withinX = (inner: Box, outer: Box): boolean => inner.x >= outer.x - 0.5 && inner.x + inner.width <= outer.x + outer.width + 0.5;
const inView = (b: Box, size: { width: number; height: number }): boolean =>
  b.x >= 0 && b.y >= 0 && b.x + b.width <= size.width + 0.5 && b.y + b.height <= size.height + 0.5;
type Sized = { scrollWidth: number; clientWidth: number; scrollHeight: number; clientHeight: number };
/** What the key-value check reads of an element in the page (this file's types have no DOM). */
type Rect = { top: number; left: number; right: number };
interface Shown extends Sized {
  textContent: string | null;
  getBoundingClientRect(): Rect;
  closest(selector: string): Shown | null;
  ownerDocument: {
    createRange(): { selectNodeContents(node: Shown): void; getClientRects(): ArrayLike<Rect> };
    defaultView: { getComputedStyle(e: Shown): { fontFamily: string } } | null;
  };
}
/** The page's own scroll, as the page sees it (this file's types have no DOM); evaluated in the app.page, so inlined there. */
type Scrolled = { scrollY: number; scrollTo(x: number, y: number): void };
/** Nothing inside the element lies past its right edge, to be reached only by a scroll. */
const fitsAcross = (l: Locator): Promise<boolean> => l.evaluate((e: Sized) => e.scrollWidth <= e.clientWidth);

describe('All keys at 1280x800', () => {
  it('shows every sortable header and the sort arrow inside the table', async () => {
    await app.page.setViewportSize({ width: 1280, height: 800 });
    await app.nav('All keys');
    const grid = app.page.getByRole('grid', { name: 'All keys' });
    await grid.getByRole('row').nth(5).waitFor();
    const gridBox = await box(grid);
    await app.page.screenshot({ path: process.env.LAYOUT_SHOTS ? `${process.env.LAYOUT_SHOTS}/allkeys-1280.png` : undefined });
    // The grid itself is within the window, so what is inside it is seen.
    expect(gridBox.x + gridBox.width).toBeLessThanOrEqual(1280);
    for (const name of ['Key', 'Status', 'Note', 'Expires', 'Created', 'Last checked']) {
      const header = grid.getByRole('columnheader', { name, exact: true });
      const b = await box(header);
      expect({ name, inside: withinX(b, gridBox) && b.width > 20 }).toEqual({ name, inside: true });
      // Its sort button's words are not cut by the column: the full label is readable.
      const label = header.getByRole('button').locator('span').first();
      expect(await fitsAcross(label)).toBe(true);
    }
    // The default sort (Created, newest first) shows its arrow where a person sees it.
    const sorted = grid.locator('[role="columnheader"][aria-sort="descending"]');
    expect(await sorted.textContent()).toContain('Created');
    const arrow = sorted.locator('.sort-arrow.active');
    expect(withinX(await box(arrow), gridBox)).toBe(true);
    // And the columns that were hidden sort at this width: Last checked takes the sort and shows its arrow.
    await grid.getByRole('columnheader', { name: 'Last checked' }).getByRole('button').click();
    await expect.poll(() => grid.locator('[aria-sort="ascending"], [aria-sort="descending"]').textContent()).toContain('Last checked');
    expect(withinX(await box(grid.locator('.sort-arrow.active')), gridBox)).toBe(true);
  });
});

describe('All keys in a narrow window (960x800)', () => {
  it('scrolls the grid sideways rather than hiding a column', async () => {
    await app.page.setViewportSize({ width: 960, height: 800 });
    await app.nav('All keys');
    const grid = app.page.getByRole('grid', { name: 'All keys' });
    await grid.getByRole('row').nth(5).waitFor();
    // Every column is still there, reached by scrolling the grid: none is hidden.
    expect(await grid.getByRole('columnheader', { name: 'Created', exact: true }).isVisible()).toBe(true);
    expect(await fitsAcross(grid)).toBe(false);
    // The sort the last test chose is told where a person reads, whatever the grid's scroll.
    const said = app.page.getByText(/^Sorted by Last checked, (most|least) recently checked first\.$/);
    expect(inView(await box(said), { width: 960, height: 800 })).toBe(true);
    await app.page.screenshot({ path: process.env.LAYOUT_SHOTS ? `${process.env.LAYOUT_SHOTS}/allkeys-960.png` : undefined });
  });
});

describe('Keys: the results beside the key panel', () => {
  const inViewport = inView;
  const expiresFit = async () => {
    const table = app.page.getByRole('table', { name: 'Matching keys' });
    const wrap = app.page.getByRole('region', { name: 'Matching keys' });
    const wrapBox = await box(wrap);
    const cells = table.locator('tbody tr td:last-child');
    const n = await cells.count();
    expect(n).toBeGreaterThan(0);
    for (let i = 0; i < n; i++) {
      const cell = cells.nth(i);
      const text = (await cell.textContent()) ?? '';
      const cellBox = await box(cell);
      expect({ text, inside: withinX(cellBox, wrapBox), cellBox, wrapBox }).toEqual({ text, inside: true, cellBox, wrapBox });
      expect({ text, fits: await fitsAcross(cell) }).toEqual({ text, fits: true });
    }
    // Nothing of the table lies past the card's edge, to be found only by a scroll a person does not see.
    expect(await fitsAcross(wrap)).toBe(true);
  };

  /**
   * Each key value in the results is readable beside the panel: in monospace, on one or two lines (a 29-character
   * key broken at a dash at most once, not a column of five-character scraps; three in a window too narrow for
   * that), nothing of it cut or past its cell, and the whole value in its row (the button names it and the copy
   * button copies it).
   */
  const keyValuesReadable = async (most = 2) => {
    const table = app.page.getByRole('table', { name: 'Matching keys' });
    const buttons = table.locator('button[data-key-row]');
    const n = await buttons.count();
    expect(n).toBeGreaterThan(0);
    for (let i = 0; i < n; i++) {
      const b = buttons.nth(i);
      const value = (await b.getAttribute('data-key-row')) ?? '';
      // In the page: its lines are the distinct tops of its text's boxes.
      const seen = await b.evaluate((e: Shown) => {
        const range = e.ownerDocument.createRange();
        range.selectNodeContents(e);
        const cell = e.closest('td')?.getBoundingClientRect();
        const own = e.getBoundingClientRect();
        return {
          text: e.textContent,
          lines: new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size,
          mono: /mono|consolas|menlo/i.test(e.ownerDocument.defaultView?.getComputedStyle(e).fontFamily ?? ''),
          whole: e.scrollWidth <= e.clientWidth + 0.5,
          inCell: cell !== undefined && own.left >= cell.left - 0.5 && own.right <= cell.right + 0.5,
        };
      });
      expect({ value, ...seen }).toEqual({
        value,
        text: value,
        lines: seen.lines <= most ? seen.lines : `more than ${String(most)}`,
        mono: true,
        whole: true,
        inCell: true,
      });
      expect(await table.getByRole('button', { name: `Copy key ${value}` }).count()).toBe(1);
    }
  };

  it('at 1280x800 keeps Expires cells whole and the clicked row in view', async () => {
    await app.page.setViewportSize({ width: 1280, height: 800 });
    await app.nav('Keys');
    await app.search('trial');
    await expect.poll(() => app.matchingRows().count()).toBe(6);

    const button = app.matchingRows().nth(1).locator('button[data-key-row]');
    await button.click();
    const panel = app.page.getByRole('complementary', { name: 'Key detail' });
    await panel.getByText('Extend by days').waitFor();
    const table = app.page.getByRole('table', { name: 'Matching keys' });
    const tableBox = await box(table);
    const panelBox = await box(panel);
    // The list stays where it was read: it starts in the window, and the row clicked is in it.
    expect(inViewport({ ...tableBox, height: 40 }, { width: 1280, height: 800 })).toBe(true);
    expect(inViewport(await box(button), { width: 1280, height: 800 })).toBe(true);
    // Beside the panel, not under it.
    expect(tableBox.x + tableBox.width).toBeLessThanOrEqual(panelBox.x);
    // The panel fits the window below the header and the title, and shows its last line by a scroll inside it
    // alone: the page does not move, so the header and the title stay in view.
    expect(panelBox.y + panelBox.height).toBeLessThanOrEqual(800);
    const pageTop = await app.page.evaluate(() => (globalThis as unknown as Scrolled).scrollY);
    const last = panel.locator(':scope > :not(dialog)').last();
    await last.scrollIntoViewIfNeeded();
    const lastBox = await box(last);
    expect(lastBox.y + lastBox.height).toBeLessThanOrEqual(800);
    expect(await app.page.evaluate(() => (globalThis as unknown as Scrolled).scrollY)).toBe(pageTop);
    await expiresFit();
    await keyValuesReadable();
    // And with the panel closed.
    await panel.getByRole('button', { name: 'Close the key detail' }).click();
    await panel.waitFor({ state: 'detached' });
    await expiresFit();
    await keyValuesReadable();
    await button.click();
    await panel.getByText('Extend by days').waitFor();
    await app.page.screenshot({ path: process.env.LAYOUT_SHOTS ? `${process.env.LAYOUT_SHOTS}/keys-1280-panel.png` : undefined });
  });

  it("at 960x600 shows the panel's last line and the clicked row", async () => {
    await app.page.setViewportSize({ width: 960, height: 600 });
    const panel = app.page.getByRole('complementary', { name: 'Key detail' });
    if ((await panel.count()) === 0) await app.matchingRows().nth(1).locator('button[data-key-row]').click();
    await panel.getByText('Extend by days').waitFor();
    await app.page.getByRole('table', { name: 'Matching keys' }).locator('button[data-key-row]').first().scrollIntoViewIfNeeded();
    // The panel does not cut its own content: nothing in it is reachable only by a scroll inside it.
    expect(await panel.evaluate((e: Sized) => e.scrollHeight <= e.clientHeight + 1)).toBe(true);
    const last = panel.locator(':scope > :not(dialog)').last();
    await last.scrollIntoViewIfNeeded();
    const lastBox = await box(last);
    expect(lastBox.y + lastBox.height).toBeLessThanOrEqual(600);
    const firstRow = await box(app.page.getByRole('table', { name: 'Matching keys' }).locator('button[data-key-row]').first());
    await app.page.screenshot({
      fullPage: true,
      path: process.env.LAYOUT_SHOTS ? `${process.env.LAYOUT_SHOTS}/keys-960-panel.png` : undefined,
    });
    expect(firstRow.x + firstRow.width).toBeLessThanOrEqual((await box(panel)).x);
    await expiresFit();
    await keyValuesReadable(3);
  });
});

describe('Activity in the smallest window (960x600)', () => {
  it('cuts no cell text: every cell lies inside the table', async () => {
    // A refusal beside the successes, so an Outcome cell also holds a badge and the service's words.
    const refused = await app.page.evaluate(
      async () => (await window.keydesk['keys.extend']({ keyValue: 'NOSUCH-KEY00-00000-00000-00000', days: 1 })).ok,
    );
    expect(refused).toBe(false);
    await app.page.setViewportSize({ width: 960, height: 600 });
    await app.nav('Activity');
    const table = app.page.getByRole('table', { name: 'Activity' });
    await table
      .getByRole('cell', { name: /Succeeded/ })
      .first()
      .waitFor();
    await table
      .getByRole('cell', { name: /Failed/ })
      .first()
      .waitFor();
    await app.page.screenshot({
      fullPage: true,
      path: process.env.LAYOUT_SHOTS ? `${process.env.LAYOUT_SHOTS}/activity-960.png` : undefined,
    });
    // The table's own scroll area (the view's section is a region of the same name).
    const wrap = app.page.locator('.table-wrap').filter({ has: table });
    const wrapBox = await box(wrap);
    // Seen without a sideways scroll: the table is no wider than its card shows, and inside the window.
    expect(await fitsAcross(wrap)).toBe(true);
    expect(wrapBox.x + wrapBox.width).toBeLessThanOrEqual(960);
    const cells = table.locator('tbody td');
    const n = await cells.count();
    expect(n).toBeGreaterThanOrEqual(5 * 3);
    for (let i = 0; i < n; i++) {
      const cell = cells.nth(i);
      const text = ((await cell.textContent()) ?? '').trim();
      expect({ text, inside: withinX(await box(cell), wrapBox) }).toEqual({ text, inside: true });
      // The cell and everything in it: nothing wider than the box it is drawn in (a clipped "Succeede").
      const cut = await cell.evaluate((e: Sized & { querySelectorAll(s: string): ArrayLike<Sized & { textContent: string | null }> }) =>
        [e, ...Array.from(e.querySelectorAll('*'))]
          .filter((x) => x.scrollWidth > x.clientWidth + 0.5 && x.clientWidth > 0)
          .map((x) => (x as { textContent: string | null }).textContent),
      );
      expect({ text, cut }).toEqual({ text, cut: [] });
    }
    // Each outcome's words are read whole, on screen.
    for (const word of ['Succeeded', 'Failed']) {
      const badge = table.locator('.badge').filter({ hasText: word }).first();
      const b = await box(badge);
      expect({ word, inside: withinX(b, wrapBox), whole: await fitsAcross(badge) }).toEqual({ word, inside: true, whole: true });
    }
  });
});

describe('Keys: opening a key keeps the header in view', () => {
  it('at 1280x800 keeps the header and view title on screen', async () => {
    await app.page.setViewportSize({ width: 1280, height: 800 });
    await app.nav('Overview');
    await app.nav('Keys');
    const panel = app.page.getByRole('complementary', { name: 'Key detail' });
    if ((await panel.count()) > 0) {
      await panel.getByRole('button', { name: 'Close the key detail' }).click();
      await panel.waitFor({ state: 'detached' });
    }
    await app.search('trial');
    await expect.poll(() => app.matchingRows().count()).toBe(6);
    await app.page.evaluate(() => {
      (globalThis as unknown as Scrolled).scrollTo(0, 0);
    });
    const size = { width: 1280, height: 800 };
    const header = app.page.getByRole('banner');
    const picker = app.page.getByRole('combobox', { name: 'Service' });
    const title = app.page.getByRole('heading', { level: 1, name: 'Keys' });
    for (const row of [1, 5]) {
      await app.matchingRows().nth(row).locator('button[data-key-row]').click();
      await panel.getByText('Extend by days').waitFor();
      await app.page.screenshot({
        path: process.env.LAYOUT_SHOTS ? `${process.env.LAYOUT_SHOTS}/keys-1280-open-${String(row)}.png` : undefined,
      });
      expect({
        row,
        header: inView(await box(header), size),
        picker: inView(await box(picker), size),
        title: inView(await box(title), size),
      }).toEqual({ row, header: true, picker: true, title: true });
      // The panel opened is seen too: its heading, and its last line (within it, or by scrolling it alone).
      expect(inView(await box(panel.getByRole('heading', { level: 2 }).first()), size)).toBe(true);
      const panelBox = await box(panel);
      expect(panelBox.y + Math.min(panelBox.height, 200)).toBeLessThanOrEqual(800);
    }
  });
});
