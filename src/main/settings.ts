// Keydesk's own settings in <user data>/settings.json: read field by field against the contract's schemas (a bad
// field falls back to its default alone, the file kept aside), written atomically, and heard by what applies them.
import { copyFileSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { SETTING_FIELDS, SETTINGS_DEFAULTS, type Settings } from '../shared/contract.ts';
import { log } from './log.ts';
import { writeFileAtomic } from './store/atomic-file.ts';

export const SETTINGS_FILE = 'settings.json';
const FIELDS = Object.keys(SETTING_FIELDS) as (keyof Settings)[];
const isField = (key: string): key is keyof Settings => (FIELDS as string[]).includes(key);

/** A value as the words about it show it: short, whatever a hand-edited file holds. */
function shown(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/** The settings a file's text gives, each field its own or its default, and in words each thing that was not used. */
export function readSettings(text: string): { settings: Settings; refused: string[] } {
  const settings: Settings = { ...SETTINGS_DEFAULTS };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { settings, refused: ['it is not valid JSON, so every setting is its default'] };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return { settings, refused: ['it does not hold a JSON object, so every setting is its default'] };
  const refused: string[] = [];
  const take = (field: keyof Settings, value: unknown): void => {
    const parsed = SETTING_FIELDS[field].safeParse(value);
    if (parsed.success) Object.assign(settings, { [field]: parsed.data });
    else
      refused.push(
        `${field} ${shown(value)} is refused (${parsed.error.issues[0]?.message ?? 'invalid'}), so it is ${shown(SETTINGS_DEFAULTS[field])}`,
      );
  };
  for (const [key, value] of Object.entries(json)) {
    if (isField(key)) take(key, value);
    else refused.push(`"${key}" is not a setting Keydesk knows, so it is left out`);
  }
  return { settings, refused };
}

export type SettingsListener = (now: Settings, before: Settings) => void;

export class SettingsFile {
  readonly path: string;
  /** Why the file was not used as it stood, and where its copy is; null when it was (or there was none). */
  readonly problem: string | null = null;
  private current: Settings;
  /** False when a file that was not used could not be copied aside: it is then never replaced, changes stay in memory. */
  private readonly writable: boolean = true;
  private readonly listeners = new Set<SettingsListener>();

  constructor(userDataDir: string, now: () => Date = () => new Date()) {
    this.path = join(userDataDir, SETTINGS_FILE);
    let read: ReturnType<typeof readSettings>;
    try {
      read = readSettings(readFileSync(this.path, 'utf8'));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
      read = { settings: { ...SETTINGS_DEFAULTS }, refused: code === 'ENOENT' ? [] : [`it could not be read (${code})`] };
    }
    this.current = read.settings;
    if (read.refused.length === 0) return;
    const copy = `${this.path}.refused-${now().toISOString().replaceAll(':', '-')}`;
    let kept: string;
    try {
      copyFileSync(this.path, copy);
      kept = `The file as it was is kept beside it as ${basename(copy)}; a change in Settings writes a new one.`;
    } catch (error) {
      this.writable = false;
      kept = `No copy of it could be made (${(error as NodeJS.ErrnoException).code ?? 'unknown error'}), so it is left as it is and changes in Settings last for this session only.`;
    }
    this.problem = `Keydesk did not use all of ${this.path}: ${read.refused.join('; ')}. ${kept}`;
    console.error(`keydesk: ${this.problem}`);
  }

  get value(): Settings {
    return { ...this.current };
  }

  /** Changes the fields given, on disk first: a write that fails throws and leaves the settings as they were. */
  update(patch: Partial<Settings>): Settings {
    const next: Settings = { ...this.current };
    for (const field of FIELDS) {
      const value = patch[field];
      if (value !== undefined) next[field] = SETTING_FIELDS[field].parse(value) as never;
    }
    const changed = FIELDS.filter((f) => next[f] !== this.current[f]);
    if (changed.length === 0) return this.value;
    if (this.writable) writeFileAtomic(this.path, `${JSON.stringify(next, null, 2)}\n`);
    const before = this.current;
    this.current = next;
    log.info(`settings: ${changed.map((f) => `${f} ${shown(before[f])} → ${shown(next[f])}`).join(', ')}`);
    for (const listener of this.listeners) listener(this.value, before);
    return this.value;
  }

  /** Hears every change (the theme, the log level, the sampler's interval); returns the unsubscribe. */
  subscribe(listener: SettingsListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
