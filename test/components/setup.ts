// Each component test starts from an empty document and unpatched globals. jsdom has no layout and no modal
// dialogs: the browser APIs the components call are filled in with their visible effect, or with nothing.
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

if (typeof HTMLDialogElement.prototype.showModal !== 'function') {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
}
if (typeof HTMLDialogElement.prototype.close !== 'function') {
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
}
Element.prototype.scrollIntoView = function scrollIntoView() {
  // No layout in jsdom: nothing to scroll.
};
// All keys' table and the history chart observe a size that never changes here.
if (typeof globalThis.ResizeObserver !== 'function') {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
// uPlot reads the pixel ratio through matchMedia when it loads; jsdom has no media queries to answer.
if (typeof window.matchMedia !== 'function') {
  // A query that never matches and never changes (its listeners are never called).
  window.matchMedia = (media: string) =>
    Object.assign(new EventTarget(), { matches: false, media, onchange: null }) as unknown as MediaQueryList;
}

// findBy*/waitFor give up after 1 s by default; on a loaded CI machine a render can take longer.
configure({ asyncUtilTimeout: 15_000 });

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  localStorage.clear();
});
