import { useEffect, useRef, useState } from 'react';
import { schemas } from '../../../../shared/rules.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { KeyBadges } from '../../components/Badge.tsx';
import { CopyButton } from '../../components/CopyButton.tsx';
import type { Key } from '../../../../shared/domain.ts';
import { FailureMessage } from '../../components/FailureMessage.tsx';
import { Field } from '../../components/Field.tsx';
import { Icon } from '../../components/Icon.tsx';
import { RequestFailure } from '../../components/RequestFailure.tsx';
import { ServiceText } from '../../components/ServiceText.tsx';
import { ServiceWait, useServiceWait } from '../../components/ServiceWait.tsx';
import { Time } from '../../components/Time.tsx';
import { fmt, NOUNS } from '../../lib/format.ts';
import { parseWhole } from '../../lib/numbers.ts';
import { shownText } from '../../lib/text.ts';
import type { ReactNode } from 'react';
import { useKeydesk } from '../../store/index.ts';
import { earlierBecause } from '../../store/keys.ts';
import { HwidHistory } from './HwidHistory.tsx';
import { KeyEdit } from './KeyEdit.tsx';
import { focusKeyRow, rowAfter } from './Lookup.tsx';

/** What a field shows when the service's dialect leaves it out. */
const NOT_REPORTED = 'not reported by this service';
/** An extension longer than this (ten years) is asked about first: a slip of the keyboard ("36500") is costly. */
export const LONG_EXTEND_DAYS = 3650;

/** What Tab stops on inside the panel. */
const TAB_STOPS =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

/** Where a person types. */
const TYPING =
  'textarea, select, [contenteditable="true"], input:not([type="checkbox"], [type="radio"], [type="button"], [type="submit"], [type="reset"])';

/** What the panel asks before it acts, when it asks. */
type Pending = { kind: 'delete' } | { kind: 'reset' } | { kind: 'extend'; days: number };

export function KeyDetail() {
  const key = useKeydesk((s) => s.selectedKey);
  if (!key) return null;
  // Keyed by the key: what was typed, and any complaint about it, belongs to the key it was typed for.
  return <KeyCard key={key.value} keyData={key} />;
}

function KeyCard({ keyData: key }: { keyData: Key }) {
  const waits = useServiceWait() !== null;
  const busy = useKeydesk((s) => s.keyActionRequest.status === 'loading') || waits;
  const waitsNote = waits ? 'key-waits' : undefined;
  /** The action that waits for its answer on this key, if any: its button says so. */
  const waiting = useKeydesk((s) =>
    s.keyActionRequest.status === 'loading' && s.keyActionKind?.keyValue === key.value ? s.keyActionKind.kind : null,
  );
  // Read before a later change to this key (a real validation in Validate & HWID, say): the panel is an earlier answer.
  // Read before a bulk job over a filter that may include it: the panel may be one.
  const change = useKeydesk((s) => earlierBecause(s, key.value, key, s.selectedRead));
  const readAt = useKeydesk((s) => s.selectedRead?.at ?? null);
  const lookupTerm = useKeydesk((s) => s.lookupTerm);
  const runLookup = useKeydesk((s) => s.runLookup);
  const searching = useKeydesk((s) => s.lookupRequest.status === 'loading');
  const error = useKeydesk((s) => s.keyActionRequest.error);
  const extendKey = useKeydesk((s) => s.extendKey);
  const resetHwid = useKeydesk((s) => s.resetHwid);
  const deleteKey = useKeydesk((s) => s.deleteKey);
  const selectKey = useKeydesk((s) => s.selectKey);
  const refreshKey = useKeydesk((s) => s.refreshKey);
  const readRequest = useKeydesk((s) => s.keyReadRequest);
  const [days, setDays] = useState('30');
  const [daysError, setDaysError] = useState<string | null>(null);
  // Opened from a row menu for one action: that action's question first (an extend starts at its days), once.
  const [asked] = useState(() => useKeydesk.getState().keyAsk);
  const [pending, setPending] = useState<Pending | null>(() => {
    const ask = asked;
    return ask === 'delete' || (ask === 'reset' && key.status === 'active' && key.hwid) ? { kind: ask } : null;
  });
  const card = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  /** Closes the panel and gives the focus back to the key's row in the list. */
  const close = () => {
    selectKey(null);
    focusKeyRow(key.value);
  };

  // The panel opens beside the list and takes the focus, so the keyboard goes on where the eyes go.
  useEffect(() => {
    card.current?.scrollIntoView({ block: 'nearest' });
    const days = asked === 'extend' ? card.current?.querySelector<HTMLInputElement>('form input') : null;
    (days ?? heading.current)?.focus({ preventScroll: true });
    days?.select();
    // Asked once: the panel shown again later (another view and back) does not ask again.
    useKeydesk.setState({ keyAsk: null });
  }, [asked]);

  // While it is open the panel holds the keyboard: Tab cycles inside it, and Esc closes it from anywhere in the
  // view. A dialog (a confirmation inside the panel, the command palette) keeps its own Tab and Esc.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const panel = card.current;
      const target = e.target instanceof Element ? e.target : null;
      if (!panel || e.defaultPrevented || target?.closest('dialog') || document.querySelector('dialog[open]')) return;
      if (e.key === 'Escape') {
        // Esc while typing in another form beside the panel (Generate's Note, say) is that field's, not a close; the
        // search that found the key still closes it.
        if (target && !panel.contains(target) && target.matches(TYPING) && !target.closest('[role="search"]')) return;
        e.preventDefault();
        selectKey(null);
        focusKeyRow(key.value);
        return;
      }
      if (e.key !== 'Tab') return;
      const stops = [...panel.querySelectorAll<HTMLElement>(TAB_STOPS)].filter((el) => !el.closest('dialog'));
      const first = stops[0];
      const last = stops[stops.length - 1];
      if (!first || !last) return;
      const inside = panel.contains(document.activeElement);
      if (!inside || (e.shiftKey && document.activeElement === first) || (!e.shiftKey && document.activeElement === last)) {
        e.preventDefault();
        (e.shiftKey ? last : first).focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [selectKey, key.value]);

  // An act disables its button while it waits, which drops the focus: once it is answered, the focus goes back to
  // that button (the heading if it stays off), unless the person has moved on.
  const extendButton = useRef<HTMLButtonElement>(null);
  const resetButton = useRef<HTMLButtonElement>(null);
  const refocus = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const to = refocus.current;
    if (busy || !to) return;
    refocus.current = null;
    const at = document.activeElement;
    if (at !== null && at !== document.body && !card.current?.contains(at)) return;
    (to.matches(':disabled') ? heading.current : to)?.focus({ preventScroll: true });
  }, [busy]);
  const extend = (n: number) => {
    refocus.current = extendButton.current;
    void extendKey(key.value, n);
  };
  const act = async (what: Pending) => {
    if (what.kind === 'extend') extend(what.days);
    else if (what.kind === 'reset') {
      refocus.current = resetButton.current;
      void resetHwid(key.value);
    } else {
      // The row after the deleted one takes the focus (the one before it at the end; the search box if none is left).
      const after = rowAfter(key.value);
      if (await deleteKey(key)) focusKeyRow(after);
    }
  };

  // Reset HWID is offered only when there is a machine to unbind; otherwise the reason sits beside the button.
  const noReset =
    key.status !== 'active'
      ? 'Only an active key has an HWID to reset.'
      : key.hwid
        ? null
        : 'Not bound to a machine: there is no HWID to reset.';

  // What the service's dialect leaves out is said, never shown as a blank or a default posing as data.
  const unreported = new Set(key.unreported);
  const told = (field: NonNullable<typeof key.unreported>[number], shown: ReactNode): ReactNode =>
    unreported.has(field) ? <span className="muted">{NOT_REPORTED}</span> : shown;
  const fields: [string, ReactNode][] = [
    [
      'Value',
      <span key="v" className="with-copy">
        <span className="mono">
          <ServiceText text={key.value} />
        </span>
        <CopyButton value={key.value} label={`Copy key ${shownText(key.value)}`} />
      </span>,
    ],
    [
      'Status',
      told('status', <KeyBadges key="s" status={key.status} isPremium={key.isPremium} expiresAt={key.expiresAt} hwid={key.hwid} />),
    ],
    [
      'Note',
      key.note ? (
        <ServiceText key="n" text={key.note} />
      ) : (
        <span key="n" className="muted">
          —
        </span>
      ),
    ],
    ['Premium', key.isPremium ? 'Yes' : 'No'],
    [
      'Any machine',
      key.noHwidValidation === undefined ? <span className="muted">{NOT_REPORTED}</span> : key.noHwidValidation ? 'Yes' : 'No',
    ],
    [
      'Expires',
      key.expiresAt ? (
        <Time key="e" iso={key.expiresAt} />
      ) : key.expiresByDaysKey ? (
        key.daysKey === null ? (
          'Days after activation'
        ) : (
          `${fmt.count(key.daysKey, NOUNS.day)} after activation`
        )
      ) : unreported.has('daysKey') ? (
        `From activation (the number of days is ${NOT_REPORTED})`
      ) : (
        '—'
      ),
    ],
    [
      'HWID',
      key.hwid ? (
        <span key="h" className="with-copy">
          <span className="mono">
            <ServiceText text={key.hwid} />
          </span>
          <CopyButton value={key.hwid} label={`Copy HWID ${shownText(key.hwid)}`} />
        </span>
      ) : (
        // Blank as everywhere else (search results, All keys); the reason Reset HWID is off says "not bound".
        <span key="h" className="muted">
          —
        </span>
      ),
    ],
    ['Created', told('createdAt', <Time key="c" iso={key.createdAt} />)],
    ['Activated', told('activatedAt', <Time key="a" iso={key.activatedAt} />)],
    ['Last HWID reset', told('lastResetAt', <Time key="r" iso={key.lastResetAt} />)],
    [
      'Id',
      told(
        'id',
        <span key="i" className="mono">
          <ServiceText text={key.id} />
        </span>,
      ),
    ],
  ];
  return (
    <aside ref={card} className="card side-panel" aria-label="Key detail">
      <div className="side-panel-head">
        <h2 id="detail-title" ref={heading} tabIndex={-1}>
          Key detail
        </h2>
        <button type="button" className="icon-button" aria-label="Close the key detail" onClick={close}>
          <Icon name="cross" />
        </button>
      </div>
      <p className="read-at">
        <span className="muted">
          Read <Time iso={readAt} mode="relative" />.
        </span>{' '}
        <button
          type="button"
          disabled={readRequest.status === 'loading' || waits}
          aria-describedby={waitsNote}
          onClick={() => void refreshKey(key.value)}
        >
          {readRequest.status === 'loading' ? 'Refreshing…' : 'Refresh'}
        </button>
      </p>
      <RequestFailure request={readRequest} what="Reading the key again" again="refresh" />
      {change && (
        <div className="warning" role="status">
          <p>
            {change.maybe ? `Maybe an earlier answer: a ${change.what} ran` : `An earlier answer: this key ${change.what}`} at{' '}
            <Time iso={change.at} mode="time" />. {lookupTerm ? 'Search again' : 'Refresh'} to see it now.
          </p>
          {lookupTerm && (
            <button
              type="button"
              disabled={searching || waits}
              onClick={() => void runLookup(lookupTerm, useKeydesk.getState().lookupResult?.page ?? 0)}
            >
              Search again
            </button>
          )}
        </div>
      )}
      <dl className="detail">
        {fields.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {error && <FailureMessage failure={error} />}
      <form
        className="inline"
        onSubmit={(e) => {
          e.preventDefault();
          const parsed = schemas.days.safeParse(days.trim() === '' ? undefined : parseWhole(days));
          if (!parsed.success) {
            setDaysError(parsed.error.issues[0]?.message ?? 'Enter a number of days.');
            return;
          }
          setDaysError(null);
          if (parsed.data > LONG_EXTEND_DAYS) setPending({ kind: 'extend', days: parsed.data });
          else extend(parsed.data);
        }}
      >
        <Field
          label="Extend by days"
          inputMode="numeric"
          value={days}
          error={daysError}
          onChange={(e) => {
            setDays(e.target.value);
            setDaysError(null);
          }}
        />
        <button ref={extendButton} type="submit" disabled={busy} aria-describedby={waitsNote}>
          {waiting === 'extend' ? 'Extending…' : 'Extend'}
        </button>
      </form>
      <div className="actions">
        <button
          ref={resetButton}
          type="button"
          disabled={busy || noReset !== null}
          aria-describedby={noReset ? 'reset-hwid-why' : waitsNote}
          onClick={() => setPending({ kind: 'reset' })}
        >
          {waiting === 'reset' ? 'Resetting…' : 'Reset HWID'}
        </button>
        <button
          type="button"
          className="danger"
          disabled={busy}
          aria-describedby={waitsNote}
          onClick={() => setPending({ kind: 'delete' })}
        >
          {waiting === 'delete' ? 'Deleting…' : 'Delete key'}
        </button>
      </div>
      <KeyEdit keyData={key} disabled={busy} />
      <HwidHistory keyValue={key.value} />
      <ServiceWait id="key-waits" what="Acting on this key" />
      {noReset && (
        <p id="reset-hwid-why" className="muted">
          {noReset}
        </p>
      )}
      <ConfirmDialog
        open={pending !== null}
        {...question(pending ?? { kind: 'delete' }, key)}
        onCancel={() => setPending(null)}
        onConfirm={() => {
          const what = pending;
          setPending(null);
          if (what) void act(what);
        }}
      />
    </aside>
  );
}

/** The confirmation for each action the panel asks about. */
function question(what: Pending, key: Key): { title: string; body: string; confirmLabel: string; destructive: boolean } {
  const value = shownText(key.value);
  switch (what.kind) {
    case 'delete':
      return {
        title: 'Delete this key?',
        body: `${value} will stop working at once. This cannot be undone.`,
        confirmLabel: 'Delete',
        destructive: true,
      };
    case 'reset':
      return {
        title: "Reset this key's HWID?",
        body: `${key.hwid ? `${value} is bound to ${shownText(key.hwid)}. ` : ''}The customer's machine is unbound: the next machine to validate this key binds it. The service may not allow another reset for a while.`,
        confirmLabel: 'Reset',
        destructive: true,
      };
    case 'extend':
      return {
        title: `Extend by ${fmt.count(what.days, NOUNS.day)}?`,
        body: `That is about ${fmt.count(Math.round(what.days / 365), NOUNS.year)}: more than ${fmt.count(LONG_EXTEND_DAYS / 365, NOUNS.year)} added to ${value}'s expiry at once.`,
        confirmLabel: `Extend by ${fmt.count(what.days, NOUNS.day)}`,
        destructive: false,
      };
  }
}
