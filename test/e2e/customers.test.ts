// Customers as a person works with them, in Chromium through the harness: keys whose notes name people are
// reviewed and linked, a customer is opened, and all their keys are extended as one job.
import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../support/app-page.ts';

const app = useApp();
const ANN = '123456789012345678';

beforeAll(async () => {
  const made = await app.page.evaluate(async (ann) => {
    const gen = (count: number, note: string) => window.keydesk['keys.generate']({ expire: '2099-01-01', count, isPremium: false, note });
    const r = await Promise.all([gen(4, `Ann Lee (Discord: ${ann})`), gen(2, 'user.id 223456789012345678'), gen(3, 'launch batch')]);
    return r.every((x) => x.ok);
  }, ANN);
  expect(made).toBe(true);
});

describe('customers', () => {
  it('reviews the links found in notes, and makes them once accepted', async () => {
    await app.nav('Customers');
    await app.page.getByRole('button', { name: 'Find customers in key notes' }).click();
    const review = app.page.getByRole('region', { name: 'Links found in notes' });
    await review.getByText('6 keys name 2 people in their notes.').waitFor();
    await expect.poll(() => review.getByRole('checkbox').count()).toBe(2);
    await review.getByRole('button', { name: 'Link 6 keys' }).click();
    const table = app.page.getByRole('table', { name: 'Customers' });
    await table.getByRole('button', { name: 'Ann Lee' }).waitFor();
    await expect.poll(() => table.getByRole('row').count()).toBe(3);
    expect(await table.getByRole('row', { name: /Ann Lee/ }).textContent()).toContain('4 keys: 4 generated');
  });

  it('opens a customer and extends all their keys as one job', async () => {
    await app.page.getByRole('button', { name: 'Ann Lee' }).click();
    await app.page.getByRole('heading', { name: 'Ann Lee', level: 1 }).waitFor();
    const keys = app.page.getByRole('table', { name: 'Their keys' });
    await expect.poll(() => keys.getByRole('row').count()).toBe(5);
    await app.page.getByLabel('Days to extend by').fill('45');
    await app.page.getByRole('button', { name: 'Extend all' }).click();
    const dialog = app.page.getByRole('dialog');
    await dialog.getByText('Extend 4 keys of Ann Lee?').waitFor();
    await dialog.getByRole('button', { name: 'Extend' }).click();
    await app.page
      .getByRole('list', { name: 'Their activity' })
      .getByText(/Extend/)
      .first()
      .waitFor({ timeout: 60_000 });
    const job = await app.page.evaluate(async () => {
      const r = await window.keydesk['jobs.list'](undefined);
      return r.ok ? r.data.jobs.find((j) => j.action === 'extend') : undefined;
    });
    expect(job).toMatchObject({ state: 'finished', total: 4, counts: { done: 4 }, days: 45 });
  });

  it('gives a new customer keys with template notes, found by Discord ID', async () => {
    await app.nav('Keys');
    await app.page.getByRole('button', { name: 'New customer' }).click();
    await app.page.getByLabel('New customer’s name').fill('Cy Park');
    await app.page.getByLabel('New customer’s Discord ID').fill('323456789012345678');
    await app.page.getByRole('button', { name: 'Use' }).click();
    expect(await app.page.getByLabel('Note', { exact: true }).inputValue()).toBe('Cy Park (Discord: 323456789012345678)');
    await app.page.getByLabel('Count').fill('2');
    await app.page.getByRole('button', { name: 'Generate', exact: true }).click();
    await app.page.getByLabel('Generated keys').getByText('2 keys generated.').waitFor();
    await app.page.keyboard.press('Control+k');
    await app.page.getByLabel('Search commands').fill('3234567890');
    await app.page.getByRole('option', { name: 'Open customer Cy Park' }).click();
    await app.page.getByRole('heading', { name: 'Cy Park', level: 1 }).waitFor();
    await expect.poll(() => app.page.getByRole('table', { name: 'Their keys' }).getByRole('row').count()).toBe(3);
  });
});
