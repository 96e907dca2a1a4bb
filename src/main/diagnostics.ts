// Help → Copy diagnostics: what a bug report needs in one text (versions, OS, sandbox, counts, crash dumps, the
// log's end). Free of Electron: main gathers the facts, this puts them in words.
import { readdirSync, statSync } from 'node:fs';
import { arch, release } from 'node:os';
import { join } from 'node:path';
import type { SandboxState } from '../shared/domain.ts';
import type { Core } from './core.ts';
import { log } from './log.ts';

export const LOG_LINES = 200;

export interface CrashDump {
  file: string;
  bytes: number;
  at: string;
}

export interface DiagnosticsFacts {
  version: string;
  versions: Partial<Record<'electron' | 'chrome' | 'node', string>>;
  os: { platform: string; release: string; arch: string };
  userDataDir: string;
  logFile: string | null;
  logTail: string[];
  crashDumpsDir: string | null;
  crashDumps: CrashDump[];
  /** What Help says of updates (updates.ts). */
  updates: string;
  /** Null while the core is not up. */
  core: { sandbox: SandboxState; counts: Record<string, number> } | null;
}

/** The crash reporter's minidumps under `dir` (Crashpad keeps them in subfolders), newest first. */
export function listCrashDumps(dir: string): CrashDump[] {
  const found: CrashDump[] = [];
  const walk = (folder: string, depth: number): void => {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(folder, name);
      const info = statSync(path, { throwIfNoEntry: false });
      if (info?.isDirectory() && depth < 3) walk(path, depth + 1);
      else if (info?.isFile() && name.endsWith('.dmp')) found.push({ file: path, bytes: info.size, at: info.mtime.toISOString() });
    }
  };
  walk(dir, 0);
  return found.sort((a, b) => b.at.localeCompare(a.at));
}

/** Counts that say how large this user's data is; no names, no keys, no addresses. */
export function coreCounts(core: Pick<Core, 'profiles' | 'db'>): Record<string, number> {
  const profiles = core.profiles.list();
  let keys = 0;
  let jobs = 0;
  for (const p of profiles) {
    keys += core.db.ledgerSize(p.id);
    jobs += core.db.jobs(p.id, 0).length;
  }
  return { profiles: profiles.length, 'ledger keys': keys, 'jobs running or interrupted': jobs };
}

export function diagnosticsText(f: DiagnosticsFacts): string {
  const versions = Object.entries(f.versions)
    .map(([name, v]) => `${name} ${v}`)
    .join(', ');
  const lines = [
    `Keydesk ${f.version} (${versions})`,
    `OS: ${f.os.platform} ${f.os.release} ${f.os.arch}`,
    `Data folder: ${f.userDataDir}`,
    `Log: ${f.logFile ?? 'not written'}`,
    `Updates: ${f.updates}`,
  ];
  if (f.core) {
    const { sandbox, counts } = f.core;
    lines.push(
      `Sandbox: ${sandbox.running ? `running on ${sandbox.url ?? '?'}` : `not running: ${sandbox.error ?? 'no reason was given'}`}`,
    );
    lines.push(
      `Counts: ${Object.entries(counts)
        .map(([name, n]) => `${name} ${n}`)
        .join(', ')}`,
    );
  } else lines.push('Sandbox and counts: the core is not up.');
  lines.push(`Crash dumps: ${f.crashDumpsDir ?? 'no crash reporter'}`);
  lines.push(...(f.crashDumps.length === 0 ? ['  none'] : f.crashDumps.map((d) => `  ${d.file} (${d.bytes} bytes, ${d.at})`)));
  lines.push('', `Last ${f.logTail.length} log lines:`, ...f.logTail);
  return `${lines.join('\n')}\n`;
}

/** The facts the running process knows itself: OS, the log's end, the dumps in `crashDumpsDir`. */
export function collectDiagnostics(
  given: Pick<DiagnosticsFacts, 'version' | 'versions' | 'userDataDir' | 'crashDumpsDir' | 'updates'>,
  core: Pick<Core, 'profiles' | 'db' | 'sandboxState'> | null,
): string {
  return diagnosticsText({
    ...given,
    os: { platform: process.platform, release: release(), arch: arch() },
    logFile: log.current?.file ?? null,
    logTail: log.current?.tail(LOG_LINES) ?? [],
    crashDumps: given.crashDumpsDir === null ? [] : listCrashDumps(given.crashDumpsDir),
    core: core ? { sandbox: core.sandboxState(), counts: coreCounts(core) } : null,
  });
}
