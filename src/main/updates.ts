// Help → Check for updates, through electron-updater and the feed this build was made with (its app-update.yml,
// written by electron-builder from KEYDESK_UPDATE_URL). A build made without one never checks and says so.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AppUpdater } from 'electron-updater';
import { log } from './log.ts';

export const NO_FEED = 'This build has no update feed. Get new versions where you got Keydesk.';

/** Shows a message and resolves with the index of the button chosen (Electron's message box). */
export type Ask = (box: { type: 'info' | 'warning'; message: string; detail?: string; buttons: string[] }) => Promise<number>;

export type UpdateOutcome =
  | { kind: 'off' }
  | { kind: 'current'; version: string }
  | { kind: 'later'; version: string }
  | { kind: 'restarting'; version: string }
  | { kind: 'failed'; message: string };

/** The feed's file in a packed app's resources; null in development or in a build made without a feed. */
export function updateConfigFile(resourcesPath: string | undefined, isPackaged: boolean): string | null {
  if (!isPackaged || resourcesPath === undefined) return null;
  const file = join(resourcesPath, 'app-update.yml');
  return existsSync(file) ? file : null;
}

export class Updates {
  private readonly updater: AppUpdater | null;
  private readonly ask: Ask;
  private readonly current: string;
  private busy: Promise<UpdateOutcome> | null = null;

  /** `updater`: null when this build has no feed. It downloads only when asked, and installs on quit. */
  constructor(updater: AppUpdater | null, ask: Ask, current: string) {
    this.updater = updater;
    this.ask = ask;
    this.current = current;
    if (updater) {
      updater.autoDownload = false;
      updater.autoInstallOnAppQuit = true;
      updater.logger = {
        info: (m: unknown) => log.info('updates:', m),
        warn: (m: unknown) => log.warn('updates:', m),
        error: (m: unknown) => log.error('updates:', m),
      };
    }
  }

  /** What Help says of updates: null when it can check. */
  get off(): string | null {
    return this.updater ? null : NO_FEED;
  }

  /** One check at a time: a second click while one runs joins it. */
  check(): Promise<UpdateOutcome> {
    this.busy ??= this.run().finally(() => {
      this.busy = null;
    });
    return this.busy;
  }

  private async run(): Promise<UpdateOutcome> {
    const updater = this.updater;
    if (!updater) {
      await this.ask({ type: 'info', message: 'Updates are not set up', detail: NO_FEED, buttons: ['OK'] });
      return { kind: 'off' };
    }
    const { current } = this;
    try {
      log.info(`updates: checking (this is ${current})`);
      const found = await updater.checkForUpdates();
      if (!found?.isUpdateAvailable) {
        await this.ask({ type: 'info', message: `Keydesk ${current} is the newest version`, buttons: ['OK'] });
        return { kind: 'current', version: current };
      }
      const { version } = found.updateInfo;
      const download = await this.ask({
        type: 'info',
        message: `Keydesk ${version} is available`,
        detail: `You have ${current}. Download it now? It is installed when Keydesk restarts.`,
        buttons: ['Download', 'Later'],
      });
      if (download !== 0) return { kind: 'later', version };
      await updater.downloadUpdate();
      log.info(`updates: ${version} downloaded`);
      const restart = await this.ask({
        type: 'info',
        message: `Keydesk ${version} is ready`,
        detail: 'Restart now to install it, or it is installed the next time Keydesk quits.',
        buttons: ['Restart now', 'Later'],
      });
      if (restart !== 0) return { kind: 'later', version };
      updater.quitAndInstall();
      return { kind: 'restarting', version };
    } catch (error) {
      console.error('keydesk: the update check failed:', error);
      const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
      await this.ask({ type: 'warning', message: 'Keydesk could not check for updates', detail: message, buttons: ['OK'] });
      return { kind: 'failed', message };
    }
  }
}
