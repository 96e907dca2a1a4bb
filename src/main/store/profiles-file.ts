// Profiles (everything but the apiKey) in a small JSON file in userData, parsed with a schema and written
// atomically: a temporary file beside it, flushed to disk, then renamed over it.
import { copyFileSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { z } from 'zod';
import type { Profile } from '../../shared/domain.ts';
import { log } from '../log.ts';
import { writeFileAtomic } from './atomic-file.ts';

/** A profile as stored: what the renderer sees, less what is derived at run time (hasKey, storage). */
export type StoredProfile = Omit<Profile, 'hasKey' | 'storage'>;

/** The format this Keydesk writes. A file with a higher version was written by a newer Keydesk. */
export const PROFILES_FILE_VERSION = 1;
export const PROFILES_FILE = 'profiles.json';

const httpUrl = z.string().refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol));
const storedProfile = z.object({
  id: z.string().min(1),
  name: z.string(),
  kind: z.enum(['sandbox', 'remote']),
  baseUrl: httpUrl,
  validationUrl: httpUrl,
  validationOriginConfirmed: z.string().optional(),
  serviceIdentifier: z.string().nullable(),
  keyHint: z.string().nullable(),
}) satisfies z.ZodType<StoredProfile>;

/** The drift watch's memory of a profile: its last answers' shapes and raw text, and what it last found. */
const driftRecord = z.object({
  checkedAt: z.string().nullable(),
  changedAt: z.string().nullable(),
  changes: z.array(
    z.object({
      read: z.string(),
      gained: z.array(z.string()),
      lost: z.array(z.string()),
      retyped: z.array(z.string()),
      before: z.string(),
      after: z.string(),
    }),
  ),
  unreadable: z.array(z.string()),
  unanswered: z.array(z.string()),
  shapes: z.record(z.string(), z.record(z.string(), z.string())),
  answers: z.record(z.string(), z.string()),
});
export type DriftRecord = z.infer<typeof driftRecord>;

const fileShape = z.object({
  version: z.literal(PROFILES_FILE_VERSION),
  activeProfileId: z.string().nullable(),
  profiles: z.array(storedProfile),
  /** The port the embedded sandbox last listened on, tried first at the next start. */
  sandboxPort: z.number().int().min(1).max(65_535).optional(),
  /** By profile id. */
  drift: z.record(z.string(), driftRecord).optional(),
});
type FileShape = z.infer<typeof fileShape>;

const EMPTY: FileShape = { version: PROFILES_FILE_VERSION, activeProfileId: null, profiles: [] };

/** What was read: the profiles, or why the file was refused (null when there was no file yet). */
type Loaded = { data: FileShape; refused: null } | { data: FileShape; refused: string };

function read(path: string): Loaded {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { data: structuredClone(EMPTY), refused: null };
    return { data: structuredClone(EMPTY), refused: `it could not be read (${code ?? 'unknown error'})` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { data: structuredClone(EMPTY), refused: 'it is not valid JSON' };
  }
  const version = typeof json === 'object' && json !== null && 'version' in json ? json.version : undefined;
  if (typeof version === 'number' && version > PROFILES_FILE_VERSION) {
    return {
      data: structuredClone(EMPTY),
      refused: `it was written by a newer Keydesk (format ${version}; this one reads ${PROFILES_FILE_VERSION})`,
    };
  }
  const parsed = fileShape.safeParse(json);
  if (!parsed.success) return { data: structuredClone(EMPTY), refused: 'its contents are not profiles this Keydesk understands' };
  return { data: parsed.data, refused: null };
}

export class ProfilesFile {
  readonly path: string;
  private data: FileShape;
  /** Why the file on disk was refused (null when it was read, or there was none), and where its copy went. */
  private readonly refused: { reason: string; copy: string | null; copyError: string | null } | null = null;
  /**
   * 'free': writes go to disk. 'held': a refused file stays untouched through start-up, and the user's first
   * change writes a new one (the copy keeps the old). 'never': no copy could be made, so the refused file is
   * never replaced and this session's changes stay in memory.
   */
  private writes: 'free' | 'held' | 'never' = 'free';

  constructor(userDataDir: string, now: () => Date = () => new Date()) {
    this.path = join(userDataDir, PROFILES_FILE);
    const loaded = read(this.path);
    this.data = loaded.data;
    if (loaded.refused !== null) {
      const copy = `${this.path}.refused-${now().toISOString().replaceAll(':', '-')}`;
      try {
        copyFileSync(this.path, copy);
        this.refused = { reason: loaded.refused, copy: basename(copy), copyError: null };
        this.writes = 'held';
      } catch (error) {
        this.refused = { reason: loaded.refused, copy: null, copyError: (error as NodeJS.ErrnoException).code ?? 'unknown error' };
        this.writes = 'never';
      }
      console.error(`keydesk: ${this.problem ?? ''}`);
    }
  }

  /**
   * Why the file on disk was refused, in words naming it, where its copy is, and what happens to changes;
   * null when it was read (or there was none). It stays true as the session goes on.
   */
  get problem(): string | null {
    const r = this.refused;
    if (r === null) return null;
    const head = `Keydesk did not use ${this.path}: ${r.reason}.`;
    if (r.copy === null) {
      return `${head} No copy of it could be made (${r.copyError ?? 'unknown error'}), so Keydesk leaves it as it is and started with the Local sandbox profile alone; changes to profiles last for this session only.`;
    }
    if (this.writes === 'held') {
      return `${head} The file was left as it is, a copy is kept beside it as ${r.copy}, and Keydesk started with the Local sandbox profile alone. Your next change to profiles writes a new file.`;
    }
    return `${head} A copy of it is kept beside it as ${r.copy}; your changes to profiles since are in a new file.`;
  }

  /**
   * Makes `next` the profiles, on disk first: write a temporary file beside the real one, flush it, then rename.
   * A crash leaves the old file or the new; a failed write (disk full, a read-only folder) throws, removes its
   * temporary file and leaves both the file and memory as they were, so the screen never shows a change that
   * was not saved.
   */
  private commit(next: FileShape, by: 'start-up' | 'user'): void {
    if (this.writes === 'never' || (this.writes === 'held' && by === 'start-up')) {
      this.data = next;
      return;
    }
    writeFileAtomic(this.path, JSON.stringify(next, null, 2));
    this.data = next;
    this.writes = 'free';
  }

  list(): StoredProfile[] {
    return this.data.profiles.map((p) => ({ ...p }));
  }

  get(id: string): StoredProfile | null {
    const p = this.data.profiles.find((x) => x.id === id);
    return p ? { ...p } : null;
  }

  get activeProfileId(): string | null {
    return this.data.activeProfileId;
  }

  /** `by: 'start-up'` is the core's own bookkeeping (the sandbox profile); it never replaces a refused file. */
  upsert(profile: StoredProfile, by: 'start-up' | 'user' = 'user'): void {
    const profiles = [...this.data.profiles];
    const i = profiles.findIndex((p) => p.id === profile.id);
    if (i === -1) profiles.push({ ...profile });
    else profiles[i] = { ...profile };
    this.commit({ ...this.data, profiles }, by);
    if (by === 'user') log.info(`profile ${profile.id}: ${i === -1 ? 'added' : 'saved'} (${profile.kind}, ${originOf(profile.baseUrl)})`);
  }

  remove(id: string): void {
    const profiles = this.data.profiles.filter((p) => p.id !== id);
    const activeProfileId = this.data.activeProfileId === id ? (profiles[0]?.id ?? null) : this.data.activeProfileId;
    const drift = Object.fromEntries(Object.entries(this.data.drift ?? {}).filter(([k]) => k !== id));
    this.commit({ ...this.data, profiles, activeProfileId, drift }, 'user');
    log.info(`profile ${id}: removed`);
  }

  setActive(id: string, by: 'start-up' | 'user' = 'user'): void {
    this.commit({ ...this.data, activeProfileId: id }, by);
    if (by === 'user') log.info(`profile ${id}: selected`);
  }

  drift(id: string): DriftRecord | null {
    return this.data.drift?.[id] ?? null;
  }

  setDrift(id: string, record: DriftRecord): void {
    this.commit({ ...this.data, drift: { ...this.data.drift, [id]: record } }, 'user');
  }

  get sandboxPort(): number | null {
    return this.data.sandboxPort ?? null;
  }

  setSandboxPort(port: number, by: 'start-up' | 'user' = 'user'): void {
    if (port !== this.data.sandboxPort) this.commit({ ...this.data, sandboxPort: port }, by);
  }
}

/** Only the scheme, host and port of a service: a pasted URL's path or query may hold a key. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'an address that is not a URL';
  }
}
