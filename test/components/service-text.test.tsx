// Keys, HWIDs and notes as the service sent them, as a person sees them: invisible and bidirectional characters
// shown as marks, long text cut before it is rendered with a way to see it whole, and copies exact.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Key, LedgerRow } from '../../src/shared/domain.ts';
import { fake, installBridge, key, readySession } from '../support/fake-bridge.ts';

installBridge();
const { useKeydesk } = await import('../../src/renderer/src/store/index.ts');
const { Keys } = await import('../../src/renderer/src/views/Keys/Keys.tsx');
const { AllKeys } = await import('../../src/renderer/src/views/AllKeys/AllKeys.tsx');
const { marked } = await import('../../src/renderer/src/lib/text.ts');
const { fmt, NOUNS } = await import('../../src/renderer/src/lib/format.ts');
const initial = useKeydesk.getState();

/** Shows "ABexe.png-CD" on screen as sent; it is a different key. */
const SPOOFED = 'AB\u202Egnp.exe-CD';
const HIDDEN = /[\u061C\u200B-\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/;

const show = (...keys: Key[]) => {
  useKeydesk.setState({
    lookupRequest: { status: 'ready', error: null },
    lookupTerm: 'AB',
    lookupResult: { active: keys, generated: [] },
  });
};
const panel = () => screen.getByRole('complementary', { name: 'Key detail' });

beforeEach(() => {
  readySession(useKeydesk, initial);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('service text: hidden characters', () => {
  const codes = ['202A', '202B', '202C', '202D', '202E', '2066', '2067', '2068', '2069', '200E', '200F', '061C'];
  codes.push('200B', '200C', '200D', '2060', 'FEFF', '00AD', '0000', '0009', '000A', '001B', '007F', '0085', '2028');
  it.each(codes)('shows U+%s as a visible mark', (code) => {
    expect(marked(`A${String.fromCodePoint(parseInt(code, 16))}B`)).toBe(`A⟨U+${code}⟩B`);
  });

  it('marks a spoofed key, HWID and note in Keys; copies exact', async () => {
    const user = userEvent.setup();
    show(key(SPOOFED, 'active', { hwid: 'HW\u200B-1', note: 'VIP\u2066 paid\u2069' }));
    render(<Keys />);
    await user.click(screen.getByRole('button', { name: 'AB⟨U+202E⟩gnp.exe-CD' }));
    const shown = panel().textContent;
    expect(shown).toContain('AB⟨U+202E⟩gnp.exe-CD');
    expect(shown).toContain('HW⟨U+200B⟩-1');
    expect(shown).toContain('VIP⟨U+2066⟩ paid⟨U+2069⟩');
    expect(HIDDEN.test(document.body.textContent)).toBe(false);
    await user.click(within(panel()).getByRole('button', { name: 'Copy key AB⟨U+202E⟩gnp.exe-CD' }));
    expect(await navigator.clipboard.readText()).toBe(SPOOFED);
    await user.click(within(panel()).getByRole('button', { name: 'Copy HWID HW⟨U+200B⟩-1' }));
    expect(await navigator.clipboard.readText()).toBe('HW\u200B-1');
  });
});

describe('service text: long text', () => {
  it('cuts a 10 MB note before rendering it, with Show all', async () => {
    const user = userEvent.setup();
    const note = 'n'.repeat(10 * 1024 * 1024);
    show(key('KEY-LONG', 'active', { note }));
    render(<Keys />);
    await user.click(screen.getByRole('button', { name: 'KEY-LONG' }));
    expect(document.body.textContent.length).toBeLessThan(note.length / 100);
    await user.click(within(panel()).getByRole('button', { name: `Show all ${fmt.count(note.length, NOUNS.character)}` }));
    expect(panel().textContent).toContain(note);
    expect(within(panel()).getByRole('button', { name: 'Show less' }).getAttribute('aria-expanded')).toBe('true');
  });
});

describe('service text: All keys rows', () => {
  it('marks a spoofed key and cuts a 10 MB note', async () => {
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe() {}
        disconnect() {}
      },
    );
    const note = 'n'.repeat(10 * 1024 * 1024);
    const row: LedgerRow = {
      value: SPOOFED,
      note,
      status: 'active',
      isPremium: false,
      expiresAt: null,
      daysKey: 30,
      hwid: 'HW\u2067-2',
      createdAt: null,
      lastSeenAt: '2026-01-01T00:00:00.000Z',
    };
    fake.impl['jobs.list'] = () => Promise.resolve({ ok: true, data: { jobs: [], elsewhere: [] } });
    fake.impl['ledger.query'] = () => Promise.resolve({ ok: true, data: { rows: [row], total: 1, totalCapped: false } });
    render(<AllKeys />);
    const box = await screen.findByRole('checkbox', { name: 'Select AB⟨U+202E⟩gnp.exe-CD' });
    const cells = (box.closest('[role="row"]') as HTMLElement).textContent;
    expect(cells).toContain('AB⟨U+202E⟩gnp.exe-CD');
    expect(cells).toContain('HW⟨U+2067⟩-2');
    expect(HIDDEN.test(document.body.textContent)).toBe(false);
    expect(document.body.textContent.length).toBeLessThan(note.length / 100);
  });
});
