// The application menu, from Electron's standard roles so the OS supplies labels and shortcuts (macOS copy and
// paste need the Edit roles). The template is a pure function; installMenu is the one Electron call.
import { Menu, type MenuItemConstructorOptions } from 'electron';

/** Where Help points: package.json's `homepage` when it is https, else no link rather than one leading nowhere. */
export function projectLinks(packageJson: string): { project: string; docs: string } | null {
  let homepage: unknown;
  try {
    homepage = (JSON.parse(packageJson) as { homepage?: unknown }).homepage;
  } catch {
    return null;
  }
  if (typeof homepage !== 'string') return null;
  try {
    const url = new URL(homepage);
    if (url.protocol !== 'https:') return null;
    const docs = new URL(url);
    if (docs.hash === '' && docs.hostname === 'github.com') docs.hash = 'readme';
    return { project: url.toString(), docs: docs.toString() };
  } catch {
    return null;
  }
}

export interface MenuActions {
  /** Opens an https link in the user's browser (anything else is refused by the helper behind it). */
  openLink: (url: string) => void;
  /** Opens the user-data folder (profiles, local store, sandbox database) in the file manager. */
  openDataFolder: () => void;
  /** Offers keydesk.db's backups; the one chosen is put in place as Keydesk starts again (restore-dialog.ts). */
  restoreBackup: () => void;
  /** The folder of main.log and its older files (log.ts). */
  openLogsFolder: () => void;
  /** Puts diagnostics.ts's text on the clipboard, for a bug report. */
  copyDiagnostics: () => void;
  checkForUpdates: () => void;
  showAbout: () => void;
}

export interface MenuOptions {
  platform: NodeJS.Platform;
  /** Development only: reload and the DevTools are never offered to users. */
  isDev: boolean;
  version: string;
  /** From `projectLinks`; null leaves the links out of Help. */
  links: { project: string; docs: string } | null;
  /** Why this build cannot check for updates (updates.ts); null when it can. */
  updatesOff: string | null;
  actions: MenuActions;
}

export const APP_NAME = 'Keydesk';

export function menuTemplate({ platform, isDev, version, links, updatesOff, actions }: MenuOptions): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const separator: MenuItemConstructorOptions = { type: 'separator' };
  const about: MenuItemConstructorOptions = { label: `About ${APP_NAME}`, click: () => actions.showAbout() };
  const template: MenuItemConstructorOptions[] = [];
  if (mac) {
    template.push({
      label: APP_NAME,
      submenu: [
        about,
        separator,
        { role: 'services' },
        separator,
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        separator,
        { role: 'quit' },
      ],
    });
  } else {
    template.push({ label: '&File', submenu: [{ role: 'quit' }] });
  }
  template.push({
    label: mac ? 'Edit' : '&Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      separator,
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      ...(mac ? [{ role: 'pasteAndMatchStyle' } as const] : []),
      { role: 'delete' },
      separator,
      { role: 'selectAll' },
    ],
  });
  template.push({
    label: mac ? 'View' : '&View',
    submenu: [
      ...(isDev ? [{ role: 'reload' } as const, { role: 'forceReload' } as const, { role: 'toggleDevTools' } as const, separator] : []),
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      separator,
      { role: 'togglefullscreen' },
    ],
  });
  template.push({
    label: mac ? 'Window' : '&Window',
    role: 'window',
    submenu: mac ? [{ role: 'minimize' }, { role: 'zoom' }, separator, { role: 'front' }] : [{ role: 'minimize' }, { role: 'close' }],
  });
  template.push({
    label: mac ? 'Help' : '&Help',
    role: 'help',
    submenu: [
      ...(links
        ? [
            { label: `${APP_NAME} documentation`, click: () => actions.openLink(links.docs) },
            { label: 'Project page', click: () => actions.openLink(links.project) },
            separator,
          ]
        : []),
      { label: 'Open data folder', click: () => actions.openDataFolder() },
      { label: 'Restore a backup…', click: () => actions.restoreBackup() },
      separator,
      { label: 'Open logs folder', click: () => actions.openLogsFolder() },
      { label: 'Copy diagnostics', click: () => actions.copyDiagnostics() },
      updatesOff === null
        ? { label: 'Check for updates…', click: () => actions.checkForUpdates() }
        : { label: 'Updates are not set up in this build', enabled: false, toolTip: updatesOff },
      // On macOS About lives in the app menu, where users look for it.
      ...(mac ? [] : [separator, about]),
      separator,
      { label: `Version ${version}`, enabled: false },
    ],
  });
  return template;
}

/** What the About box says: the version first, then what it runs on (for bug reports). */
export function aboutContent(
  version: string,
  versions: Partial<Record<'electron' | 'chrome' | 'node', string>>,
): { message: string; detail: string } {
  const parts = [
    versions.electron && `Electron ${versions.electron}`,
    versions.chrome && `Chromium ${versions.chrome}`,
    versions.node && `Node ${versions.node}`,
  ].filter((p): p is string => typeof p === 'string' && p !== '');
  return { message: `${APP_NAME} ${version}`, detail: parts.join('\n') };
}

export function installMenu(options: MenuOptions): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(options)));
}
