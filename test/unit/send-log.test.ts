// A bulk job's send log (src/main/jobs/send-log.ts): what a run wrote before each request is what the next start
// reads, a line a crash cut short counts as never sent, and nothing outside its directory is ever touched.
import { appendFileSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSendLog, readSendLogs, removeSendLogs, SendLog, sendLogDir } from '../../src/main/jobs/send-log.ts';
import { tempDir } from '../support/temp-dir.ts';

const RUN = '2026-11-23T21:00:00.000Z';

describe('a job send log', () => {
  it('lives beside the database file, and is absent for an in-memory database', () => {
    expect(sendLogDir('/data/keydesk/keydesk.db')).toBe(join('/data/keydesk', 'job-sends'));
    expect(sendLogDir(':memory:')).toBeNull();
  });

  it('gives back, per job, every item recorded before its request went out', () => {
    const dir = join(tempDir('keydesk-sendlog-'), 'job-sends');
    const a = SendLog.begin(dir, 'job-a', RUN);
    a.record([1, 2, 3]);
    a.record([]);
    a.record([7]);
    a.close();
    const b = SendLog.begin(dir, 'job-b', RUN);
    b.record([40]);
    b.close();
    expect(readSendLogs(dir)).toEqual(
      new Map([
        ['job-a', { run: RUN, sent: new Set([1, 2, 3, 7]) }],
        ['job-b', { run: RUN, sent: new Set([40]) }],
      ]),
    );
    expect(readSendLog(dir, 'job-b')).toEqual({ run: RUN, sent: new Set([40]) });
    expect(readSendLog(dir, 'job-c')).toBeNull();
  });

  it('starts each run empty, named after the run', () => {
    const dir = join(tempDir('keydesk-sendlog-'), 'job-sends');
    const first = SendLog.begin(dir, 'job-a', RUN);
    first.record([1, 2]);
    first.close();
    const again = SendLog.begin(dir, 'job-a', '2026-11-23T21:05:00.000Z');
    again.record([9]);
    again.close();
    expect(readSendLogs(dir).get('job-a')).toEqual({ run: '2026-11-23T21:05:00.000Z', sent: new Set([9]) });
  });

  it('reads a last line a crash cut short as never sent', () => {
    const dir = join(tempDir('keydesk-sendlog-'), 'job-sends');
    const log = SendLog.begin(dir, 'job-a', RUN);
    log.record([11, 12]);
    log.close();
    appendFileSync(join(dir, 'job-a.sent'), '13');
    expect(readSendLogs(dir).get('job-a')).toEqual({ run: RUN, sent: new Set([11, 12]) });
    // A log that does not say its run (not one Keydesk wrote) names none: it is applied to no run.
    writeFileSync(join(dir, 'job-b.sent'), '1\n2\n');
    expect(readSendLog(dir, 'job-b')).toEqual({ run: null, sent: new Set([1, 2]) });
  });

  it('refuses to record once closed, so no request goes out unrecorded', () => {
    const log = SendLog.begin(join(tempDir('keydesk-sendlog-'), 'job-sends'), 'job-a', RUN);
    log.close();
    expect(() => log.record([1])).toThrow('The send log is closed.');
  });

  it('lists job logs, skipping other files, and removes only the jobs named', () => {
    const dir = join(tempDir('keydesk-sendlog-'), 'job-sends');
    expect(readSendLogs(dir)).toEqual(new Map());
    for (const id of ['job-a', 'job-b']) SendLog.begin(dir, id, RUN).close();
    writeFileSync(join(dir, 'notes.txt'), '1\n');
    writeFileSync(join(dir, 'bad id!.sent'), '1\n');
    expect([...readSendLogs(dir).keys()].sort()).toEqual(['job-a', 'job-b']);
    removeSendLogs(dir, ['job-a', '../notes']);
    expect(readdirSync(dir).sort()).toEqual(['bad id!.sent', 'job-b.sent', 'notes.txt']);
    expect(() => SendLog.begin(dir, '../escape', RUN)).toThrow('A job id that cannot name a file');
    expect(existsSync(join(dir, '..', 'escape.sent'))).toBe(false);
  });
});
