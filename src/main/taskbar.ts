// The Electron side of job notices (job-notices.ts): OS notifications whose click opens the job, and the taskbar or
// Dock progress bar on the main window.
import { Notification, type BrowserWindow } from 'electron';
import { eventChannel } from '../shared/operations.ts';
import type { NoticeSink } from './job-notices.ts';

/** Notices on the window `win()` gives (null while there is none). */
export function windowNotices(win: () => BrowserWindow | null): NoticeSink {
  // Held until clicked or closed: a notification collected by the GC loses its click handler.
  const shown = new Set<Notification>();
  return {
    focused: () => win()?.isFocused() ?? false,
    notify: ({ jobId, title, body }) => {
      if (!Notification.isSupported()) return;
      const notification = new Notification({ title, body });
      shown.add(notification);
      notification.on('close', () => shown.delete(notification));
      notification.on('click', () => {
        shown.delete(notification);
        const w = win();
        if (!w || w.isDestroyed()) return;
        if (w.isMinimized()) w.restore();
        w.show();
        w.focus();
        w.webContents.send(eventChannel('app.openJob'), { jobId });
      });
      notification.show();
    },
    progress: ({ mode, fraction }) => {
      const w = win();
      if (!w || w.isDestroyed()) return;
      if (mode === 'none') w.setProgressBar(-1);
      else w.setProgressBar(fraction, { mode });
    },
  };
}
