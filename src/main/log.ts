// Main's rotating log, <user data>/logs/main.log: events, and every warning and error main's console prints.
// Free of Electron: main and the harness open it the same way. Writes are synchronous, so a crash loses no line.
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';

export const LOG_FILE = 'main.log';
/** main.log, main.1.log, main.2.log: about 6 MB in all. */
const KEPT = 3;
const MAX_BYTES = 2 * 1024 * 1024;
export type LogLevel = 'info' | 'warn' | 'error';

/** An apiKey a caller let slip (a query string, a JSON field) is hidden before the line is written. */
export function hideSecrets(text: string): string {
  return text
    .replace(/((?:api[-_]?key|apikey)=)[^&\s"'#[]+/gi, '$1[redacted]')
    .replace(/(["']?api[-_]?key["']?\s*:\s*["'])[^"']+/gi, '$1[redacted]');
}

export class RotatingLog {
  readonly dir: string;
  private readonly maxBytes: number;
  private readonly now: () => Date;
  private fd: number | null = null;
  private size = 0;
  /** The last line's repeat key, and how many lines with that key were held back since. */
  private last: { key: string; more: number } | null = null;

  constructor(dir: string, maxBytes = MAX_BYTES, now: () => Date = () => new Date()) {
    this.dir = dir;
    this.maxBytes = maxBytes;
    this.now = now;
  }

  get file(): string {
    return join(this.dir, LOG_FILE);
  }

  /**
   * One line per call (a stack's lines are kept, indented); a log that cannot be written never stops Keydesk.
   * Lines with the `key` of the line before are counted, not written: a job's thousand failures make two lines.
   */
  write(level: LogLevel, text: string, key?: string): void {
    if (key !== undefined && this.last?.key === key) {
      this.last.more++;
      return;
    }
    this.sayRepeats();
    this.last = key === undefined ? null : { key, more: 0 };
    this.append(level, text);
  }

  private sayRepeats(): void {
    const more = this.last?.more ?? 0;
    this.last = null;
    if (more > 0) this.append('warn', `(${more} more like the line above)`);
  }

  private append(level: LogLevel, text: string): void {
    const line = `${this.now().toISOString()} ${level.padEnd(5)} ${hideSecrets(text).replace(/\n/g, '\n    ')}\n`;
    try {
      if (this.fd !== null && this.size + Buffer.byteLength(line) > this.maxBytes) this.rotate();
      if (this.fd === null) {
        mkdirSync(this.dir, { recursive: true });
        this.fd = openSync(this.file, 'a', 0o600);
        this.size = fstatSync(this.fd).size;
      }
      this.size += writeSync(this.fd, line);
    } catch {
      // A full disk or a read-only folder: the line still went to the console.
    }
  }

  /** The last `count` lines, from the older file too when the current one is short. */
  tail(count: number): string[] {
    this.sayRepeats();
    const lines: string[] = [];
    for (let i = 0; i < KEPT && lines.length < count; i++) {
      const file = i === 0 ? this.file : this.rotated(i);
      if (!existsSync(file)) break;
      const own = readFileSync(file, 'utf8').split('\n');
      if (own.at(-1) === '') own.pop();
      lines.unshift(...own.slice(-(count - lines.length)));
    }
    return lines;
  }

  close(): void {
    this.sayRepeats();
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private rotated(n: number): string {
    return join(this.dir, LOG_FILE.replace('.log', `.${n}.log`));
  }

  private rotate(): void {
    this.close();
    for (let i = KEPT - 1; i > 0; i--) {
      const from = i === 1 ? this.file : this.rotated(i - 1);
      if (existsSync(from)) renameSync(from, this.rotated(i));
    }
  }
}

let current: RotatingLog | null = null;
let restoreConsole: (() => void) | null = null;
const RANK: Record<LogLevel, number> = { info: 0, warn: 1, error: 2 };
/** The least level written (Settings → Log level); lines below it are left out. */
let least: LogLevel = 'info';

export function setLogLevel(level: LogLevel): void {
  least = level;
}

const write = (level: LogLevel, text: () => string, key?: string): void => {
  if (RANK[level] >= RANK[least]) current?.write(level, text(), key);
};

/** Writes to the open log; nothing when none is open (unit tests, the sandbox CLI). */
export const log = {
  info: (...args: unknown[]): void => write('info', () => format(...args)),
  warn: (...args: unknown[]): void => write('warn', () => format(...args)),
  error: (...args: unknown[]): void => write('error', () => format(...args)),
  /** A warning that comes in runs (a service's failures): a run of the same `key` is one line and a count. */
  repeated: (key: string, text: string): void => write('warn', () => text, key),
  /** The open log, for Help's diagnostics; null when none is open. */
  get current(): RotatingLog | null {
    return current;
  },
};

/**
 * Opens `<userDataDir>/logs/main.log` and copies every console warning and error into it, so the failures main
 * already prints (`keydesk: ...`) are found after a start from the Dock or Start menu too.
 */
export function openLog(userDataDir: string, startLine: string): RotatingLog {
  closeLog();
  current = new RotatingLog(join(userDataDir, 'logs'));
  const { warn, error } = console;
  console.warn = (...args: unknown[]) => {
    warn.apply(console, args);
    log.warn(...args);
  };
  console.error = (...args: unknown[]) => {
    error.apply(console, args);
    log.error(...args);
  };
  restoreConsole = () => {
    Object.assign(console, { warn, error });
  };
  log.info(startLine);
  return current;
}

export function closeLog(): void {
  restoreConsole?.();
  restoreConsole = null;
  current?.close();
  current = null;
}
