// The window's own state: the view shown, the palette, toasts, and whether the service answers.
import type { Failure } from '../../../shared/result.ts';
import { plain } from '../lib/words.ts';
import type { ViewName } from '../views/registry.ts';
import type { Toast } from './index.ts';
import type { ProfileData, StoreContext } from './context.ts';

let toastId = 0;

export interface UiSlice {
  view: ViewName;
  /** False from a call that could not reach the service until the next one that did (a probe runs meanwhile). */
  online: boolean;
  /** The failure that made the service count as unreachable. */
  offlineReason: Failure | null;
  toasts: Toast[];
  paletteOpen: boolean;
  setView: (view: ViewName) => void;
  setPaletteOpen: (open: boolean) => void;
  notify: (kind: Toast['kind'], text: string) => void;
  dismiss: (id: number) => void;
}

export function createUiSlice(ctx: StoreContext): Omit<UiSlice, keyof ProfileData> {
  const { set, get } = ctx;
  return {
    view: 'overview',
    toasts: [],
    paletteOpen: false,
    setView: (view) => {
      set({ view, paletteOpen: false });
    },
    setPaletteOpen: (paletteOpen) => {
      set({ paletteOpen });
    },
    notify: (kind, text) => {
      const id = ++toastId;
      set((s) => ({ toasts: [...s.toasts.slice(-3), { id, kind, text: plain(text) }] }));
      setTimeout(() => {
        get().dismiss(id);
      }, kind === 'error' ? 8_000 : 3_000);
    },
    dismiss: (id) => {
      set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
    },
  };
}
