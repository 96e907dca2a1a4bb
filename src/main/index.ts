// Lifecycle only: the window, the app scheme, the guards. Everything else lives in modules that run without Electron.
import { join } from 'node:path';
import { app, BrowserWindow, session } from 'electron';
import { registerAppScheme, serveRenderer } from './protocol.ts';
import { APP_URL } from './security.ts';
import { createMainWindow, hardenSession } from './window.ts';

const devServerUrl = process.env.ELECTRON_RENDERER_URL;
registerAppScheme();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    const [win] = BrowserWindow.getAllWindows();
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });

  void app.whenReady().then(() => {
    hardenSession(session.defaultSession, devServerUrl);
    serveRenderer(join(import.meta.dirname, '../renderer'));
    const open = () =>
      createMainWindow({ preload: join(import.meta.dirname, '../preload/index.cjs'), url: devServerUrl ?? APP_URL, devServerUrl });
    open();
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) open();
    });
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}
