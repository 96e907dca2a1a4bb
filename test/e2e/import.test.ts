// Importing 1,000 keys from a CSV through the file input, in Chromium through the harness: the preview says what
// it read and why rows are left out, and the job records each key found generated or not on the service.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batchValues } from '../../src/shared/key-batch.ts';
import type { KeyBatch } from '../../src/shared/key-batch.ts';
import { useApp } from '../support/app-page.ts';
import { tempDir } from '../support/temp-dir.ts';

const app = useApp();

describe('Import: 1,000 keys from a CSV', () => {
  it('previews the file, looks every key up and says what it found', async () => {
    const made = await app.page.evaluate(async () => {
      const r = await window.keydesk['keys.generate']({ expire: '2099-01-31', count: 990, isPremium: false, note: 'sold elsewhere' });
      return r.ok ? r.data.generated : null;
    });
    expect(made).not.toBeNull();
    const real = batchValues(made as KeyBatch);
    const absent = Array.from({ length: 10 }, (_, i) => `NOT-ON-SERVICE-${String(i).padStart(4, '0')}`);
    const lines = ['key,name,email', ...[...real, ...absent].map((k, i) => `${k},Customer ${i % 50},c${i % 50}@example.com`)];
    // One duplicate and one malformed row: left out, each with its reason.
    lines.push(`${real[0] ?? ''},Customer 0,c0@example.com`, 'two words,Someone,s@example.com');
    const file = join(tempDir('keydesk-import-'), 'keys.csv');
    writeFileSync(file, lines.join('\n'));

    await app.nav('Import');
    await app.page.locator('input[type="file"]').setInputFiles(file);
    const preview = app.page.getByRole('region', { name: 'Import preview' });
    await preview.getByText('keys.csv: 1,002 rows read, 1,000 keys to look up, 1 duplicate, 1 malformed.').waitFor();
    await preview.getByText('Rows left out (2)').click();
    await preview.getByText(`Row 1,002 (${real[0] ?? ''}): The same key as row 2.`).waitFor();
    await preview.getByText('Row 1,003 (two words): The key contains a space or a control character.').waitFor();
    await preview.getByText('50 customers named: 0 already in the book; 50 new.').waitFor();

    await app.page.getByRole('button', { name: 'Look up 1,000 keys' }).click();
    await app.page.getByText('Keys imported from keys.csv, finished: 1,000 of 1,000 done.').waitFor({ timeout: 120_000 });

    const found = await app.page.evaluate(async () => {
      const jobs = await window.keydesk['jobs.list'](undefined);
      const job = jobs.ok ? jobs.data.jobs.find((j) => j.action === 'import') : undefined;
      const items = await window.keydesk['jobs.items']({ jobId: job?.id ?? '', offset: 0, limit: 1000 });
      const codes: Record<string, number> = {};
      for (const i of items.ok ? items.data.items : []) codes[i.code ?? ''] = (codes[i.code ?? ''] ?? 0) + 1;
      return { source: job?.source, codes };
    });
    expect(found).toEqual({ source: 'keys.csv', codes: { generated: 990, absent: 10 } });

    // The same file again: its customers are the book's now, and the preview says so.
    await app.page.locator('input[type="file"]').setInputFiles(file);
    await preview
      .getByText(
        '50 customers named: 50 already in the book (Customer 0, Customer 1, Customer 2, Customer 3, Customer 4 and 45 more), their keys linked to them; 0 new.',
      )
      .waitFor();
  });
});
