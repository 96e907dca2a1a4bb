// One row of All keys' grid: a key as the ledger last saw it, with the marks of what was never read back.
import { memo, type MouseEvent } from 'react';
import type { LedgerRow } from '../../../../shared/domain.ts';
import { isExpired } from '../../components/Badge.tsx';
import { ServiceText } from '../../components/ServiceText.tsx';
import { fmt, NOUNS } from '../../lib/format.ts';
import { shownText } from '../../lib/text.ts';
import { useKeydesk } from '../../store/index.ts';
import type { RowMenuAt } from './RowMenu.tsx';
import { STALE_EXPIRY, STALE_HWID, STALE_STATUS, STATUS_WORD } from './wording.ts';

/** A value from before an act whose outcome never came back: marked "⚠ … · not read back", the sentence in its title. */
function NotReadBack({ shown, sentence, before }: { shown: string; sentence: string; before: string }) {
  return (
    <span className="not-read-back" title={`${sentence} ${before}`}>
      {shown}
      <span aria-hidden="true"> · not read back</span>
      <span className="visually-hidden"> ({sentence})</span>
    </span>
  );
}

/** A date (with a clock badge once passed), or a days key's term: "+45 days" on screen, read out whole. */
function Expiry({ row }: { row: LedgerRow }) {
  // A deleted key expires never again: the expiry it had is shown muted as past ("was …"), so the Expires sort,
  // which orders by it, reads true, and nothing shows it as current.
  if (row.status === 'deleted') {
    return (
      <span className="muted" title={row.expiresAt ? `Expiry when deleted: ${row.expiresAt}` : undefined}>
        {row.expiresAt ? `was ${fmt.date(row.expiresAt)}` : row.daysKey === null ? '—' : `was +${fmt.count(row.daysKey, NOUNS.day)}`}
        <span className="visually-hidden"> (deleted)</span>
      </span>
    );
  }
  if (row.expiryStale) {
    // Extended on the service (or perhaps: no answer came), and the new expiry never came back: the date is the one
    // seen before, and says so.
    return (
      <NotReadBack
        shown={row.expiresAt ? fmt.date(row.expiresAt) : '—'}
        sentence={STALE_EXPIRY}
        before={`Expiry seen before: ${row.expiresAt ?? 'none'}`}
      />
    );
  }
  if (row.expiresAt) {
    // Plain text and CSS marks in the grid's rows: a keystroke re-renders every row on screen.
    return isExpired(row.expiresAt) ? (
      <span className="expired" title={`Expired: ${row.expiresAt}`}>
        {fmt.date(row.expiresAt)}
        <span className="visually-hidden"> (expired)</span>
      </span>
    ) : (
      <span title={row.expiresAt}>{fmt.date(row.expiresAt)}</span>
    );
  }
  if (row.daysKey === null) return '—';
  const days = fmt.number(row.daysKey);
  return (
    <span title={`${fmt.count(row.daysKey, NOUNS.day)} from activation`}>
      <span aria-hidden="true">+{fmt.count(row.daysKey, NOUNS.day)}</span>
      <span className="visually-hidden">{days} days from activation</span>
    </span>
  );
}

/** Picks a row: a plain click toggles it; with Shift, every loaded row from the last pick to this one. */
export type Pick = (index: number, value: string, shift: boolean, selected: boolean) => void;

/**
 * One row; only the row with the table's Tab stop has its checkbox in the Tab order (arrows move, Space ticks).
 * A click opens its key; in the checkbox's cell, or with Shift, Ctrl or Cmd, it picks the row instead.
 * Memoised: a filter keystroke keeps the rows shown (dimmed) until its answer, so they need no new render.
 */
export const Row = memo(function Row({
  row,
  index,
  top,
  onPick,
  onOpen,
  onMenu,
  tabbable,
  now,
}: {
  row: LedgerRow | undefined;
  index: number;
  top: number;
  onPick: Pick;
  onOpen: (value: string) => void;
  onMenu: (at: RowMenuAt) => void;
  tabbable: boolean;
  /** The grid's clock, for "Last checked"; a check newer than its last tick reads as now. */
  now: number;
}) {
  const selected = useKeydesk((s) => (row ? s.selectedAll !== null || s.selection.has(row.value) : false));
  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    if (!row || (e.target as HTMLElement).closest('.check, .row-menu-button')) return;
    if (e.shiftKey || e.ctrlKey || e.metaKey) onPick(index, row.value, e.shiftKey, !selected);
    // A drag that selected text to copy is not a click on the row.
    else if (!window.getSelection()?.toString()) onOpen(row.value);
  };
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      className={row ? 'vrow opens' : 'vrow'}
      style={{ transform: `translateY(${top}px)` }}
      aria-selected={selected}
      onClick={onClick}
      onContextMenu={(e) => {
        if (!row) return;
        e.preventDefault();
        onMenu({ row, index, x: e.clientX, y: e.clientY });
      }}
    >
      <div role="gridcell" className="vcell check">
        {row && (
          <input
            type="checkbox"
            aria-label={`Select ${shownText(row.value)}`}
            data-row={index}
            tabIndex={tabbable ? 0 : -1}
            checked={selected}
            onChange={() => {
              // The click handler does the work: it alone sees the Shift key.
            }}
            onClick={(e) => onPick(index, row.value, e.shiftKey, !selected)}
          />
        )}
      </div>
      {row ? (
        <>
          {/* Cut long text is seen whole in Keys (a click or Enter opens the key there). */}
          <div role="gridcell" className="vcell mono">
            <ServiceText text={row.value} more={false} />
          </div>
          <div role="gridcell" className="vcell status">
            {row.statusStale ? (
              <NotReadBack
                shown={STATUS_WORD[row.status]}
                sentence={STALE_STATUS}
                before={`Status seen before: ${STATUS_WORD[row.status]}`}
              />
            ) : (
              <span className={`badge mark mark-${row.status}`}>{STATUS_WORD[row.status]}</span>
            )}
          </div>
          {/* The Premium filter's own words: a star is not the only mark. */}
          <div role="gridcell" className="vcell">
            {row.isPremium ? <span className="badge mark mark-premium">Premium</span> : <span className="muted">Standard</span>}
          </div>
          <div role="gridcell" className="vcell" title={row.note ? shownText(row.note) : undefined}>
            {row.note ? <ServiceText text={row.note} more={false} /> : <span className="muted">—</span>}
          </div>
          <div role="gridcell" className="vcell hwid" title={row.hwidStale || !row.hwid ? undefined : shownText(row.hwid)}>
            {row.hwid && row.hwidStale ? (
              <NotReadBack shown={shownText(row.hwid)} sentence={STALE_HWID} before={`HWID seen before: ${shownText(row.hwid)}`} />
            ) : row.hwid ? (
              <span className="bound">
                <ServiceText text={row.hwid} more={false} />
              </span>
            ) : (
              <span className="muted">—</span>
            )}
          </div>
          <div role="gridcell" className="vcell">
            <Expiry row={row} />
          </div>
          <div role="gridcell" className="vcell" title={row.createdAt ?? undefined}>
            {row.createdAt ? fmt.date(row.createdAt) : '—'}
          </div>
          <div role="gridcell" className="vcell" title={`Last checked ${row.lastSeenAt}`}>
            {fmt.relative(row.lastSeenAt, Math.max(now, Date.parse(row.lastSeenAt)))}
          </div>
          <div role="gridcell" className="vcell menu">
            <button
              type="button"
              className="row-menu-button"
              tabIndex={-1}
              aria-haspopup="menu"
              aria-label={`Actions for ${shownText(row.value)}`}
              onClick={(e) => {
                const b = e.currentTarget.getBoundingClientRect();
                onMenu({ row, index, x: b.left, y: b.bottom });
              }}
            >
              ⋯
            </button>
          </div>
        </>
      ) : (
        <div role="gridcell" className="vcell muted">
          Loading…
        </div>
      )}
    </div>
  );
});
