// Errors read as product words (issue 12, with the policy of issue 8): for every error code and every operation the
// renderer can show, nothing outside a "Details" disclosure carries HTTP statuses, request lines, operation ids,
// error codes or "key(s)". The detail itself stays reachable under Details.
import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { APP_ERROR_CODES, WIRE_ERROR_CODES, type Failure } from '../../src/shared/result.ts';
import { OPERATION_NAMES } from '../../src/shared/operations.ts';
import type { AuditEntry } from '../../src/shared/domain.ts';
import { fake, freshStore, sandboxProfile, useKeydesk } from '../support/fake-bridge.ts';
import { FailureMessage } from '../../src/renderer/src/components/FailureMessage.tsx';
import { Toasts } from '../../src/renderer/src/components/Toasts.tsx';
import { Activity } from '../../src/renderer/src/views/Activity/Activity.tsx';
import { operationWords, plain } from '../../src/renderer/src/lib/words.ts';

const CODES = [...WIRE_ERROR_CODES, ...APP_ERROR_CODES];
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** What a vendor should never have to read: each pattern with the name a failing test reports. */
const JARGON: [string, RegExp][] = [
  ['an HTTP status', /HTTP\s?\d{3}/i],
  ['a request line', /\b(GET|POST|PUT|PATCH|DELETE)\s+(https?:|\/)/],
  ['an API address', /https?:\/\/\S*\/api\//],
  ['an operation id', new RegExp(`(^|[^\\w.])(${OPERATION_NAMES.map(escape).join('|')})(?![\\w.])`)],
  ['an error code', new RegExp(`\\b(${CODES.join('|')})\\b`)],
  ['a system error code', /\bE[A-Z]{4,}\b/],
  ['a hedged plural', /\w\(e?s\)/],
];
const jargonIn = (text: string): string[] => JARGON.filter(([, re]) => re.test(text)).map(([name]) => `${name} in "${text}"`);

/** The text a person reads without opening any Details disclosure. */
function outsideDetails(root: Element): string {
  const copy = root.cloneNode(true) as Element;
  for (const d of copy.querySelectorAll('details')) d.remove();
  return copy.textContent;
}

/** A failure as main could send it at worst: an old-style message naming the operation, every technical fact in detail. */
const worst = (code: Failure['code'], op: string): Failure => ({
  ok: false,
  code,
  message: `Keydesk could not finish ${op} because of an internal error (3 key(s) affected).`,
  detail: `POST http://127.0.0.1:41234/api/keys/reset: HTTP 409 ${code} ECONNREFUSED in ${op}`,
});

beforeEach(() => {
  freshStore({ activeProfileId: 'sandbox', profiles: [sandboxProfile] });
});

describe('error words', () => {
  it('has words for every operation, none of them its id', () => {
    for (const name of OPERATION_NAMES) {
      expect(operationWords(name)).not.toBe(name);
      expect(jargonIn(operationWords(name))).toEqual([]);
    }
  });

  it('shows every code on every operation without jargon outside Details', () => {
    // The patterns do catch the worst case as main could send it.
    expect(jargonIn(worst('INTERNAL', 'keys.resetHwid').message).length).toBeGreaterThan(0);
    expect(jargonIn(worst('INTERNAL', 'keys.resetHwid').detail ?? '').length).toBeGreaterThanOrEqual(4);
    const problems: string[] = [];
    for (const code of CODES) {
      for (const op of OPERATION_NAMES) {
        const failure = worst(code, op);
        const { container, unmount } = render(<FailureMessage failure={failure} />);
        problems.push(...jargonIn(outsideDetails(container)));
        if (container.querySelector('details pre')?.textContent !== failure.detail)
          problems.push(`${code} on ${op}: detail not under Details`);
        unmount();
      }
    }
    expect(problems).toEqual([]);
  });

  it('says toasts in words, whatever text a slice passes on', () => {
    render(<Toasts />);
    act(() => {
      // Three: the most errors shown at once (toasts.test.tsx).
      for (const op of OPERATION_NAMES.slice(0, 3)) useKeydesk.getState().notify('error', worst('INTERNAL', op).message);
    });
    const shown = screen.getAllByText(/Keydesk could not finish/).map((el) => el.textContent);
    expect(shown).toHaveLength(3);
    expect(shown.flatMap(jargonIn)).toEqual([]);
    expect(shown[0]).toBe(
      `Keydesk could not finish “${operationWords(OPERATION_NAMES[0])}” because of an internal error (3 keys affected).`,
    );
  });

  it('shows every activity log operation in words', async () => {
    const entries: AuditEntry[] = OPERATION_NAMES.map((action, i) => ({
      id: i + 1,
      at: '2026-01-01T00:00:00.000Z',
      profileId: 'sandbox',
      profileName: 'Local sandbox',
      action,
      target: i % 2 ? '1 key(s): spring' : '10000 key(s)',
      outcome: 'failed',
      message: worst('INTERNAL', action).message,
    }));
    fake.impl['audit.list'] = () => Promise.resolve({ ok: true, data: { entries, total: entries.length } });
    const { container } = render(<Activity />);
    await screen.findByText(operationWords('keys.resetHwid'));
    const table = container.querySelector('table') ?? container;
    expect(jargonIn(outsideDetails(table))).toEqual([]);
    expect(screen.getAllByText('10,000 keys').length).toBeGreaterThan(0);
    expect(screen.getAllByText('1 key: spring').length).toBeGreaterThan(0);
  });

  it('leaves words alone that only look like ids', () => {
    expect(plain('Check shop.example.com and version 1.2.')).toBe('Check shop.example.com and version 1.2.');
  });
});
