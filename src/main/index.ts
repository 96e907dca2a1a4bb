// Lifecycle only: the window, the app scheme, the guards, and the core. Everything else lives in modules
// that run without Electron (and are tested that way, or through the harness).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, screen, session, shell } from 'electron';
import { EVENT_NAMES, eventChannel } from '../shared/operations.ts';
import { Core } from './core.ts';
import { rendererDevServerUrl } from './dev-switches.ts';
import { registerIpc, trustedSender } from './ipc/register.ts';
import { Startup } from './startup.ts';
import { registerAppScheme, serveRenderer } from './protocol.ts';
import { openSecretStore } from './secrets/keytar-store.ts';
import { APP_URL, isAppUrl } from './security.ts';
import { aboutContent, installMenu, projectLinks } from './menu.ts';
import { offerRestore } from './restore-dialog.ts';
import { createMainWindow, hardenSession, openExternalLink, WINDOW_SIZE } from './window.ts';
import { loadWindowState, placeWindow, saveWindowState } from './window-state.ts';

const devServerUrl = rendererDevServerUrl();
registerAppScheme();

let mainWindow: BrowserWindow | null = null;
let core: Core | null = null;

async function start(): Promise<void> {
  hardenSession(session.defaultSession, devServerUrl);
  serveRenderer(join(import.meta.dirname, '../renderer'));
  const userDataDir = app.getPath('userData');
  // The window opens before the core is up and hears how the start went; its other operations answer once the
  // core is up.
  const startup = new Startup();
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
    actions: {
      openLink: openExternalLink,
      openDataFolder: () => {
        void shell.openPath(userDataDir).then((problem) => {
          if (problem) dialog.showErrorBox('Keydesk could not open its data folder', `${userDataDir}\n${problem}`);
        });
      },
      restoreBackup: () => void offerRestore(userDataDir, mainWindow),
      showAbout: () => {
        const { message, detail } = aboutContent(app.getVersion(), process.versions);
        const options = { type: 'info' as const, title: 'About Keydesk', message, detail, buttons: ['OK'] };
        void (mainWindow ? dialog.showMessageBox(mainWindow, options) : dialog.showMessageBox(options));
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
      askSavePath: async (suggestedName) => {
        const options = { defaultPath: join(app.getPath('downloads'), suggestedName) };
        const r = mainWindow ? await dialog.showSaveDialog(mainWindow, options) : await dialog.showSaveDialog(options);
        return r.canceled || !r.filePath ? null : r.filePath;
      },
    }),
  );
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
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
