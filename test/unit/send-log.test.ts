// A bulk job's send log (src/main/jobs/send-log.ts): what a run wrote before each request is what the next start
// reads, a line a crash cut short counts as never sent, and nothing outside its directory is ever touched.
import { appendFileSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSendLogs, removeSendLogs, SendLog, sendLogDir } from '../../src/main/jobs/send-log.ts';
import { tempDir } from '../support/temp-dir.ts';

describe('a job send log', () => {
  it('lives beside a database file, and there is none for a database with no file', () => {
    expect(sendLogDir('/data/keydesk/keydesk.db')).toBe(join('/data/keydesk', 'job-sends'));
    expect(sendLogDir(':memory:')).toBeNull();
  });

  it('gives back, per job, every item recorded before its request went out', () => {
    const dir = join(tempDir('keydesk-sendlog-'), 'job-sends');
    const a = SendLog.begin(dir, 'job-a');
    a.record([1, 2, 3]);
    a.record([]);
    a.record([7]);
    a.close();
    const b = SendLog.begin(dir, 'job-b');
    b.record([40]);
    b.close();
    expect(readSendLogs(dir)).toEqual(new Map([['job-a', new Set([1, 2, 3, 7])], ['job-b', new Set([40])]]));
  });

  it('starts a run empty: what an earlier run of the job wrote was read by the start after it', () => {
    const dir = join(tempDir('keydesk-sendlog-'), 'job-sends');
    const first = SendLog.begin(dir, 'job-a');
    first.record([1, 2]);
    first.close();
    const again = SendLog.begin(dir, 'job-a');
    again.record([9]);
    again.close();
    expect(readSendLogs(dir).get('job-a')).toEqual(new Set([9]));
  });

  it('reads a last line a crash cut short as never sent (its request came after the write)', () => {
    const dir = join(tempDir('keydesk-sendlog-'), 'job-sends');
    const log = SendLog.begin(dir, 'job-a');
    log.record([11, 12]);
    log.close();
    appendFileSync(join(dir, 'job-a.sent'), '13');
    expect(readSendLogs(dir).get('job-a')).toEqual(new Set([11, 12]));
  });

  it('refuses to record once closed, so no request goes out unrecorded', () => {
    const log = SendLog.begin(join(tempDir('keydesk-sendlog-'), 'job-sends'), 'job-a');
    log.close();
    expect(() => log.record([1])).toThrow('The send log is closed.');
  });

  it('reads no directory as no logs, skips files that are not a job\'s log, and removes only the jobs named', () => {
    const dir = join(tempDir('keydesk-sendlog-'), 'job-sends');
    expect(readSendLogs(dir)).toEqual(new Map());
    for (const id of ['job-a', 'job-b']) SendLog.begin(dir, id).close();
    writeFileSync(join(dir, 'notes.txt'), '1\n');
    writeFileSync(join(dir, 'bad id!.sent'), '1\n');
    expect([...readSendLogs(dir).keys()].sort()).toEqual(['job-a', 'job-b']);
    removeSendLogs(dir, ['job-a', '../notes']);
    expect(readdirSync(dir).sort()).toEqual(['bad id!.sent', 'job-b.sent', 'notes.txt']);
    expect(() => SendLog.begin(dir, '../escape')).toThrow('A job id that cannot name a file');
    expect(existsSync(join(dir, '..', 'escape.sent'))).toBe(false);
  });
});
