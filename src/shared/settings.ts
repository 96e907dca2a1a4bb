// Keydesk's own settings as the contract checks them: each field's schema and default, and the state main answers.
import { z } from 'zod';
import type { SandboxState } from './domain.ts';

/** The most requests in flight a bulk job may reach. */
export const JOB_CEILING_MAX = 256;

// A field of settings.json that fails its schema falls back alone.
export const THEMES = ['system', 'light', 'dark'] as const;
export const LOG_LEVELS = ['info', 'warn', 'error'] as const;
/** Ports below this need rights a desktop app does not have on most systems. */
export const SANDBOX_PORT_MIN = 1024;
export const SETTING_FIELDS = {
  theme: z.enum(THEMES),
  /** How often the execution count is read while Keydesk runs. */
  sampleEverySeconds: z.int().min(10, { error: 'At least 10 seconds.' }).max(86_400, { error: 'At most 86,400 seconds (a day).' }),
  /** Requests in flight a bulk job may reach on a profile that has no limit of its own (Profiles sets one). */
  bulkLimit: z
    .int()
    .min(1, { error: 'At least 1.' })
    .max(JOB_CEILING_MAX, { error: `At most ${JOB_CEILING_MAX}.` }),
  logLevel: z.enum(LOG_LEVELS),
};
export type Settings = { [F in keyof typeof SETTING_FIELDS]: z.output<(typeof SETTING_FIELDS)[F]> };
/** 64 requests in flight: see DEFAULT_CEILING in src/main/jobs/engine.ts. */
export const SETTINGS_DEFAULTS: Settings = { theme: 'system', sampleEverySeconds: 60, bulkLimit: 64, logLevel: 'info' };
export interface SettingsState {
  settings: Settings;
  /** Why settings.json was not used as it stands (which fields fell back), and where its copy is; null when it was. */
  problem: string | null;
  /** The local sandbox: the port it is kept on (null before its first start) and where it serves now. */
  sandbox: SandboxState & { port: number | null };
  /** Keydesk's data folder, for Open data folder. */
  dataFolder: string;
}
