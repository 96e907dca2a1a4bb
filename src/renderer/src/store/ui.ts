// The window's own state: the view shown, the palette, toasts, and whether the service answers.
import { call, watchKeydesk } from '../lib/api.ts';
import { operationWords, plain } from '../lib/words.ts';
import type { StoreContext, Toast, UiSlice } from './types.ts';

let toastId = 0;
/** At most this many of each kind on screen at once (the oldest goes first), so the stack never covers the view. */
const MAX_ERRORS = 3;
const MAX_SUCCESSES = 2;
/** How often Keydesk's core is asked again while it does not answer this window. */
export const KEYDESK_PROBE_MS = 2_000;
/** How often Keydesk's core is asked whether it answers while this window shows a job running (App.tsx KeydeskWatch). */
export const KEYDESK_WATCH_MS = 5_000;

/** Whether the active profile's service answers, as a profile starts (see context.ts activate). */
export const UI_INITIAL: Pick<UiSlice, 'online' | 'offlineReason' | 'serviceAnswered' | 'unknownOutcomes'> = {
  online: true,
  offlineReason: null,
  serviceAnswered: null,
  unknownOutcomes: [],
};

export function createUiSlice(ctx: StoreContext): UiSlice {
  const { set } = ctx;
  /** Adds a toast; `keep` says which of those on screen stay (the one it replaces does not). */
  const push = (
    kind: Toast['kind'],
    text: string,
    about: Pick<Toast, 'jobId' | 'jobEnd' | 'resolves'>,
    keep: (t: Toast) => boolean = () => true,
  ) => {
    const id = ++toastId;
    const words = plain(text);
    set((s) => {
      // The same message again moves to the end (newest) instead of stacking twice.
      const others = s.toasts.filter((t) => keep(t) && (t.kind !== kind || t.text !== words));
      const last = (k: Toast['kind'], max: number) => others.filter((t) => t.kind === k).slice(-max);
      const kept = new Set([
        ...last('error', MAX_ERRORS - (kind === 'error' ? 1 : 0)),
        ...last('success', MAX_SUCCESSES - (kind === 'success' ? 1 : 0)),
      ]);
      return { toasts: [...others.filter((t) => kept.has(t)), { id, kind, text: words, ...about }] };
    });
  };
  let probing: ReturnType<typeof setTimeout> | null = null;
  // A light call of main's own, again and again while it is gone; any answer (even a refusal) means it is back.
  const probe = (): void => {
    probing = setTimeout(() => {
      probing = null;
      void call('app.status', undefined);
    }, KEYDESK_PROBE_MS);
  };
  watchKeydesk((reach) => {
    const gone = ctx.get().keydeskGone;
    if (reach === 'gone') {
      // Gone, or gone again after it came back (the reload still owed): not answering since now.
      if (gone === null || gone.back) set({ keydeskGone: { since: new Date().toISOString(), back: false } });
      if (probing === null) probe();
    } else if (gone !== null && !gone.back) {
      if (probing !== null) clearTimeout(probing);
      probing = null;
      set({ keydeskGone: { ...gone, back: true } });
    }
  });
  return {
    ...UI_INITIAL,
    view: 'overview',
    keydeskGone: null,
    toasts: [],
    paletteOpen: false,
    shortcutsOpen: false,
    setView: (view) => set({ view, paletteOpen: false }),
    setPaletteOpen: (paletteOpen) => set({ paletteOpen }),
    setShortcutsOpen: (shortcutsOpen) => set({ shortcutsOpen }),
    // The Toasts component times a success out (paused while hovered or focused); an error stays until dismissed.
    notify: (kind, text, jobId) => push(kind, text, jobId === undefined ? {} : { jobId }),
    notifyJobEnd: (kind, text, jobId) => push(kind, text, { jobEnd: jobId }, (t) => t.jobEnd !== jobId),
    notifyFailure: (operation, failure, about = {}) => {
      const resolves = about.resolves ?? (failure.code === 'NETWORK' || failure.code === 'TIMEOUT' ? 'offline' : undefined);
      push('error', `${operationWords(operation)}: ${failure.message}`, {
        ...(about.jobId === undefined ? {} : { jobId: about.jobId }),
        ...(resolves === undefined ? {} : { resolves }),
      });
    },
    dismissResolved: (resolves) => {
      if (ctx.get().toasts.some((t) => t.resolves === resolves)) set((s) => ({ toasts: s.toasts.filter((t) => t.resolves !== resolves) }));
    },
    dismiss: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
    checkService: () => {
      const gone = ctx.get().keydeskGone;
      if (gone === null) ctx.probeService();
      else if (!gone.back) void call('app.status', undefined);
    },
    dismissAboutJob: (jobId) => {
      if (ctx.get().toasts.some((t) => t.jobId === jobId)) set((s) => ({ toasts: s.toasts.filter((t) => t.jobId !== jobId) }));
    },
  };
}
