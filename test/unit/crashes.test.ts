// Crashes, with electron mocked: dumps kept locally with no upload, and a page that crashed or hung is logged,
// reloaded and the user told, but not reloaded in a loop when it goes again before it has loaded.
import { EventEmitter } from 'node:events';
import type { BrowserWindow } from 'electron';
import { afterEach, describe, expect, it, vi } from 'vitest';

const electron = vi.hoisted(() => ({ started: [] as unknown[], paths: [] as string[] }));
vi.mock('electron', () => ({
  crashReporter: { start: (options: unknown) => void electron.started.push(options) },
  app: { getPath: (name: string) => (electron.paths.push(name), `/data/${name}`) },
}));

const { keepCrashDumps, watchRenderer } = await import('../../src/main/crashes.ts');

/** A window and its webContents as Electron's events reach them. */
function fakeWindow(now: () => number = Date.now) {
  const contents = Object.assign(new EventEmitter(), { reloads: 0, killed: 0 }) as EventEmitter & {
    reloads: number;
    killed: number;
    reload: () => void;
    forcefullyCrashRenderer: () => void;
  };
  contents.reload = () => {
    contents.reloads++;
  };
  // As Electron does: the killed page's render-process-gone follows.
  contents.forcefullyCrashRenderer = () => {
    contents.killed++;
    contents.emit('render-process-gone', {}, { reason: 'killed', exitCode: 9 });
  };
  const win = Object.assign(new EventEmitter(), { webContents: contents, destroyed: false, isDestroyed: () => win.destroyed });
  const notices: string[] = [];
  watchRenderer(win as unknown as BrowserWindow, (message) => void notices.push(message), now);
  return { win, contents, notices };
}

const errors: string[] = [];
afterEach(() => {
  errors.length = 0;
  vi.restoreAllMocks();
});
const spyErrors = () => vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void errors.push(a.join(' ')));

describe('crashes', () => {
  it('starts the crash reporter with no upload and names its dump folder', () => {
    expect(keepCrashDumps()).toBe('/data/crashDumps');
    expect(electron.started).toEqual([{ uploadToServer: false, compress: true }]);
    expect(electron.paths).toEqual(['crashDumps']);
  });

  it('reloads a crashed page, logs why and tells the user', () => {
    spyErrors();
    const { contents, notices } = fakeWindow();
    contents.emit('render-process-gone', {}, { reason: 'oom', exitCode: 133 });
    expect(contents.reloads).toBe(1);
    expect(errors).toEqual(["keydesk: the window's page crashed (oom, exit code 133)."]);
    expect(notices).toEqual(["Keydesk's window crashed and was reloaded"]);
  });

  it('ends and reloads a hung page once, not as a second crash', () => {
    spyErrors();
    const { win, contents, notices } = fakeWindow();
    win.emit('unresponsive');
    expect([contents.killed, contents.reloads]).toEqual([1, 1]);
    expect(notices).toEqual(["Keydesk's window stopped responding and was reloaded"]);
    expect(errors).toEqual(["keydesk: the window's page stopped responding; it is ended and reloaded."]);
  });

  it('does not reload a page that crashes again before it loads', () => {
    spyErrors();
    const { contents, notices } = fakeWindow();
    contents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 1 });
    contents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 1 });
    expect(contents.reloads).toBe(1);
    expect(notices.at(-1)).toBe("Keydesk's window crashed again");
    // Once loaded, a later crash is reloaded again.
    contents.emit('did-finish-load');
    contents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 1 });
    expect(contents.reloads).toBe(2);
  });

  it('stops reloading a page that crashes soon after each load', () => {
    spyErrors();
    let at = 0;
    const { contents, notices } = fakeWindow(() => at);
    for (let i = 0; i < 4; i++) {
      at += 60_000;
      contents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 1 });
      contents.emit('did-finish-load');
    }
    expect(contents.reloads).toBe(3);
    expect(notices.at(-1)).toBe("Keydesk's window crashed again");
    // Ten minutes on, a crash is reloaded again.
    at += 10 * 60_000;
    contents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 1 });
    expect(contents.reloads).toBe(4);
  });

  it('ignores a clean exit and a window already closed', () => {
    const { win, contents, notices } = fakeWindow();
    contents.emit('render-process-gone', {}, { reason: 'clean-exit', exitCode: 0 });
    win.destroyed = true;
    spyErrors();
    contents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 1 });
    expect([contents.reloads, notices.length]).toEqual([0, 0]);
  });
});
