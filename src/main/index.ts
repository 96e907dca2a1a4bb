// Lifecycle only: the window, the app scheme, the guards, and the core. Everything else lives in modules
// that run without Electron (and are tested that way, or through the harness).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { app, BrowserWindow, clipboard, dialog, ipcMain, nativeTheme, screen, session, shell, type MessageBoxOptions } from 'electron';
import { EVENT_NAMES, eventChannel } from '../shared/operations.ts';
import { watchDrift } from './drift/drift-watch.ts';
import { Core } from './core.ts';
import { keepCrashDumps, watchRenderer } from './crashes.ts';
import { collectDiagnostics } from './diagnostics.ts';
import { log, openLog } from './log.ts';
import { rendererDevServerUrl } from './dev-switches.ts';
import { registerIpc, trustedSender } from './ipc/register.ts';
import { Startup } from './startup.ts';
import { registerAppScheme, serveRenderer } from './protocol.ts';
import { openSecretStore } from './secrets/keytar-store.ts';
import { APP_URL, isAppUrl } from './security.ts';
import { aboutContent, installMenu, projectLinks } from './menu.ts';
import { offerRestore } from './restore-dialog.ts';
import { JobNotices } from './job-notices.ts';
import { windowNotices } from './taskbar.ts';
import { Updates, updateConfigFile } from './updates.ts';
import { createMainWindow, hardenSession, openExternalLink, WINDOW_SIZE } from './window.ts';
import { loadWindowState, placeWindow, saveWindowState } from './window-state.ts';

const devServerUrl = rendererDevServerUrl();
registerAppScheme();

let mainWindow: BrowserWindow | null = null;
let core: Core | null = null;
let crashDumpsDir: string | null = null;
let notices: JobNotices | null = null;

/** A message box on the window when there is one; resolves with the button chosen. */
function ask(box: MessageBoxOptions): Promise<number> {
  return (mainWindow ? dialog.showMessageBox(mainWindow, box) : dialog.showMessageBox(box)).then((r) => r.response);
}

function openFolder(folder: string, what: string): void {
  void shell.openPath(folder).then((problem) => {
    if (problem) dialog.showErrorBox(`Keydesk could not open its ${what}`, `${folder}\n${problem}`);
  });
}

async function start(): Promise<void> {
  hardenSession(session.defaultSession, devServerUrl);
  serveRenderer(join(import.meta.dirname, '../renderer'));
  const userDataDir = app.getPath('userData');
  // The window opens before the core is up and hears how the start went; its other operations answer once the
  // core is up.
  const startup = new Startup();
  // electron-updater is loaded only by a build with a feed.
  const feed = updateConfigFile(process.resourcesPath, app.isPackaged);
  const updater = feed ? (await import('electron-updater')).default.autoUpdater : null;
  const updates = new Updates(updater, ask, app.getVersion());
  const versions = { electron: process.versions.electron, chrome: process.versions.chrome, node: process.versions.node };
  registerIpc(
    ipcMain,
    startup.handlers,
    trustedSender(
      () => mainWindow?.webContents.mainFrame ?? null,
      (url) => isAppUrl(url, devServerUrl),
    ),
  );
  for (const event of EVENT_NAMES) {
    startup.on(event, (payload) => {
      mainWindow?.webContents.send(eventChannel(event), payload);
    });
  }
  installMenu({
    platform: process.platform,
    isDev: !app.isPackaged,
    version: app.getVersion(),
    links: projectLinks(readFileSync(join(app.getAppPath(), 'package.json'), 'utf8')),
    updatesOff: updates.off,
    actions: {
      openLink: openExternalLink,
      openDataFolder: () => openFolder(userDataDir, 'data folder'),
      openLogsFolder: () => openFolder(log.current?.dir ?? userDataDir, 'logs folder'),
      copyDiagnostics: () => {
        const given = { version: app.getVersion(), versions, userDataDir, crashDumpsDir, updates: updates.off ?? 'checked from Help' };
        void clipboard.writeText(collectDiagnostics(given, core)).then(
          () => ask({ type: 'info', message: 'Diagnostics are on the clipboard', detail: 'They hold no apiKey.', buttons: ['OK'] }),
          (error: unknown) => console.error('keydesk: the diagnostics could not be copied:', error),
        );
      },
      checkForUpdates: () => void updates.check(),
      restoreBackup: () => void offerRestore(userDataDir, mainWindow),
      showAbout: () => {
        const { message, detail } = aboutContent(app.getVersion(), process.versions);
        void ask({ type: 'info', title: 'About Keydesk', message, detail, buttons: ['OK'] });
      },
    },
  });
  const open = (): void => {
    // Placed on a display that is there now: a saved monitor may have been unplugged since.
    const saved = loadWindowState(userDataDir);
    const displays = [screen.getPrimaryDisplay(), ...screen.getAllDisplays()].map((d) => d.workArea);
    mainWindow = createMainWindow({
      preload: join(import.meta.dirname, '../preload/index.cjs'),
      url: devServerUrl ?? APP_URL,
      devServerUrl,
      bounds: placeWindow(saved?.bounds ?? null, displays, WINDOW_SIZE),
      maximized: saved?.maximized ?? false,
      onClose: (state) => {
        try {
          saveWindowState(userDataDir, state);
        } catch (error) {
          console.warn(`keydesk: the window's size and position were not saved: ${error instanceof Error ? error.message : String(error)}`);
        }
      },
    });
    watchRenderer(mainWindow, (message, detail) => void ask({ type: 'warning', message, detail, buttons: ['OK'] }));
    mainWindow.on('focus', () => notices?.focused());
    mainWindow.on('closed', () => {
      mainWindow = null;
    });
  };
  open();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) open();
  });
  const secrets = await openSecretStore();
  if (secrets.fallbackReason) console.warn(`keydesk: apiKeys are kept for this session only. ${secrets.fallbackReason}`);
  core = await startup.run((restore) =>
    Core.start({
      userDataDir,
      restore,
      secrets: secrets.store,
      secretsFallbackReason: secrets.fallbackReason,
      version: app.getVersion(),
      openPath: (path) => shell.openPath(path),
      askSavePath: async (suggestedName) => {
        const options = { defaultPath: join(app.getPath('downloads'), suggestedName) };
        const r = mainWindow ? await dialog.showSaveDialog(mainWindow, options) : await dialog.showSaveDialog(options);
        return r.canceled || !r.filePath ? null : r.filePath;
      },
    }),
  );
  // Settings → Theme: the window's own parts (menus, scrollbars, title bar) and prefers-color-scheme follow it.
  nativeTheme.themeSource = core.settings.value.theme;
  core.settings.subscribe((now) => {
    nativeTheme.themeSource = now.theme;
  });
  const up = core;
  notices = new JobNotices(
    windowNotices(() => mainWindow),
    (id) => up.profiles.get(id)?.name ?? null,
  );
  core.on('jobs.progress', (summary) => notices?.heard(summary));
  watchDrift(core);
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  openLog(app.getPath('userData'), `start: Keydesk ${app.getVersion()} on ${process.platform}, Electron ${process.versions.electron}`);
  crashDumpsDir = keepCrashDumps();
  app.on('second-instance', () => {
    if (mainWindow) {
      if (mainWindow.isMinimized()) mainWindow.restore();
      mainWindow.focus();
    }
  });
  // A start that fails (an unreadable or newer keydesk.db, say) says why rather than leaving no window at all.
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      console.error('keydesk: the start failed:', error);
      dialog.showErrorBox('Keydesk could not start', error instanceof Error ? error.message : String(error));
      app.exit(1);
    });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  let closing = false;
  app.on('will-quit', (event) => {
    if (closing || !core) return;
    closing = true;
    event.preventDefault();
    void core.close().finally(() => {
      app.quit();
    });
  });
}
