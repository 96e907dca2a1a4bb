// Ledger writes' marks: a row marked not read back, in any file's form, and cleared by the key's next description.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { LocalDb } from '../../src/main/store/local-db.ts';
import type { Key } from '../../src/shared/domain.ts';
import { ledgerOf, PROFILE } from '../support/ledger-model.ts';
import { tempDir } from '../support/temp-dir.ts';

describe('a row marked not read back', () => {
  const key = (): Key => ({
    id: '1',
    value: 'K-MARKED',
    note: '',
    status: 'active',
    isPremium: false,
    expire: null,
    expiresByDaysKey: false,
    daysKey: null,
    expiresAt: '2030-01-01T00:00:00.000Z',
    hwid: 'HW-OLD',
    createdAt: '2026-01-01T00:00:00.000Z',
    activatedAt: null,
    lastResetAt: null,
    serviceId: 's',
  });
  const marks = (db: LocalDb) => {
    const r = ledgerOf(db).find((row) => row.value === 'K-MARKED');
    return { expiry: r?.expiryStale === true, hwid: r?.hwidStale === true, status: r?.statusStale === true };
  };

  it('any nonzero mark reads as marked; a description clears it', () => {
    const file = join(tempDir('keydesk-localdb-'), 'keydesk.db');
    const db = new LocalDb(file);
    db.recordKeys(PROFILE, [key()], '2026-11-20T10:00:00.000Z');
    for (const what of ['expiry', 'hwid', 'status'] as const) db.markStale(PROFILE, what, ['K-MARKED']);
    const raw = new DatabaseSync(file);
    const stored = () =>
      raw.prepare("SELECT expiry_stale AS e, hwid_stale AS h, status_stale AS s FROM ledger WHERE value = 'K-MARKED'").get();
    expect(stored()).toEqual({ e: 1, h: 1, s: 1 });
    // A file from before holds when each row was marked, in ms since the epoch.
    const markedAt = Date.parse('2026-11-20T10:00:05.000Z');
    raw.exec(
      `UPDATE ledger SET expiry_stale = ${markedAt}, hwid_stale = ${markedAt + 1}, status_stale = ${markedAt + 2} WHERE value = 'K-MARKED'`,
    );
    expect(marks(db)).toEqual({ expiry: true, hwid: true, status: true });
    // Seen before those times, and it clears them all the same: the one writer commits in the order called.
    db.recordKeys(PROFILE, [key()], '2026-11-20T10:00:01.000Z');
    expect(marks(db)).toEqual({ expiry: false, hwid: false, status: false });
    expect(stored()).toEqual({ e: 0, h: 0, s: 0 });
    raw.close();
    db.close();
    rmSync(file, { force: true });
  });
});
