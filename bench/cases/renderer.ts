// `renderer`: figures with 100,000 keys in the ledger, measured in Chromium through the harness (run `npm run build`
// first): opening All keys to first rows painted, a filter keystroke to updated rows, DOM rows, initial JS gzipped.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { gzipSync } from 'node:zlib';
import { launchBrowser } from '../../test/support/browser.ts';
import { startHarnessProcess } from '../../test/support/harness-process.ts';
import { ROOT } from '../lib/sandbox.ts';
import { fmt, median, msList } from '../lib/stats.ts';
import { record } from '../lib/table.ts';

interface RendererFigures {
  openMs: number[];
  keystrokeMs: number[];
  maxDomRows: number;
  /** From the keys all recorded to the text index holding them all (the writer's idle time). */
  indexCatchUpMs: number;
  /** Clicking "Select all 100,000" to the count shown selected. */
  selectAllMs: number;
  initialJsGzipBytes: number;
  ledgerRows: number;
}

async function measureRenderer(): Promise<RendererFigures> {
  const assets = join(ROOT, 'out/renderer/assets');
  const html = readFileSync(join(ROOT, 'out/renderer/index.html'), 'utf8');
  const entry = /src="\.\/assets\/([^"]+\.js)"/.exec(html)?.[1];
  if (!entry || !readdirSync(assets).includes(entry)) throw new Error('run npm run build first');
  const initialJsGzipBytes = gzipSync(readFileSync(join(assets, entry)), { level: 9 }).length;

  const harness = await startHarnessProcess();
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(harness.url);
    await page.locator('[data-app-state="ready"]').waitFor();
    // 100 batches of 1,000 keys with distinct notes, so a filter narrows as a person types.
    const ledgerRows = await page.evaluate(async () => {
      for (let b = 0; b < 100; b++) {
        const r = await window.keydesk['keys.generate']({
          expire: '2099-01-01',
          count: 1_000,
          isPremium: b % 5 === 0,
          note: `batch ${String(b).padStart(4, '0')} for customer ${b * 37}`,
        });
        if (!r.ok) throw new Error(r.message);
      }
      // keys.generate answers once its keys are queued for the ledger: wait until they are all recorded.
      const deadline = Date.now() + 300_000;
      for (;;) {
        const q = await window.keydesk['ledger.query']({ filter: {}, sort: { field: 'createdAt', dir: 'desc' }, offset: 0, limit: 1 });
        const total = q.ok ? (q.data.total ?? -1) : -1;
        if (total >= 100_000 || Date.now() > deadline) return total;
        await new Promise((r) => setTimeout(r, 500));
      }
    });

    // The writer thread writes the new rows' text index in its idle time, about 10 s for 100,000 keys. Until then a
    // text filter also scans the rows not indexed yet, beside the writer's work on the other core. That is once per
    // bulk generate, not All keys at 100,000 keys: the figures judged wait for it, and its length is reported.
    const indexStart = performance.now();
    const file = new DatabaseSync(join(harness.userData, 'keydesk.db'), { readOnly: true });
    try {
      const behind = file.prepare('SELECT (SELECT coalesce(max(id), 0) FROM ledger) - upto AS n FROM ledger_indexed');
      while ((behind.get() as { n: number }).n > 0) {
        if (performance.now() - indexStart > 300_000) throw new Error('the text index did not catch up within 5 minutes');
        await new Promise((r) => setTimeout(r, 200));
      }
    } finally {
      file.close();
    }
    const indexCatchUpMs = performance.now() - indexStart;

    // Runs in the page: click a view button, resolve at the first frame after the first row is in the DOM.
    const openAllKeys = `(async () => {
      const nav = [...document.querySelectorAll('nav[aria-label="Views"] button')];
      nav.find((b) => b.textContent.trim() === 'Overview').click();
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const t0 = performance.now();
      nav.find((b) => b.textContent.trim() === 'All keys').click();
      await new Promise((res) => {
        const check = () => (document.querySelector('.vrow .mono') ? requestAnimationFrame(() => res()) : requestAnimationFrame(check));
        check();
      });
      return performance.now() - t0;
    })()`;
    const openMs: number[] = [];
    for (let i = 0; i < 7; i++) openMs.push(await page.evaluate<number>(openAllKeys));

    // One keystroke at a time, as React sees typing; done at the first frame after the new rows are shown.
    const keystroke = (ch: string) => `(async () => {
      const input = [...document.querySelectorAll('input[type=search]')].find((i) => i.labels[0]?.textContent.startsWith('Filter'));
      // The count line (the recording notice elsewhere comes and goes), found anew each frame.
      const countLine = () => [...document.querySelectorAll('.ledger-line > p[role=status]')].find((p) => !p.textContent.startsWith('Recording'));
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
      let sawLoading = false;
      const t0 = performance.now();
      setValue.call(input, input.value + ${JSON.stringify(ch)});
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((res, rej) => {
        const check = () => {
          const text = countLine()?.textContent ?? '';
          if (performance.now() - t0 > 60000) return rej(new Error('no updated count within 60 s; the count line says: ' + text));
          if (text === 'Loading…') sawLoading = true;
          // Done at the new count: "1,000 keys", or "More than 10,000 keys match" where main stops counting.
          if (sawLoading && / keys?( match)?/.test(text)) requestAnimationFrame(() => res());
          else requestAnimationFrame(check);
        };
        check();
      });
      return performance.now() - t0;
    })()`;
    const keystrokeMs: number[] = [];
    for (let round = 0; round < 2; round++) {
      await page.getByLabel('Filter (key, note or HWID)').fill('');
      await page.getByText('100,000 keys', { exact: true }).waitFor();
      for (const ch of 'batch 0042') keystrokeMs.push(await page.evaluate<number>(keystroke(ch)));
    }
    const found = (await page.locator('.ledger-line > p[role=status]').last().textContent()) ?? '';
    if (found !== '1,000 keys') throw new Error(`filter found ${found}`);

    await page.getByLabel('Filter (key, note or HWID)').fill('');
    await page.getByText('100,000 keys', { exact: true }).waitFor();
    let maxDomRows = 0;
    for (const fraction of [0, 0.1, 0.37, 0.5, 0.83, 1]) {
      await page.getByLabel('Rows').evaluate((el: { scrollTop: number; scrollHeight: number }, f) => {
        el.scrollTop = el.scrollHeight * f;
      }, fraction);
      await page.waitForTimeout(150);
      maxDomRows = Math.max(maxDomRows, await page.locator('.vrow').count());
    }
    const t0 = performance.now();
    await page.getByRole('button', { name: 'Select all 100,000' }).click();
    await page.getByText('All 100,000 matching keys selected').waitFor();
    const selectAllMs = performance.now() - t0;
    return { openMs, keystrokeMs, maxDomRows, indexCatchUpMs, selectAllMs, initialJsGzipBytes, ledgerRows };
  } finally {
    await browser.close();
    await harness.stop();
  }
}

export async function benchRenderer(): Promise<void> {
  console.error('renderer: Chromium through the harness, 100,000 keys in the ledger');
  const r = await measureRenderer();
  if (r.ledgerRows !== 100_000) throw new Error(`the ledger holds ${r.ledgerRows} rows`);
  const openP = Math.max(...r.openMs);
  const keyP = Math.max(...r.keystrokeMs);
  console.error(`  keystrokes (ms): ${msList(r.keystrokeMs)}; opens (ms): ${msList(r.openMs)}`);
  record(
    'opening All keys to first rows painted (worst of 7; median in "ours")',
    `${fmt(median(r.openMs), 'ms')} median`,
    `${fmt(openP, 'ms')} worst`,
    openP,
    '≤ 150 ms',
    openP <= 150,
  );
  record(
    'a filter keystroke to updated rows (worst of 20; median in "ours")',
    `${fmt(median(r.keystrokeMs), 'ms')} median`,
    `${fmt(keyP, 'ms')} worst`,
    keyP,
    '≤ 100 ms',
    keyP <= 100,
  );
  record('DOM rows at any time (scrolling through 100,000)', String(r.maxDomRows), '', r.maxDomRows, '≤ 60', r.maxDomRows <= 60);
  record(
    'the text index catching up after the 100,000 keys are recorded (before the figures above)',
    fmt(r.indexCatchUpMs, 'ms'),
    '',
    r.indexCatchUpMs,
    'reported',
    true,
  );
  record(
    '"Select all 100,000" to the selection shown (the filter itself: nothing is loaded)',
    fmt(r.selectAllMs, 'ms'),
    '',
    r.selectAllMs,
    'reported',
    true,
  );
  record(
    'initial renderer JS, gzipped',
    fmt(r.initialJsGzipBytes / 1024, 'KB'),
    '',
    r.initialJsGzipBytes / 1024,
    '≤ 300 KB',
    r.initialJsGzipBytes <= 300 * 1024,
  );
}
