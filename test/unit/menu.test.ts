// The application menu's template, with electron mocked: standard roles everywhere, nothing for developers
// in a user's build, the macOS app menu, and Help's links going through the https-only helper.
import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';

const installed = vi.hoisted((): { template: unknown; menu: unknown } => ({ template: null, menu: null }));
vi.mock('electron', () => ({
  Menu: {
    buildFromTemplate: (template: unknown) => ((installed.template = template), { built: true }),
    setApplicationMenu: (menu: unknown) => (installed.menu = menu),
  },
}));

const { aboutContent, installMenu, menuTemplate, projectLinks } = await import('../../src/main/menu.ts');
const LINKS = { project: 'https://github.com/acme/keydesk', docs: 'https://github.com/acme/keydesk#readme' };

const actions = () => ({
  openLink: vi.fn(),
  openDataFolder: vi.fn(),
  restoreBackup: vi.fn(),
  openLogsFolder: vi.fn(),
  copyDiagnostics: vi.fn(),
  checkForUpdates: vi.fn(),
  showAbout: vi.fn(),
});
const submenu = (item: MenuItemConstructorOptions | undefined): MenuItemConstructorOptions[] =>
  Array.isArray(item?.submenu) ? item.submenu : [];
const roles = (items: MenuItemConstructorOptions[]): string[] => items.flatMap((i) => (i.role ? [i.role] : []));
const allRoles = (template: MenuItemConstructorOptions[]): string[] => template.flatMap((m) => roles(submenu(m)));
const byLabel = (template: MenuItemConstructorOptions[], label: RegExp) => template.find((m) => label.test(m.label ?? ''));
const click = (item: MenuItemConstructorOptions | undefined): void => {
  (item?.click as (() => void) | undefined)?.();
};

describe('application menu', () => {
  it('has Edit, View, Window and Help menus of standard roles', () => {
    for (const platform of ['darwin', 'win32', 'linux'] as const) {
      const template = menuTemplate({ platform, isDev: false, version: '1.2.3', links: LINKS, updatesOff: null, actions: actions() });
      const labels = template.map((m) => (m.label ?? '').replace('&', ''));
      expect(labels.slice(-4), platform).toEqual(['Edit', 'View', 'Window', 'Help']);
      expect(roles(submenu(byLabel(template, /Edit/)))).toEqual(
        expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']),
      );
      expect(roles(submenu(byLabel(template, /View/)))).toEqual(['resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen']);
      expect(roles(submenu(byLabel(template, /Window/)))).toContain('minimize');
      expect(byLabel(template, /Help/)?.role).toBe('help');
      expect(allRoles(template)).toContain('quit');
    }
  });

  it('offers reload and the DevTools in development only', () => {
    for (const platform of ['darwin', 'win32', 'linux'] as const) {
      const user = allRoles(menuTemplate({ platform, isDev: false, version: '1.2.3', links: LINKS, updatesOff: null, actions: actions() }));
      for (const role of ['reload', 'forceReload', 'toggleDevTools']) expect(user, `${platform} ${role}`).not.toContain(role);
      const dev = roles(
        submenu(
          byLabel(menuTemplate({ platform, isDev: true, version: '1.2.3', links: LINKS, updatesOff: null, actions: actions() }), /View/),
        ),
      );
      expect(dev).toEqual(['reload', 'forceReload', 'toggleDevTools', 'resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen']);
    }
  });

  it('on macOS starts with the app menu, with Paste and Match Style', () => {
    const a = actions();
    const template = menuTemplate({ platform: 'darwin', isDev: false, version: '1.2.3', links: LINKS, updatesOff: null, actions: a });
    expect(template[0]?.label).toBe('Keydesk');
    const appMenu = submenu(template[0]);
    expect(roles(appMenu)).toEqual(['services', 'hide', 'hideOthers', 'unhide', 'quit']);
    expect(appMenu[0]?.label).toBe('About Keydesk');
    click(appMenu[0]);
    expect(a.showAbout).toHaveBeenCalledTimes(1);
    expect(roles(submenu(byLabel(template, /Edit/)))).toContain('pasteAndMatchStyle');
    expect(submenu(byLabel(template, /Help/)).some((i) => i.label === 'About Keydesk')).toBe(false);
  });

  it('on Windows and Linux has File with Quit, About in Help', () => {
    const template = menuTemplate({
      platform: 'linux',
      isDev: false,
      version: '1.2.3',
      links: LINKS,
      updatesOff: null,
      actions: actions(),
    });
    expect(template[0]?.label).toBe('&File');
    expect(roles(submenu(template[0]))).toEqual(['quit']);
    expect(
      submenu(byLabel(template, /Help/))
        .map((i) => i.label)
        .filter(Boolean),
    ).toEqual([
      'Keydesk documentation',
      'Project page',
      'Open data folder',
      'Restore a backup…',
      'Open logs folder',
      'Copy diagnostics',
      'Check for updates…',
      'About Keydesk',
      'Version 1.2.3',
    ]);
    expect(roles(submenu(byLabel(template, /Edit/)))).not.toContain('pasteAndMatchStyle');
  });

  it('Help opens the docs, project page, data folder and backups', () => {
    const a = actions();
    const help = submenu(
      byLabel(menuTemplate({ platform: 'win32', isDev: false, version: '1.2.3', links: LINKS, updatesOff: null, actions: a }), /Help/),
    );
    const item = (label: string) => help.find((i) => i.label === label);
    click(item('Keydesk documentation'));
    click(item('Project page'));
    click(item('Open data folder'));
    click(item('Restore a backup…'));
    click(item('About Keydesk'));
    expect(a.openLink.mock.calls).toEqual([[LINKS.docs], [LINKS.project]]);
    expect(a.openDataFolder).toHaveBeenCalledTimes(1);
    expect(a.restoreBackup).toHaveBeenCalledTimes(1);
    expect(a.showAbout).toHaveBeenCalledTimes(1);
    expect(item('Version 1.2.3')?.enabled).toBe(false);
  });

  it('Help offers no links without an https homepage', () => {
    const help = submenu(
      byLabel(
        menuTemplate({ platform: 'linux', isDev: false, version: '1.2.3', links: null, updatesOff: null, actions: actions() }),
        /Help/,
      ),
    );
    expect(help.map((i) => i.label).filter(Boolean)).toEqual([
      'Open data folder',
      'Restore a backup…',
      'Open logs folder',
      'Copy diagnostics',
      'Check for updates…',
      'About Keydesk',
      'Version 1.2.3',
    ]);
    expect(help[0]?.type).not.toBe('separator');
  });

  it('Help opens the logs, copies diagnostics and checks for updates', () => {
    const a = actions();
    const help = submenu(
      byLabel(menuTemplate({ platform: 'linux', isDev: false, version: '1', links: null, updatesOff: null, actions: a }), /Help/),
    );
    for (const label of ['Open logs folder', 'Copy diagnostics', 'Check for updates…']) click(help.find((i) => i.label === label));
    expect([a.openLogsFolder, a.copyDiagnostics, a.checkForUpdates].map((f) => f.mock.calls.length)).toEqual([1, 1, 1]);
  });

  it('Help says when this build has no update feed', () => {
    const a = actions();
    const template = menuTemplate({ platform: 'darwin', isDev: false, version: '1', links: null, updatesOff: 'No feed.', actions: a });
    const help = submenu(byLabel(template, /Help/));
    expect(help.some((i) => i.label === 'Check for updates…')).toBe(false);
    const off = help.find((i) => i.label === 'Updates are not set up in this build');
    expect(off).toMatchObject({ enabled: false, toolTip: 'No feed.' });
  });

  it("takes its links from package.json's https homepage", () => {
    expect(projectLinks(JSON.stringify({ homepage: 'https://github.com/acme/keydesk' }))).toEqual(LINKS);
    expect(projectLinks(JSON.stringify({ homepage: 'https://keydesk.example/docs#start' }))).toEqual({
      project: 'https://keydesk.example/docs#start',
      docs: 'https://keydesk.example/docs#start',
    });
    expect(projectLinks(JSON.stringify({ homepage: 'http://keydesk.example/' }))).toBeNull();
    expect(projectLinks(JSON.stringify({ homepage: 'not a url' }))).toBeNull();
    expect(projectLinks(JSON.stringify({ name: 'keydesk' }))).toBeNull();
    expect(projectLinks('{ broken')).toBeNull();
  });

  it('About names the version first, then what it runs on', () => {
    expect(aboutContent('1.2.3', { electron: '45.4.1', chrome: '140.0', node: '22.20.0' })).toEqual({
      message: 'Keydesk 1.2.3',
      detail: 'Electron 45.4.1\nChromium 140.0\nNode 22.20.0',
    });
    expect(aboutContent('1.2.3', { node: '24.1.0' })).toEqual({ message: 'Keydesk 1.2.3', detail: 'Node 24.1.0' });
  });

  it('installs the template as the application menu', () => {
    installMenu({ platform: 'linux', isDev: false, version: '9.9.9', links: LINKS, updatesOff: null, actions: actions() });
    expect(installed.menu).toEqual({ built: true });
    expect(JSON.stringify(installed.template)).toContain('Version 9.9.9');
  });
});
