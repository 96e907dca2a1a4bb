// Profiles (everything but the apiKey) in a small JSON file in userData, written atomically.
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Profile } from '../../shared/domain.ts';

/** A profile as stored: what the renderer sees, less what is derived at run time (hasKey, storage). */
export type StoredProfile = Omit<Profile, 'hasKey' | 'storage'>;

interface FileShape {
  version: 1;
  activeProfileId: string | null;
  profiles: StoredProfile[];
}

export class ProfilesFile {
  readonly path: string;
  private data: FileShape;

  constructor(userDataDir: string) {
    this.path = join(userDataDir, 'profiles.json');
    this.data = this.load();
  }

  private load(): FileShape {
    try {
      const parsed = JSON.parse(readFileSync(this.path, 'utf8')) as Partial<FileShape>;
      if (parsed.version === 1 && Array.isArray(parsed.profiles)) {
        return { version: 1, activeProfileId: parsed.activeProfileId ?? null, profiles: parsed.profiles };
      }
    } catch {
      // missing or unreadable: start empty (the sandbox profile is recreated by the core)
    }
    return { version: 1, activeProfileId: null, profiles: [] };
  }

  /** Write to a temporary file beside the real one, then rename: a crash leaves the old file or the new. */
  private save(): void {
    mkdirSync(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.${randomUUID()}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.data, null, 2), { mode: 0o600 });
    renameSync(tmp, this.path);
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

  upsert(profile: StoredProfile): void {
    const i = this.data.profiles.findIndex((p) => p.id === profile.id);
    if (i === -1) this.data.profiles.push({ ...profile });
    else this.data.profiles[i] = { ...profile };
    this.save();
  }

  remove(id: string): void {
    this.data.profiles = this.data.profiles.filter((p) => p.id !== id);
    if (this.data.activeProfileId === id) this.data.activeProfileId = this.data.profiles[0]?.id ?? null;
    this.save();
  }

  setActive(id: string): void {
    this.data.activeProfileId = id;
    this.save();
  }
}
