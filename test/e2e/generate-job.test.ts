// Generating more keys than one request takes, in Chromium through the harness: the form says how many requests
// before anything is sent, runs them as a job with progress, and exports every key the job made. The service's
// own limit (100,000 per request) holds: Activity shows one entry, and its job one request per batch.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useApp } from '../support/app-page.ts';

const app = useApp();

describe('Generate: 100,001 keys', () => {
  it('generates 100,001 keys as a 2-request job and exports them', async () => {
    await app.nav('Keys');
    await app.page.getByLabel('Count').fill('100001');
    await app.page.getByText("More than 100,000 keys (the service's limit per request): sent as 2 requests, run as a job").waitFor();
    await app.page.getByLabel('Note', { exact: true }).fill('two requests');
    await app.page.getByRole('button', { name: 'Generate as a job of 2 requests' }).click();

    const job = app.page.getByRole('group', { name: 'Generate job' });
    await job.getByText('Generate, finished: 100,001 of 100,001 done.').waitFor({ timeout: 150_000 });
    expect(await job.getByLabel('Generate job progress').getAttribute('value')).toBe('100001');

    await job.getByRole('button', { name: 'Export the 100,001 keys CSV' }).click();
    const toast = app.page.getByText(/^Saved to (.+keydesk-generated-[^/\\]+\.csv)\.$/).last();
    await toast.waitFor();
    const path = /^Saved to (.+)\.$/.exec((await toast.textContent()) ?? '')?.[1] ?? '';
    expect(path.startsWith(app.harness.userData)).toBe(true);
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(lines[0]).toBe(
      'value,note,status,isPremium,expiresAt,daysKey,hwid,createdAt,checkedByKeydeskAt,customer,customerEmail,customerDiscordId',
    );
    expect(lines).toHaveLength(100_002);
    expect(new Set(lines.slice(1).map((l) => l.split(',')[0])).size).toBe(100_001);
    expect(lines.slice(1).every((l) => l.includes(',two requests,generated,false,'))).toBe(true);

    // One entry in Activity for the act; its job's items are one request per batch, none above the service's limit.
    const audit = await app.page.evaluate(async () => {
      const r = await window.keydesk['audit.list']({ filter: { action: 'keys.generate' }, offset: 0, limit: 10 });
      const entries = r.ok ? r.data.entries : [];
      const items = await window.keydesk['jobs.items']({ jobId: entries[0]?.job?.id ?? '', offset: 0, limit: 10 });
      return {
        entries: entries.map((e) => [e.target, e.outcome, e.job?.counts?.done]),
        sizes: items.ok ? items.data.items.map((i) => i.size) : [],
      };
    });
    expect(audit).toEqual({ entries: [['100,001 keys: two requests', 'ok', 100_001]], sizes: [100_000, 1] });
  });

  it('shows the job again after a reload mid-job, then its export', async () => {
    await app.nav('Keys');
    await app.page.getByLabel('Count').fill('300000');
    await app.page.getByLabel('Note', { exact: true }).fill('reloaded');
    await app.page.getByRole('button', { name: 'Generate as a job of 3 requests' }).click();
    const job = app.page.getByRole('group', { name: 'Generate job' });
    await job.getByText(/^Generate, running: /).waitFor();

    await app.page.reload();
    await app.page.locator('[data-app-state="ready"]').waitFor();
    await app.nav('Keys');
    // The same job, found again: its progress line and its Cancel.
    const again = app.page.getByRole('group', { name: 'Generate job' });
    await again.getByText(/^Generate job of 300,000 keys \(note “reloaded”\)/).waitFor();
    await again.getByText(/^Generate, running: /).waitFor();
    await again.getByRole('button', { name: 'Cancel' }).waitFor();
    // Once it has ended, another reload still finds it here, with its keys' export.
    await again.getByText(/^Generate, (finished|cancelled)\b/).waitFor({ timeout: 150_000 });
    await app.page.reload();
    await app.page.locator('[data-app-state="ready"]').waitFor();
    await app.nav('Keys');
    const after = app.page.getByRole('group', { name: 'Generate job' });
    await after.getByText(/^Generate job of 300,000 keys \(note “reloaded”\)/).waitFor();
    await after.getByRole('button', { name: /^Export the [\d,]+ keys CSV$/ }).waitFor();
  });
});
