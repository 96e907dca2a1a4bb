// Each component test starts from an empty document and unpatched globals. jsdom has no layout and no modal
// dialogs: the two browser methods the components call are filled in with their visible effect.
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

if (!('showModal' in HTMLDialogElement.prototype) || typeof HTMLDialogElement.prototype.showModal !== 'function') {
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

// findBy*/waitFor give up after 1 s by default; on a loaded CI machine a render can take longer.
configure({ asyncUtilTimeout: 15_000 });

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  localStorage.clear();
});

// jsdom lacks a few browser APIs the views use; these stand-ins do as little as a test needs.
Element.prototype.scrollIntoView = function scrollIntoView() {};
if (typeof HTMLDialogElement !== 'undefined' && typeof HTMLDialogElement.prototype.showModal !== 'function') {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.open = false;
  };
}
// uPlot reads the pixel ratio through matchMedia when it loads; jsdom has no media queries to answer.
if (typeof window.matchMedia !== 'function') {
  // A query that never matches and never changes (its listeners are never called).
  window.matchMedia = (media: string) =>
    Object.assign(new EventTarget(), { matches: false, media, onchange: null }) as unknown as MediaQueryList;
}
