// A lookup that finds many keys activated writes those rows last, by id descending (LocalDb.upsertKeys), so their
// HWID text-index entries go in ascending rowid. The index must say the same as if the rows had been written in
// any other order: the same trigrams in as many entries, and every key found by its HWID, none by a HWID it lost.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalDb } from '../../src/main/store/local-db.ts';
import { generateKeyValues } from '../../src/sandbox/keygen.ts';
import type { Key } from '../../src/shared/domain.ts';
import { tempDir } from '../support/temp-dir.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function file(): string {
  const dir = tempDir('keydesk-hwid-');
  dirs.push(dir);
  return join(dir, 'keydesk.db');
}

const key = (value: string, note: string, status: Key['status'], hwid: string | null): Key => ({
  id: '',
  value,
  note,
  status,
  isPremium: false,
  expire: null,
  expiresByDaysKey: false,
  daysKey: null,
  expiresAt: null,
  hwid,
  createdAt: '2026-01-01T00:00:00.000Z',
  activatedAt: null,
  lastResetAt: null,
  serviceId: 'svc',
});

/** Every trigram the text index holds, with how many entries hold it. */
function trigrams(path: string): unknown[] {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return db.prepare('SELECT term, doc FROM ledger_trigrams ORDER BY term').all();
  } finally {
    db.close();
  }
}

function found(db: LocalDb, text: string): string[] {
  return db.queryLedger('p', { text }, { field: 'value', dir: 'asc' }, 0, 10).rows.map((r) => r.value);
}

describe('HWID entries written by id descending', () => {
  it('keep the key-order text index and find every key by HWID', () => {
    const values = generateKeyValues(2_400);
    const known = values.slice(0, 2_000);
    const fresh = values.slice(2_000);
    const note = (i: number): string => `Batch ${i % 5}`;
    const hwid = (i: number, round: number): string => `HW-${round}-${(i * 2_654_435_761) % 4_294_967_296}-PC`;

    // Generated in five batches (ids follow key order within each, not across them).
    const path = file();
    const db = new LocalDb(path);
    for (let b = 0; b < 5; b++)
      db.recordKeys(
        'p',
        known.flatMap((v, i) => (i % 5 === b ? [key(v, note(i), 'generated', null)] : [])),
      );
    // A lookup finds them all activated.
    db.recordKeys(
      'p',
      known.map((v, i) => key(v, note(i), 'active', hwid(i, 1))),
    );
    // The next: a third bound to another machine, a fifth reset, the rest as they were, and 400 keys not seen before.
    const final = (v: string, i: number): Key => key(v, note(i), 'active', i % 5 === 0 ? null : i % 3 === 0 ? hwid(i, 2) : hwid(i, 1));
    db.recordKeys('p', [...known.map(final), ...fresh.map((v, j) => final(v, 2_000 + j))]);

    // The same final rows written in one go, in key order, on an empty ledger.
    const reference = file();
    const ref = new LocalDb(reference);
    ref.recordKeys('p', values.map(final));
    ref.close();
    expect(trigrams(path)).toEqual(trigrams(reference));

    for (let i = 0; i < values.length; i += 7) {
      const v = values[i] as string;
      const now = final(v, i).hwid;
      if (now !== null) expect(found(db, now), `key ${i} by its HWID`).toEqual([v]);
      // A HWID the key no longer has finds nothing (a reset one, or the machine it moved from).
      if (i < 2_000 && now !== hwid(i, 1)) expect(found(db, hwid(i, 1)), `key ${i} by its old HWID`).toEqual([]);
    }
    db.close();
  });
});
