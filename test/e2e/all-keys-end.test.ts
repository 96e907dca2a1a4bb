// All keys over 1,000,000 keys seeded in the harness's keydesk.db before it starts, in Chromium: End and a drag of
// the scrollbar to the bottom show the last row, Home the first, and a click on a row opens its key.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LocalDb } from '../../src/main/store/local-db.ts';
import { generateKeyValues } from '../../src/sandbox/keygen.ts';
import type { Key } from '../../src/shared/domain.ts';
import { openApp, useApp } from '../support/app-page.ts';
import { tempDir } from '../support/temp-dir.ts';

const N = 1_000_000;
const now = Date.now();
let first = '';
let last = '';

/** N keys in the sandbox profile's ledger, created a second apart: the newest first in All keys' order. */
function seed(dbPath: string): void {
  const db = new LocalDb(dbPath);
  for (let made = 0; made < N; made += 100_000) {
    const keys = generateKeyValues(100_000).map((value, j): Key => ({
      id: '',
      value,
      note: `seeded ${made + j}`,
      status: 'generated',
      isPremium: false,
      expire: null,
      expiresByDaysKey: false,
      daysKey: 30,
      expiresAt: null,
      hwid: null,
      createdAt: new Date(now - 3_600_000 - (made + j) * 1_000).toISOString(),
      activatedAt: null,
      lastResetAt: null,
      serviceId: 'svc',
    }));
    if (made === 0) first = keys[0]!.value;
    last = keys.at(-1)!.value;
    db.recordKeys('sandbox', keys);
  }
  db.close();
}

const app = useApp(
  () => {
    const userData = tempDir('keydesk-all-keys-end-e2e-');
    seed(join(userData, 'keydesk.db'));
    // Scrollbars drawn, so a test can drag one as a person does.
    return openApp(undefined, userData, true);
  },
  undefined,
  // Recording 1,000,000 keys takes about two minutes on a busy machine.
  600_000,
);

describe('All keys over 1,000,000 keys', () => {
  const focused = () => app.page.evaluate<string | null>("document.activeElement?.getAttribute('aria-label') ?? null");
  /** The grid's viewport, measured in the page: its scroll place and its scrollbar's width. */
  const measure = () =>
    app.page.evaluate<{ bar: number; inner: number; atEnd: boolean }>(`(() => {
      const el = document.querySelector('.vbody');
      return { bar: el.offsetWidth - el.clientWidth, inner: el.clientWidth, atEnd: el.scrollTop + el.clientHeight >= el.scrollHeight - 1 };
    })()`);
  const grid = () => app.page.getByRole('grid', { name: 'All keys' });
  const body = () => grid().getByRole('rowgroup', { name: 'Rows' });
  /** The row of key `value`, once it is in the DOM and inside the grid's viewport. */
  const rowInSight = async (value: string) => {
    const box = body().getByRole('checkbox', { name: `Select ${value}` });
    await box.waitFor();
    const [inner, outer] = await Promise.all([box.boundingBox(), body().boundingBox()]);
    expect(inner && outer && inner.y >= outer.y && inner.y + inner.height <= outer.y + outer.height).toBe(true);
    return box;
  };

  beforeAll(async () => {
    await app.nav('All keys');
    await app.page.getByText('1,000,000 keys', { exact: true }).waitFor({ timeout: 60_000 });
  });

  it('End shows the last row and Home the first', async () => {
    await (await rowInSight(first)).focus();
    await app.page.keyboard.press('End');
    await expect.poll(() => focused()).toBe(`Select ${last}`);
    await rowInSight(last);
    await app.page.keyboard.press('Home');
    await expect.poll(() => focused()).toBe(`Select ${first}`);
    await rowInSight(first);
  });

  it('a drag of the scrollbar to the bottom shows the last row', async () => {
    const box = await body().boundingBox();
    if (!box) throw new Error('no grid');
    // The scrollbar's thumb sits at the viewport's right edge, below its arrow; dragged far below, it stops at the end.
    const { inner, bar } = await measure();
    expect(bar).toBeGreaterThan(0);
    const x = box.x + inner + bar / 2;
    await app.page.mouse.move(x, box.y + bar + 6);
    await app.page.mouse.down();
    await app.page.mouse.move(x, box.y + box.height + 400, { steps: 5 });
    await app.page.mouse.up();
    await rowInSight(last);
    expect((await measure()).atEnd).toBe(true);
  });

  it('a click on a row opens its key', async () => {
    const value = await app.page.evaluate(async () => {
      const made = await window.keydesk['keys.generate']({ expire: '2099-01-01', count: 1, isPremium: false, note: 'opened by a click' });
      if (!made.ok) return '';
      return (JSON.parse(new TextDecoder().decode(made.data.generated.values)) as string[])[0] ?? '';
    });
    expect(value).not.toBe('');
    await app.page.getByLabel('Filter (key, note or HWID)').fill('opened by a click');
    await app.page.getByText('1 key', { exact: true }).waitFor();
    await grid().getByRole('row').filter({ hasText: 'opened by a click' }).getByText('opened by a click').click();
    const panel = app.page.getByRole('complementary', { name: 'Key detail' });
    await panel.waitFor();
    expect(await panel.textContent()).toContain(value);
  });
});
