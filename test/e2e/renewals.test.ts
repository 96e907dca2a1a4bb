// Renewals in Chromium through the harness: the strip counts each week's expiries as All keys' filter does, deleted
// keys left out, and "Extend these…" runs a job named for the week that moves its keys out of it.
import { beforeAll, describe, expect, it } from 'vitest';
import { weekWords } from '../../src/shared/filter-words.ts';
import { renewalWeeks } from '../../src/shared/renewals.ts';
import { useApp } from '../support/app-page.ts';

const app = useApp();
const weeks = renewalWeeks(Date.now());
/** A Wednesday's date in week `i`, never before today. */
const midweek = (i: number): string => {
  const from = weeks[i]?.from ?? '';
  return new Date(Date.parse(`${from}T00:00:00.000Z`) + 2 * 86_400_000).toISOString().slice(0, 10);
};
const soon = weeks[2] ?? { from: '', to: '' };
const later = weeks[5] ?? { from: '', to: '' };

beforeAll(async () => {
  const made = await app.page.evaluate(
    async ([a = '', b = '']) => {
      const one = await window.keydesk['keys.generate']({ expire: a, count: 5, isPremium: false, note: 'renew soon' });
      const two = await window.keydesk['keys.generate']({ expire: b, count: 3, isPremium: true, note: 'renew later' });
      return one.ok && two.ok;
    },
    [midweek(2), midweek(5)],
  );
  expect(made).toBe(true);
});

describe('Renewals', () => {
  it("shows each week's count, as All keys' expiry filter counts it", async () => {
    await app.nav('Renewals');
    const strip = app.page.getByRole('group', { name: 'Weeks' });
    await strip.getByRole('button', { name: `${weekWords(soon.from)}: 5 keys` }).waitFor();
    await strip.getByRole('button', { name: `${weekWords(later.from)}: 3 keys` }).waitFor();
    expect(await strip.getByRole('button').count()).toBe(12);

    await app.nav('All keys');
    await app.page.getByLabel('Expiry', { exact: true }).selectOption('between');
    await app.page.getByLabel('Expiry from').fill(later.from);
    await app.page.getByLabel('Expiry to').fill(later.to);
    await app.page.getByText('3 keys', { exact: true }).waitFor();
    await app.page.getByLabel('Premium').selectOption('false');
    await app.page.getByText('No key matches these filters.').waitFor();
    await app.page.getByLabel('Premium').selectOption('');
    await app.page.getByLabel('Expiry', { exact: true }).selectOption('within');
    await app.page.getByLabel('Expiring within (days)').fill('120');
    await app.page.getByText('8 keys', { exact: true }).waitFor();
    await app.page.getByLabel('Expiry', { exact: true }).selectOption('');
  });

  it("leaves a deleted key out of its week's count and list", async () => {
    const gone = await app.page.evaluate(async () => {
      const r = await window.keydesk['ledger.query']({
        filter: { text: 'renew later' },
        sort: { field: 'value', dir: 'asc' },
        offset: 0,
        limit: 1,
      });
      const value = r.ok ? r.data.rows[0]?.value : undefined;
      if (value === undefined) throw new Error('no key to delete');
      const d = await window.keydesk['keys.delete']({ keyValue: value });
      if (!d.ok) throw new Error(d.message);
      return value;
    });
    await app.nav('Overview');
    await app.nav('Renewals');
    const strip = app.page.getByRole('group', { name: 'Weeks' });
    await strip.getByRole('button', { name: `${weekWords(later.from)}: 2 keys` }).click();
    await expect.poll(() => app.page.getByRole('table').getByRole('row').count()).toBe(3);
    expect(await app.page.getByRole('table').getByText(gone).count()).toBe(0);
    await app.page.getByText('2 keys', { exact: true }).waitFor();
  });

  it("extends a week's keys as a job named for it, with messages", async () => {
    await app.nav('Renewals');
    const strip = app.page.getByRole('group', { name: 'Weeks' });
    await strip.getByRole('button', { name: `${weekWords(soon.from)}: 5 keys` }).click();
    await expect.poll(() => app.page.getByRole('table').getByRole('row').count()).toBe(6);
    await app.page.getByRole('button', { name: 'Extend these…' }).click();
    await app.page.getByLabel('Extend by (days)').fill('30');
    await app.page.getByRole('button', { name: 'Extend 5 keys' }).click();
    await app.page.getByText(`Extending expiring ${weekWords(soon.from)} by 30 days: finished (5 of 5 done)`).waitFor();
    // Offered once the job has ended, for the 5 keys it extended.
    const copy = app.page.getByRole('button', { name: 'Copy the renewal messages' });
    await copy.waitFor();
    expect(await app.page.getByText(/^Messages for the 5 keys extended/).count()).toBe(1);
    // Moved 30 days on: the week is empty now.
    await strip.getByRole('button', { name: `${weekWords(soon.from)}: 0 keys` }).waitFor();

    await app.nav('Jobs');
    await app.page.getByText(`expiring ${weekWords(soon.from)}: 5 keys`).waitFor();
    await app.page
      .getByRole('button', { name: /^Extend by 30 days/ })
      .first()
      .click();
    await app.page.getByRole('list', { name: 'History' }).getByText('finished, 5 of 5').waitFor();
  });
});
