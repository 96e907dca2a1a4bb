// The Electron side of job notices, with electron mocked: the notification shown, its click focusing the window and
// opening the job, and the progress bar set, marked and cleared.
import { EventEmitter } from 'node:events';
import type { BrowserWindow } from 'electron';
import { describe, expect, it, vi } from 'vitest';

const electron = vi.hoisted(() => ({ supported: true, shown: [] as { title: string; body: string; emit: (e: string) => void }[] }));
vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  class Notification extends Emitter {
    static isSupported = () => electron.supported;
    readonly title: string;
    readonly body: string;
    constructor(options: { title: string; body: string }) {
      super();
      this.title = options.title;
      this.body = options.body;
    }
    show() {
      electron.shown.push(this);
    }
  }
  return { Notification };
});

const { windowNotices } = await import('../../src/main/taskbar.ts');

function fakeWindow() {
  const calls: string[] = [];
  const sent: [string, unknown][] = [];
  const bars: unknown[][] = [];
  const win = Object.assign(new EventEmitter(), {
    minimized: true,
    focusedNow: false,
    isFocused: () => win.focusedNow,
    isDestroyed: () => false,
    isMinimized: () => win.minimized,
    restore: () => void calls.push('restore'),
    show: () => void calls.push('show'),
    focus: () => void calls.push('focus'),
    setProgressBar: (...args: unknown[]) => void bars.push(args),
    webContents: { send: (channel: string, payload: unknown) => void sent.push([channel, payload]) },
  });
  return { win, calls, sent, bars };
}

describe('window notices', () => {
  it('shows a notification whose click brings the window up on the job', () => {
    const { win, calls, sent } = fakeWindow();
    const sink = windowNotices(() => win as unknown as BrowserWindow);
    sink.notify({ jobId: 'j1', title: 'Delete finished', body: '3 of 3 done.' });
    const shown = electron.shown.at(-1);
    expect([shown?.title, shown?.body]).toEqual(['Delete finished', '3 of 3 done.']);
    shown?.emit('click');
    expect(calls).toEqual(['restore', 'show', 'focus']);
    expect(sent).toEqual([['keydesk:event:app.openJob', { jobId: 'j1' }]]);
  });

  it('shows nothing where notifications are not supported', () => {
    electron.supported = false;
    const before = electron.shown.length;
    windowNotices(() => fakeWindow().win as unknown as BrowserWindow).notify({ jobId: 'j', title: 't', body: 'b' });
    expect(electron.shown).toHaveLength(before);
    electron.supported = true;
  });

  it('sets the bar with its mode, and clears it with -1', () => {
    const { win, bars } = fakeWindow();
    const sink = windowNotices(() => win as unknown as BrowserWindow);
    sink.progress({ mode: 'normal', fraction: 0.25 });
    sink.progress({ mode: 'error', fraction: 1 });
    sink.progress({ mode: 'none', fraction: 0 });
    expect(bars).toEqual([[0.25, { mode: 'normal' }], [1, { mode: 'error' }], [-1]]);
  });

  it('reads the focus from the window; no window is not focused', () => {
    const { win } = fakeWindow();
    win.focusedNow = true;
    expect(windowNotices(() => win as unknown as BrowserWindow).focused()).toBe(true);
    expect(windowNotices(() => null).focused()).toBe(false);
  });
});
