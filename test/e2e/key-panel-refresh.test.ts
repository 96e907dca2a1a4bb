// The open key panel in Chromium through the harness: a machine binds the key through the sandbox's validation
// route after a reset (as a customer's new PC would), and Refresh shows the new HWID with a newer read time.
import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../support/app-page.ts';

const app = useApp();
const NOTE = 'refresh batch';
const OLD_HWID = 'PC-OLD-1234';
const NEW_HWID = 'PC-NEW-5678';
const UNBOUND = 'Not bound to a machine: there is no HWID to reset.';
let value = '';
let validationUrl = '';

beforeAll(async () => {
  value = await app.page.evaluate(async (note) => {
    const r = await window.keydesk['keys.generate']({ expire: '2099-01-01', count: 1, isPremium: false, note });
    return r.ok ? ((JSON.parse(new TextDecoder().decode(r.data.generated.values)) as string[])[0] ?? '') : '';
  }, NOTE);
  expect(value).not.toBe('');
  await app.nav('Integration');
  const service = app.page.getByRole('region', { name: 'Service' });
  await service.getByText('Local sandbox').waitFor();
  validationUrl = (await service.locator('dd code').nth(1).textContent()) ?? '';
  expect(validationUrl).toMatch(/\/v2_validation$/);
});

describe('the key panel after the key is bound elsewhere', () => {
  it('shows the new HWID and a newer read time after Refresh', async () => {
    const { page } = app;
    const bind = async (hwid: string) => {
      // The request a protected app sends (wire.md "Validation"), as the Integration view's snippets send it.
      const query = new URLSearchParams({ key: value, service: 'demo', hwid });
      const answer = (await (await fetch(`${validationUrl}?${query.toString()}`)).json()) as { V2_Authentication?: string };
      expect(answer.V2_Authentication).toBe('success');
    };
    await bind(OLD_HWID);
    await app.nav('Keys');
    await app.search(value);
    await page.getByRole('button', { name: value, exact: true }).click();
    const panel = page.getByRole('complementary', { name: 'Key detail' });
    await panel.getByText(OLD_HWID).waitFor();
    await panel.getByRole('button', { name: 'Reset HWID' }).click();
    await page.getByRole('dialog', { name: "Reset this key's HWID?" }).getByRole('button', { name: 'Reset' }).click();
    await panel.getByText(UNBOUND).waitFor();
    const readAt = panel.locator('.read-at time');
    const before = (await readAt.getAttribute('datetime')) ?? '';
    expect(before).not.toBe('');

    // The customer's new PC binds the key; nothing tells the panel, which still shows the key as it was read.
    await bind(NEW_HWID);
    expect(await panel.getByText(NEW_HWID).count()).toBe(0);

    await panel.getByRole('button', { name: 'Refresh' }).click();
    await panel.getByText(NEW_HWID).waitFor();
    expect(await panel.getByText(UNBOUND).count()).toBe(0);
    expect(await panel.getByRole('button', { name: 'Reset HWID' }).isEnabled()).toBe(true);
    const after = (await readAt.getAttribute('datetime')) ?? '';
    expect(Date.parse(after)).toBeGreaterThan(Date.parse(before));
    expect(await panel.locator('.read-at').textContent()).toMatch(/^Read (now|\d+ seconds? ago)\./);
  }, 60_000);
});
