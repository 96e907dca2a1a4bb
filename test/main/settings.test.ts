// Settings through the core's handlers: read and changed by IPC, the default bulk limit used where a profile has
// none, the log level applied to main.log, the sandbox moved to a port, and the data folder opened.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeLog, LOG_FILE, log, openLog } from '../../src/main/log.ts';
import { SETTINGS_DEFAULTS } from '../../src/shared/contract.ts';
import { startTestCore, type TestCore } from '../support/core.ts';
import { freePort } from '../support/free-port.ts';
import { tempDir } from '../support/temp-dir.ts';

const opened: string[] = [];
let t: TestCore;
beforeAll(async () => {
  t = await startTestCore({ openPath: (path) => (opened.push(path), Promise.resolve('')) });
});
afterAll(async () => {
  await t.close();
});

describe('settings', () => {
  it('reads the defaults, the sandbox and the data folder', async () => {
    const state = await t.must('settings.get');
    expect(state.settings).toEqual(SETTINGS_DEFAULTS);
    expect(state.problem).toBeNull();
    expect(state.dataFolder).toBe(t.userData);
    expect(state.sandbox.running).toBe(true);
  });

  it('keeps a change in settings.json', async () => {
    const state = await t.must('settings.set', { theme: 'dark', sampleEverySeconds: 30 });
    expect(state.settings).toMatchObject({ theme: 'dark', sampleEverySeconds: 30 });
    expect(JSON.parse(readFileSync(join(t.userData, 'settings.json'), 'utf8'))).toMatchObject({ theme: 'dark', sampleEverySeconds: 30 });
    expect(t.core.settings.value.sampleEverySeconds).toBe(30);
  });

  it('refuses a value out of range with its words', async () => {
    const r = await t.call('settings.set', { bulkLimit: 0 });
    expect(r.ok ? null : r.message).toMatch(/At least 1/);
    const port = await t.call('settings.setSandboxPort', { port: 80 });
    expect(port.ok ? null : port.message).toMatch(/Enter a port from 1024 to 65535/);
  });

  it('uses the default bulk limit where a profile has none', async () => {
    await t.must('settings.set', { bulkLimit: 12 });
    expect(await t.must('jobs.getCeiling', { profileId: 'sandbox' })).toEqual({ ceiling: 12, isDefault: true });
    // Saving the number shown as the default keeps the profile following the default.
    expect(await t.must('jobs.setCeiling', { profileId: 'sandbox', ceiling: 12 })).toEqual({ ceiling: 12, isDefault: true });
    await t.must('jobs.setCeiling', { profileId: 'sandbox', ceiling: 5 });
    await t.must('settings.set', { bulkLimit: 20 });
    expect(await t.must('jobs.getCeiling', { profileId: 'sandbox' })).toEqual({ ceiling: 5, isDefault: false });
    await t.must('jobs.setCeiling', { profileId: 'sandbox', ceiling: null });
    expect(await t.must('jobs.getCeiling', { profileId: 'sandbox' })).toEqual({ ceiling: 20, isDefault: true });
  });

  it('leaves lines below the log level out of main.log', async () => {
    const dir = tempDir('keydesk-settings-log-');
    openLog(dir, 'start: settings test');
    try {
      await t.must('settings.set', { logLevel: 'warn' });
      log.info('an info line left out');
      log.warn('a warning kept');
      await t.must('settings.set', { logLevel: 'info' });
      log.info('an info line kept');
      const text = readFileSync(join(dir, 'logs', LOG_FILE), 'utf8');
      expect(text).not.toContain('an info line left out');
      expect(text).toContain('a warning kept');
      expect(text).toContain('an info line kept');
    } finally {
      closeLog();
    }
  });

  it('moves the local sandbox to a port, and to any free port', async () => {
    const wanted = await freePort();
    const moved = await t.must('settings.setSandboxPort', { port: wanted });
    expect(moved.sandbox).toMatchObject({ port: wanted, running: true, url: `http://127.0.0.1:${wanted}` });
    const any = await t.must('settings.setSandboxPort', { port: null });
    const port = Number(new URL(any.sandbox.url ?? '').port);
    expect(any.sandbox).toMatchObject({ port, running: true });
    expect(port).toBeGreaterThan(0);
    // The sandbox profile follows it: its next call goes to the new address.
    expect((await t.must('profiles.list')).profiles.find((p) => p.id === 'sandbox')?.baseUrl).toBe(any.sandbox.url);
  });

  it('opens the data folder, or says where it is when it cannot', async () => {
    await t.must('settings.openDataFolder');
    expect(opened).toEqual([t.userData]);
    const bare = await startTestCore();
    try {
      const r = await bare.call('settings.openDataFolder');
      expect(r.ok ? null : r.message).toBe(`This Keydesk cannot open folders here. Its data folder is ${bare.userData}.`);
    } finally {
      await bare.close();
    }
  });
});
