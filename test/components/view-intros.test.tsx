// Every view opens with a short intro: the first paragraph after its main heading has at most 20 words.
import { act, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fake, fakeStartedMain, freshStore, useKeydesk } from '../support/fake-bridge.ts';
import { App } from '../../src/renderer/src/App.tsx';
import { VIEWS } from '../../src/renderer/src/views/registry.ts';

const MAX_WORDS = 20;

beforeEach(() => {
  freshStore();
  fakeStartedMain();
  fake.impl['hwid.read'] = () => Promise.resolve({ ok: true, data: { readings: [] } });
  fake.impl['audit.list'] = () => Promise.resolve({ ok: true, data: { entries: [], total: 0, offset: 0, limit: 100 } });
});

/** The first paragraph shown after `heading` in the page's order: what a person reads first in the view. */
function introAfter(heading: HTMLElement): string | null {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT);
  walker.currentNode = heading;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    // A closed dialog's words are not on screen.
    if (node instanceof HTMLParagraphElement && !node.closest('dialog:not([open])')) return node.textContent.trim();
  }
  return null;
}
const words = (text: string): number => text.split(/\s+/).filter(Boolean).length;

describe('view intros', () => {
  it('keeps the first paragraph of every view to 20 words at most', async () => {
    render(<App />);
    await screen.findByLabelText('Active service');
    const long: string[] = [];
    for (const v of VIEWS) {
      act(() => {
        useKeydesk.getState().setView(v.view);
      });
      const heading = await waitFor(() => {
        const h = document.getElementById(`${v.view}-title`);
        if (!h) throw new Error(`no heading for ${v.view}`);
        return h;
      });
      const intro = introAfter(heading);
      if (intro !== null && words(intro) > MAX_WORDS) long.push(`${v.label} (${String(words(intro))} words): ${intro}`);
    }
    expect(long).toEqual([]);
  });

  it('counts a long intro as too long', () => {
    document.body.innerHTML = '<h1 id="t">T</h1><div><p>' + 'word '.repeat(21) + '</p></div>';
    const intro = introAfter(document.getElementById('t') as HTMLElement);
    expect(intro !== null && words(intro)).toBe(21);
  });
});
