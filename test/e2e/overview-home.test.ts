// Overview as a home in Chromium through the harness: a fresh profile's first-run checklist ticks as keys are
// generated and one validated; at 100,000 keys each figure opens All keys on a count that matches it.
import { describe, expect, it } from 'vitest';
import { useApp } from '../support/app-page.ts';

const app = useApp();
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const doneSteps = () => app.page.getByRole('list', { name: 'Getting started' }).locator('li[data-done="true"] strong').allTextContents();

/** All keys' count line for `n` matches, as the view words it (exact up to its cap; a status count is always exact). */
const countWords = (n: number) => (n === 0 ? 'No key matches these filters.' : n === 1 ? '1 key' : `${n.toLocaleString('en-US')} keys`);

describe('Overview on a fresh profile', () => {
  it('shows the checklist, and ticks generating and validating once done', async () => {
    await app.page.getByRole('heading', { name: 'Getting started' }).waitFor();
    expect(await doneSteps()).toEqual([]);
    const made = await app.page.evaluate(async (expire) => {
      const k = window.keydesk;
      const g = await k['keys.generate']({ expire, count: 20, isPremium: false, note: 'soon' });
      if (!g.ok) return g.message;
      const found = await k['keys.lookup']({ term: 'soon' });
      const first = found.ok ? found.data.generated[0] : undefined;
      if (!first) return 'no key found';
      const v = await k['validation.run']({ mode: 'key', keyValue: first.value, hwid: { custom: 'E2E-HOME-1' }, dryRun: false });
      return v.ok ? null : v.message;
    }, day(5));
    expect(made).toBeNull();
    await app.nav('Keys');
    await app.nav('Overview');
    await expect.poll(doneSteps).toEqual(['Generate keys', 'Validate one']);
  });
});

describe('Overview at 100,000 keys', () => {
  it("opens All keys on each figure's count", async () => {
    const made = await app.page.evaluate(async (expire) => {
      const k = window.keydesk;
      const a = await k['keys.generate']({ expire, count: 99_950, isPremium: false, note: 'bulk' });
      const b = await k['keys.generate']({ expire, count: 30, isPremium: true, note: 'partners' });
      return a.ok && b.ok;
    }, day(200));
    expect(made).toBe(true);
    await app.nav('All keys');
    await app.nav('Overview');
    // The keys go into the ledger after the answer: the figures are read again until they count every one.
    await app.page.getByText(/of 100,000\)$/).waitFor({ timeout: 120_000 });
    const figures = app.page.getByRole('list', { name: "Keys' figures" }).getByRole('button');
    const names: string[] = [];
    for (let i = 0; i < (await figures.count()); i++) names.push(((await figures.nth(i).textContent()) ?? '').trim());
    expect(names).toHaveLength(9);
    const counted: string[] = [];
    for (const [i, name] of names.entries()) {
      const n = name.includes('Premium')
        ? Number(/\(([\d,]+) of/.exec(name)?.[1]?.replaceAll(',', ''))
        : Number(/^[\d,]+/.exec(name)?.[0].replaceAll(',', ''));
      await app.page.getByRole('list', { name: "Keys' figures" }).getByRole('button').nth(i).click();
      await app.page.getByRole('heading', { level: 1, name: 'All keys' }).waitFor();
      await app.page.getByText(countWords(n), { exact: true }).waitFor();
      counted.push(`${name.split(':')[0] ?? ''} = ${countWords(n)}`);
      await app.nav('Overview');
      await app.page.getByText(/of 100,000\)$/).waitFor();
    }
    // The figures this ledger should give, so a figure that read 0 everywhere would not pass.
    expect(counted).toEqual([
      '1 Active = 1 key',
      '99,999 Generated, not activated = 99,999 keys',
      '0 Expired = No key matches these filters.',
      '0 Deleted = No key matches these filters.',
      '1 Activated, last 7 days = 1 key',
      '1 Activated, last 30 days = 1 key',
      '20 Expiring, next 7 days = 20 keys',
      '20 Expiring, next 30 days = 20 keys',
      '<1% Premium (30 of 100,000) = 30 keys',
    ]);
  });
});
