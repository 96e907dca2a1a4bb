// A large generate seen from All keys in Chromium through the harness: keys.generate answers before main's ledger
// writer has recorded the batch, so the view says how many keys are still being recorded, and shows them all once
// the writer is done, without a reload.
import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../support/app-page.ts';

const COUNT = 50_000;
const app = useApp();

beforeAll(async () => {
  await app.nav('All keys');
  await app.page.getByText('No keys yet: the keys this app generates or looks up are listed here.', { exact: true }).waitFor();
});
describe('All keys while a batch is being recorded', () => {
  it('says the keys are being recorded, then lists every one of them', async () => {
    const generated = await app.page.evaluate(async (count) => {
      const r = await window.keydesk['keys.generate']({ expire: '2099-01-01', count, isPremium: false, note: 'recorded later' });
      return r.ok ? r.data.generated.count : r.message;
    }, COUNT);
    expect(generated).toBe(COUNT);
    // The words are there while the writer works (they count down as chunks go in), and gone when it is done.
    await app.page.getByText(/^Recording [\d,]+ keys? in the ledger… The list refreshes when they are all in\.$/).waitFor();
    await app.page.getByText('50,000 keys', { exact: true }).waitFor();
    await expect.poll(() => app.page.getByText(/^Recording /).count()).toBe(0);
    expect(await app.page.getByRole('grid', { name: 'All keys' }).getAttribute('aria-rowcount')).toBe(String(COUNT + 1));
  });
});
