// Main's log file: lines with their time and level, three files kept as it rotates, the last lines read back
// across files, apiKeys hidden, and main's console warnings and errors copied into it while it is open.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeLog, hideSecrets, log, openLog, RotatingLog } from '../../src/main/log.ts';
import { tempDir } from '../support/temp-dir.ts';

const at = () => new Date('2026-11-29T10:00:00.000Z');
afterEach(() => {
  closeLog();
  vi.restoreAllMocks();
});

describe('main.log', () => {
  it('writes one timestamped line per call, a stack indented under it', () => {
    const dir = join(tempDir('keydesk-log-'), 'logs');
    const file = new RotatingLog(dir, 1024 * 1024, at);
    file.write('info', 'start: Keydesk 1.0.0');
    file.write('error', 'keydesk: it failed\n  at here');
    file.close();
    expect(readFileSync(join(dir, 'main.log'), 'utf8')).toBe(
      '2026-11-29T10:00:00.000Z info  start: Keydesk 1.0.0\n2026-11-29T10:00:00.000Z error keydesk: it failed\n      at here\n',
    );
  });

  it('keeps three files of at most its size as it rotates', () => {
    const dir = tempDir('keydesk-log-rotate-');
    const file = new RotatingLog(dir, 400, at);
    for (let i = 0; i < 60; i++) file.write('info', `line ${String(i).padStart(2, '0')}`);
    file.close();
    expect(['main.log', 'main.1.log', 'main.2.log', 'main.3.log'].map((n) => existsSync(join(dir, n)))).toEqual([true, true, true, false]);
    for (const n of ['main.log', 'main.1.log', 'main.2.log']) expect(statSync(join(dir, n)).size).toBeLessThanOrEqual(400);
    // The newest lines, in order, across the current file and the one before it.
    const tail = file.tail(12).map((l) => l.slice(-7));
    expect(tail).toEqual(Array.from({ length: 12 }, (_, i) => `line ${48 + i}`));
    expect(readFileSync(join(dir, 'main.log'), 'utf8').trimEnd().split('\n').at(-1)).toMatch(/line 59$/);
  });

  it('collapses lines sharing a key into one line and a count', () => {
    const dir = tempDir('keydesk-log-repeat-');
    const file = new RotatingLog(dir, 4096, at);
    for (let i = 0; i < 1000; i++) file.write('warn', `service: deleteKey failed for KD-${i}`, 'deleteKey NETWORK');
    file.write('info', 'job j1: interrupted');
    file.write('warn', 'service: validate failed', 'validate TIMEOUT');
    file.write('warn', 'service: validate failed again', 'validate TIMEOUT');
    expect(file.tail(10).map((l) => l.slice(25))).toEqual([
      'warn  service: deleteKey failed for KD-0',
      'warn  (999 more like the line above)',
      'info  job j1: interrupted',
      'warn  service: validate failed',
      'warn  (1 more like the line above)',
    ]);
    file.close();
  });

  it('hides an apiKey in a query string or a JSON field', () => {
    expect(hideSecrets('GET /api/keys?apiKey=kd_SECRET&x=1')).toBe('GET /api/keys?apiKey=[redacted]&x=1');
    expect(hideSecrets('{"apiKey":"kd_SECRET","name":"a"}')).toBe('{"apiKey":"[redacted]","name":"a"}');
    expect(hideSecrets('api_key=kd_SECRET')).toBe('api_key=[redacted]');
    const dir = tempDir('keydesk-log-secret-');
    const file = new RotatingLog(dir, 4096, at);
    file.write('warn', 'url https://x.example/?apikey=kd_SECRET');
    file.close();
    expect(readFileSync(join(dir, 'main.log'), 'utf8')).not.toContain('kd_SECRET');
  });

  it("copies main's console warnings and errors into the open log", () => {
    const printed: unknown[][] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void printed.push(args));
    vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void printed.push(args));
    const userData = tempDir('keydesk-log-console-');
    const opened = openLog(userData, 'start: test');
    expect(opened.file).toBe(join(userData, 'logs', 'main.log'));
    console.error('keydesk: the backup failed:', new Error('ENOSPC: no space left'));
    console.warn('keydesk: the clock moved');
    log.info('job j1: finished');
    closeLog();
    console.error('keydesk: after the log closed');
    expect(printed).toHaveLength(3);
    const text = readFileSync(join(userData, 'logs', 'main.log'), 'utf8');
    expect(text).toMatch(/ info {2}start: test\n/);
    expect(text).toMatch(/ error keydesk: the backup failed: Error: ENOSPC: no space left\n {5,}at /);
    expect(text).toMatch(/ warn {2}keydesk: the clock moved\n/);
    expect(text).toMatch(/ info {2}job j1: finished\n$/);
    expect(text).not.toContain('after the log closed');
  });

  it('writes nothing and throws nothing with no log open', () => {
    expect(log.current).toBeNull();
    expect(() => log.error('keydesk: nowhere')).not.toThrow();
  });
});
