// A running job a page can show for as long as a test needs: an extend on a remote profile whose sandbox holds
// its requests (held-sandbox.ts), started through the page's own bridge (e2e tests of Keydesk's core going away).
import type { Page } from '@playwright/test';
import { expect } from 'vitest';
import type { HeldSandbox } from './held-sandbox.ts';

/**
 * In the page: a remote profile on `remote` (added and selected, the page reloaded), its requests held, and an
 * extend of two keys started there; resolves once its first requests are on the wire (held), so the job surely runs.
 */
export async function startHeldExtend(page: Page, remote: HeldSandbox): Promise<void> {
  await page.evaluate(
    async ({ url, key }) => {
      const added = await window.keydesk['profiles.add']({ name: 'Acme Remote', baseUrl: url, apiKey: key, serviceIdentifier: 'acme' });
      if (!added.ok) throw new Error(added.message);
      const selected = await window.keydesk['profiles.select']({ id: added.data.id });
      if (!selected.ok) throw new Error(selected.message);
    },
    { url: remote.url, key: remote.apiKey },
  );
  await page.reload();
  await page.locator('[data-app-state="ready"]').waitFor();
  remote.hold();
  await page.evaluate(async () => {
    const started = await window.keydesk['jobs.start']({
      action: 'extend',
      days: 3,
      target: { keyValues: ['NOT-A-KEY-GONE-1', 'NOT-A-KEY-GONE-2'] },
    });
    if (!started.ok) throw new Error(started.message);
  });
  await expect.poll(() => remote.heldCount(), { timeout: 60_000 }).toBeGreaterThan(0);
}
