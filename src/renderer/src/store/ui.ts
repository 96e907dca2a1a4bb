// The window's own state: the view shown, the palette, toasts, and whether the service answers.
import type { OperationName } from '../../../shared/contract.ts';
import type { Failure } from '../../../shared/result.ts';
import { call, watchKeydesk } from '../lib/api.ts';
import { operationWords, plain } from '../lib/words.ts';
import type { ViewName } from '../views/registry.ts';
import type { Toast } from './index.ts';
import type { ProfileData, StoreContext } from './context.ts';
import type { Moment } from './request.ts';

let toastId = 0;
/** At most this many of each kind on screen at once (the oldest goes first), so the stack never covers the view. */
const MAX_ERRORS = 3;
const MAX_SUCCESSES = 2;
/** How often Keydesk's core is asked again while it does not answer this window. */
export const KEYDESK_PROBE_MS = 2_000;
/** How often Keydesk's core is asked whether it answers while this window shows a job running (App.tsx KeydeskWatch). */
export const KEYDESK_WATCH_MS = 5_000;

export interface UiSlice {
  view: ViewName;
  /** False from a call that could not reach the service until the next one that did (a probe runs meanwhile). */
  online: boolean;
  /** The failure that made the service count as unreachable. */
  offlineReason: Failure | null;
  /**
   * When the active profile's service last answered a request (if only to refuse it): a failure shown from before
   * then is of that moment, not of now. Null until it answers.
   */
  serviceAnswered: Moment | null;
  /**
   * Keydesk's own core stopped answering this window (a call's Failure.keydeskGone; the harness's process gone):
   * since when, and whether it has answered since. Nothing shown can be checked meanwhile, and what happened while
   * it was gone (a job's end) never reached this window: once it answers, only a reload shows where things stand.
   * Null while it answers. Not per profile: a profile switch does not clear it.
   */
  keydeskGone: { since: string; back: boolean } | null;
  /**
   * Changes sent to the service whose answer was lost (OUTCOME_UNKNOWN) since it last answered: they may or may not
   * have taken effect, so the offline notice cannot say of them that they were not done.
   */
  unknownOutcomes: OperationName[];
  toasts: Toast[];
  paletteOpen: boolean;
  setView: (view: ViewName) => void;
  setPaletteOpen: (open: boolean) => void;
  /** `jobId`: a toast about that job's state (say, "already running"), taken away when the job ends. */
  notify: (kind: Toast['kind'], text: string, jobId?: string) => void;
  /**
   * How a job ended: it replaces what an earlier end of the same job said (an interrupted run's error, once a
   * Resume has finished it), which is no longer how the job stands.
   */
  notifyJobEnd: (kind: Toast['kind'], text: string, jobId: string) => void;
  /**
   * An operation's failure in an error toast, named by the operation's words ("Push an execution: …"), so it is
   * never read as about whatever is on screen later. A failure to reach the service goes once it answers again;
   * `resolves` names what else makes it untrue (see Toast.resolves), `jobId` the job it is about.
   */
  notifyFailure: (
    operation: OperationName,
    failure: Pick<Failure, 'code' | 'message'>,
    about?: { jobId?: string; resolves?: string },
  ) => void;
  /** What the toasts tagged `resolves` said is no longer so: they go. */
  dismissResolved: (resolves: string) => void;
  dismiss: (id: number) => void;
  /** The job ended: toasts about it as it was no longer hold. */
  dismissAboutJob: (jobId: string) => void;
}

export function createUiSlice(ctx: StoreContext): Omit<UiSlice, keyof ProfileData> {
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
    view: 'overview',
    keydeskGone: null,
    toasts: [],
    paletteOpen: false,
    setView: (view) => {
      set({ view, paletteOpen: false });
    },
    setPaletteOpen: (paletteOpen) => {
      set({ paletteOpen });
    },
    // The Toasts component times a success out (paused while hovered or focused); an error stays until dismissed.
    notify: (kind, text, jobId) => {
      push(kind, text, jobId === undefined ? {} : { jobId });
    },
    notifyJobEnd: (kind, text, jobId) => {
      push(kind, text, { jobEnd: jobId }, (t) => t.jobEnd !== jobId);
    },
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
    dismiss: (id) => {
      set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
    },
    dismissAboutJob: (jobId) => {
      if (ctx.get().toasts.some((t) => t.jobId === jobId)) set((s) => ({ toasts: s.toasts.filter((t) => t.jobId !== jobId) }));
    },
  };
}
