// Search: keys by exact value, exact HWID or note substring (ignoring case), and keyless entries by HWID
// substring. Notes are found through a trigram FTS5 index over the distinct notes, never by scanning keys.
import { charLength } from '../../shared/rules.ts';
import type { WireKey, WireKeylessEntry } from '../../shared/wire.ts';
import type { Db, SqlValue } from './db.ts';
import type { Keys } from './lifecycle.ts';
import { ACTIVE, GENERATED, KEY_COLUMNS, KEYLESS_COLUMNS, toKeyless, type KeylessRow, type KeyRow, type Page } from './rows.ts';

/** A segment of an ordered result: rows that rank equal, newest first. */
interface Segment {
  from: string;
  params: SqlValue[];
}

export class Search {
  private readonly db: Db;
  private readonly lifecycle: Keys;

  constructor(db: Db, keys: Keys) {
    this.db = db;
    this.lifecycle = keys;
    // Substring match for terms shorter than a trigram: done in JS so case folding matches FTS5's.
    db.fn('kd_contains', (haystack, needle) =>
      typeof haystack === 'string' && typeof needle === 'string' && haystack.toLowerCase().includes(needle.toLowerCase()) ? 1 : 0,
    );
  }

  /** Ids of this service's notes containing `term`, ignoring case: through the trigram index from 3 characters. */
  private matchingNoteIds(serviceId: number, term: string): string {
    const rows =
      charLength(term) >= 3
        ? this.db.all<{ id: number }>(
            'SELECT n.id FROM notes_fts f JOIN notes n ON n.id = f.rowid WHERE notes_fts MATCH ? AND n.service_id = ?',
            `"${term.replaceAll('"', '""')}"`,
            serviceId,
          )
        : this.db.all<{ id: number }>('SELECT id FROM notes WHERE service_id = ? AND kd_contains(text, ?)', serviceId, term);
    return JSON.stringify(rows.map((r) => r.id));
  }

  /** A key search's ranked parts: exact value, exact HWID (active keys), note contains term; newest first within each. */
  private keySegments(serviceId: number, status: 'active' | 'generated', term: string): Segment[] {
    const st = status === 'active' ? ACTIVE : GENERATED;
    const segments: Segment[] = [
      {
        from: 'FROM keys k JOIN notes n ON n.id = k.note_id WHERE k.value = ? AND k.service_id = ? AND k.status = ?',
        params: [term, serviceId, st],
      },
    ];
    if (st === ACTIVE) {
      segments.push({
        from: `FROM keys k JOIN notes n ON n.id = k.note_id
               WHERE k.hwid = ? AND k.service_id = ? AND k.status = 1 AND k.value <> ?`,
        params: [term, serviceId, term],
      });
    }
    segments.push({
      from: `FROM keys k JOIN notes n ON n.id = k.note_id
             WHERE k.note_id IN (SELECT value FROM json_each(?)) AND k.status = ? AND k.value <> ?
               AND (k.hwid IS NULL OR k.hwid <> ?)`,
      params: [this.matchingNoteIds(serviceId, term), st, term, term],
    });
    return segments;
  }

  /** Pages across the segments laid end to end (best-ranked first) without materialising them. */
  keys(serviceId: number, status: 'active' | 'generated', term: string, limit: number, offset: number): Page<WireKey> {
    const segments = this.keySegments(serviceId, status, term);
    const count = (s: Segment) => this.db.get<{ n: number }>(`SELECT count(*) AS n ${s.from}`, ...s.params)?.n ?? 0;
    const rows = (s: Segment, lim: number, off: number) =>
      this.db.all<KeyRow>(`SELECT ${KEY_COLUMNS} ${s.from} ORDER BY k.id DESC LIMIT ? OFFSET ?`, ...s.params, lim, off);
    const counts = segments.map(count);
    const total = counts.reduce((a, b) => a + b, 0);
    let best: KeyRow | null = null;
    for (const [i, seg] of segments.entries()) {
      if ((counts[i] ?? 0) > 0) {
        best = rows(seg, 1, 0)[0] ?? null;
        break;
      }
    }
    const items: KeyRow[] = [];
    let skip = offset;
    for (const [i, seg] of segments.entries()) {
      const n = counts[i] ?? 0;
      if (items.length >= limit) break;
      if (skip >= n) {
        skip -= n;
        continue;
      }
      items.push(...rows(seg, limit - items.length, skip));
      skip = 0;
    }
    return { best: best && this.lifecycle.wire(best), items: items.map((r) => this.lifecycle.wire(r)), total };
  }

  /** Keyless entries whose HWID contains `term` (exact case), the exact HWID first, then newest first. */
  keyless(serviceId: number, term: string, limit: number, offset: number): Page<WireKeylessEntry> {
    const total =
      this.db.get<{ n: number }>('SELECT count(*) AS n FROM keyless WHERE service_id = ? AND instr(hwid, ?) > 0', serviceId, term)?.n ?? 0;
    const list = (lim: number, off: number) =>
      this.db.all<KeylessRow>(
        `SELECT ${KEYLESS_COLUMNS} FROM keyless WHERE service_id = ? AND instr(hwid, ?) > 0
         ORDER BY hwid = ? DESC, id DESC LIMIT ? OFFSET ?`,
        serviceId,
        term,
        term,
        lim,
        off,
      );
    const best = total > 0 ? (list(1, 0)[0] ?? null) : null;
    return { best: best && toKeyless(best), items: list(limit, offset).map(toKeyless), total };
  }
}
