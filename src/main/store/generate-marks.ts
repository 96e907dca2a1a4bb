// Generate answers whose keys are being recorded, one small file each in <userData>/generate-marks/, removed once
// every key is written: one still there at start means Keydesk stopped first, and All keys says keys may be missing.
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CutShortGenerate } from '../../shared/domain.ts';

/** A mark's id as a file name: the ids made here (UUIDs), nothing that could leave the directory. */
const SAFE_ID = /^[A-Za-z0-9-]{1,64}$/;

type Mark = CutShortGenerate & { profileId: string };

export class GenerateMarks {
  private readonly dir: string | null;
  /** What an earlier session left: read once, before this one marks anything. */
  private readonly left = new Map<string, Mark>();

  /** The marks beside keydesk.db (`dbFile`); none for a database with no file. */
  constructor(dbFile: string) {
    this.dir = dbFile === '' || dbFile === ':memory:' ? null : join(dirname(dbFile), 'generate-marks');
    if (this.dir === null) return;
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return;
    }
    for (const name of names) {
      const id = name.replace(/\.json$/, '');
      try {
        const m = JSON.parse(readFileSync(join(this.dir, name), 'utf8')) as Partial<Record<keyof Mark, unknown>>;
        if (SAFE_ID.test(id) && typeof m.profileId === 'string' && typeof m.count === 'number') {
          const text = (v: unknown): string => (typeof v === 'string' ? v : '');
          this.left.set(id, { id, profileId: m.profileId, note: text(m.note), count: m.count, at: text(m.at) });
        }
      } catch (error) {
        console.error('keydesk: a generate mark could not be read:', error);
      }
    }
  }

  /** Marks keys about to be recorded; returns the mark's id (null when it could not be written: recording goes on). */
  begin(profileId: string, note: string, count: number, at: string): string | null {
    if (this.dir === null) return null;
    const id = randomUUID();
    try {
      mkdirSync(this.dir, { recursive: true });
      writeFileSync(join(this.dir, `${id}.json`), JSON.stringify({ profileId, note, count, at }));
      return id;
    } catch (error) {
      console.error('keydesk: a generate could not be marked before its keys were recorded:', error);
      return null;
    }
  }

  /** Every key of the mark is written, or an earlier session's mark is dealt with: it goes. */
  end(id: string): void {
    this.left.delete(id);
    if (this.dir === null || !SAFE_ID.test(id)) return;
    try {
      rmSync(join(this.dir, `${id}.json`), { force: true });
    } catch (error) {
      // Left behind, the next start says keys may be missing when none are: a lookup finds them all.
      console.error('keydesk: a generate mark could not be removed:', error);
    }
  }

  /** The generates of this profile an earlier session cut short while it recorded their keys, oldest first. */
  cutShort(profileId: string): CutShortGenerate[] {
    return [...this.left.values()]
      .filter((m) => m.profileId === profileId)
      .sort((a, b) => a.at.localeCompare(b.at))
      .map(({ id, note, count, at }) => ({ id, note, count, at }));
  }

  /** An earlier session's mark of this profile, or undefined. */
  find(profileId: string, id: string): CutShortGenerate | undefined {
    return this.cutShort(profileId).find((m) => m.id === id);
  }
}
