// The ledger readers: pages and exact counts are read on threads of their own, as main's connection would read them.
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { LedgerReader, ReadRefused } from '../../src/main/store/reader.ts';
import { ledgerKey } from '../../bench/lib/ledger-key.ts';
import { startTestCore } from '../support/core.ts';
import { tempDir } from '../support/temp-dir.ts';

const SORT = { field: 'value', dir: 'asc' } as const;

describe('the ledger readers', () => {
  it('counts exactly on its own thread, as main would count', async () => {
    const t = await startTestCore();
    try {
      const profileId = 'sandbox';
      const ledger = t.writable();
      ledger.recordKeys(
        profileId,
        Array.from({ length: 300 }, (_, i) =>
          ledgerKey(`KD-${String(i).padStart(4, '0')}`, { note: i % 3 === 0 ? 'third' : 'other', status: i % 2 ? 'active' : 'generated' }),
        ),
      );
      expect(t.core.counter.threadId).toBeNull();
      const filter = { text: 'third' };
      const page = await t.must('ledger.query', { filter, sort: SORT, offset: 0, limit: 2, exactCount: true });
      // The read started the counter's thread: the count was not made on main's.
      expect(t.core.counter.threadId).not.toBeNull();
      expect(t.core.counter.threadId).not.toBe(threadId);
      expect(page).toEqual({ ...t.core.db.queryLedger(profileId, filter, SORT, 0, 2, { exact: true }) });
      expect(page).toMatchObject({ total: 100, totalCapped: false, targets: 100 });
      expect(page.rows.map((r) => r.value)).toEqual(['KD-0000', 'KD-0003']);
    } finally {
      await t.close();
    }
  });

  it('reads pages and seeks on the reader thread, as main would', async () => {
    const t = await startTestCore();
    try {
      const profileId = 'sandbox';
      t.writable().recordKeys(
        profileId,
        Array.from({ length: 50 }, (_, i) => ledgerKey(`KD-${String(i).padStart(4, '0')}`, { note: 'page' })),
      );
      expect(t.core.reader.threadId).toBeNull();
      const first = await t.must('ledger.query', { filter: {}, sort: SORT, offset: 10, limit: 5 });
      expect(t.core.reader.threadId).not.toBeNull();
      expect(t.core.reader.threadId).not.toBe(threadId);
      expect(first).toEqual({ ...t.core.db.queryLedger(profileId, {}, SORT, 10, 5) });
      expect(first.rows.map((r) => r.value)).toEqual(['KD-0010', 'KD-0011', 'KD-0012', 'KD-0013', 'KD-0014']);
      const cursor = { after: { value: 'KD-0014', key: 'KD-0014' } };
      const next = await t.must('ledger.query', { filter: {}, sort: SORT, offset: 0, limit: 2, cursor });
      expect(next.rows).toEqual(t.core.db.seekLedger(profileId, {}, SORT, cursor, 2));
      expect(next.rows.map((r) => r.value)).toEqual(['KD-0015', 'KD-0016']);
    } finally {
      await t.close();
    }
  });

  it('refuses reads once closed, or with the reason its file cannot open', async () => {
    const options = { cacheKiB: 1024, background: false, idleMs: 1_000 };
    const closed = new LedgerReader(join(tempDir('keydesk-reader-'), 'keydesk.db'), options);
    await closed.close();
    await expect(closed.queryLedger('p', {}, SORT, 0, 1)).rejects.toThrow('Keydesk is quitting: the ledger is no longer read.');
    const missing = new LedgerReader(join(tempDir('keydesk-reader-'), 'no-such-folder', 'keydesk.db'), options);
    try {
      const read = missing.queryLedger('p', {}, SORT, 0, 1);
      await expect(read).rejects.toBeInstanceOf(ReadRefused);
      await expect(read).rejects.toThrow(/the ledger reader stopped unexpectedly \(unable to open database file\)/);
    } finally {
      await missing.close();
    }
  });
});
