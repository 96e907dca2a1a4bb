// Crashes: dumps kept on this computer (never uploaded), and a window whose page crashed or hung is reloaded,
// logged, and the user told. Jobs and the sandbox live in main, so a reload loses nothing in progress.
import { app, crashReporter, type BrowserWindow } from 'electron';

/** Starts Electron's crash reporter with no upload; returns the folder its dumps go to, for diagnostics. */
export function keepCrashDumps(): string {
  crashReporter.start({ uploadToServer: false, compress: true });
  return app.getPath('crashDumps');
}

export type Notify = (message: string, detail: string) => void;

const AFTER = 'Jobs and the local sandbox run in the background and were not affected. Help → Open logs folder has the details.';

/** Reloads at most this many times in RELOAD_WINDOW_MS: a page that dies soon after each load would loop. */
const RELOADS = 3;
const RELOAD_WINDOW_MS = 10 * 60_000;

/**
 * Reloads the page after a crash (`render-process-gone`) or a hang (`unresponsive`). A page that goes again
 * before it has loaded, or too often, is left as it is: reloading it would only loop.
 */
export function watchRenderer(win: BrowserWindow, notify: Notify, now: () => number = Date.now): void {
  const contents = win.webContents;
  let loaded = true;
  let killedByUs = false;
  const reloads: number[] = [];
  contents.on('did-finish-load', () => {
    loaded = true;
  });
  const recover = (what: string): void => {
    if (win.isDestroyed()) return;
    const at = now();
    while (reloads.length > 0 && (reloads[0] ?? 0) <= at - RELOAD_WINDOW_MS) reloads.shift();
    if (!loaded || reloads.length >= RELOADS) {
      console.error(`keydesk: the window's page ${what} again ${loaded ? 'soon after reloads' : 'before it loaded'}; it is not reloaded.`);
      notify(`Keydesk's window ${what} again`, `Quit Keydesk and start it again. ${AFTER}`);
      return;
    }
    loaded = false;
    reloads.push(at);
    contents.reload();
    notify(`Keydesk's window ${what} and was reloaded`, AFTER);
  };
  contents.on('render-process-gone', (_event, details) => {
    if (details.reason === 'clean-exit') return;
    if (killedByUs) {
      killedByUs = false;
      return;
    }
    console.error(`keydesk: the window's page crashed (${details.reason}, exit code ${details.exitCode}).`);
    recover('crashed');
  });
  win.on('unresponsive', () => {
    console.error("keydesk: the window's page stopped responding; it is ended and reloaded.");
    // Ended first: a hung page does not reload by itself. Its render-process-gone is ours, not a crash.
    killedByUs = true;
    contents.forcefullyCrashRenderer();
    recover('stopped responding');
  });
}
