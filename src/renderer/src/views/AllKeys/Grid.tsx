// All keys' grid: a window of rows over the ledger's pages (never more than MAX_DOM_ROWS in the DOM), its sortable
// header, and the keys and clicks that move between rows, tick them, open a key in Keys and copy it.
import { useCallback, useEffect, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import type { LedgerRow, LedgerSortField } from '../../../../shared/domain.ts';
import { ariaSort, HeaderCheckbox, SortButton } from '../../components/DataTable.tsx';
import { TICK_MS } from '../../components/Time.tsx';
import { copyToClipboard } from '../../lib/clipboard.ts';
import { shownText } from '../../lib/text.ts';
import { useKeydesk } from '../../store/index.ts';
import { LEDGER_PAGE } from '../../store/ledger.ts';
import type { LedgerSlice } from '../../store/types.ts';
import { Row, type Pick } from './Row.tsx';
import { RowMenu, type RowMenuAt } from './RowMenu.tsx';
import { COLUMNS } from './wording.ts';

export const ROW_HEIGHT = 34;
const OVERSCAN = 6;
/** Never more rows in the DOM than this, whatever the window size. */
export const MAX_DOM_ROWS = 60;
/** The tallest scroll range the grid makes: Chromium caps an element at 33,554,428 px (986,000 rows). */
export const MAX_SCROLL_HEIGHT = 10_000_000;

/**
 * The scroll range for `rowCount` rows in a viewport `height` tall: capped at MAX_SCROLL_HEIGHT, past which the
 * scrolled pixels are scaled to the rows' own (`virtual`), so the range's end is the last row.
 */
export function scrollScale(rowCount: number, height: number) {
  const full = rowCount * ROW_HEIGHT;
  const range = Math.min(full, MAX_SCROLL_HEIGHT);
  const ratio = full > range && range > height ? (full - height) / (range - height) : 1;
  return { range, virtual: (scrollTop: number) => scrollTop * ratio, scrollTop: (virtual: number) => virtual / ratio };
}

/** The grid's last measured height: opening All keys again renders its rows once, not once more when measured. */
let lastHeight = 400;

/** Where the grid is scrolled, how tall it is, and the row holding its one Tab stop. */
export function useGridPlace() {
  const viewport = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(lastHeight);
  // The row holding the table's one Tab stop; arrows move it, and focus follows once that row is rendered.
  const [cursor, setCursor] = useState(0);
  useEffect(() => {
    const el = viewport.current;
    if (!el) return;
    const measure = () => {
      lastHeight = el.clientHeight;
      setHeight(lastHeight);
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  // A new filter or sort starts at the top; a refresh after a bulk action keeps the place.
  const toTop = () => {
    // Setting scrollTop lays the page out at once: skipped when it is at the top already (a keystroke in the filter).
    if (viewport.current && viewport.current.scrollTop !== 0) viewport.current.scrollTop = 0;
    setScrollTop(0);
    setCursor(0);
  };
  /** Scrolls row `index` of `rowCount` into view. */
  const reveal = (index: number, rowCount: number) => {
    const el = viewport.current;
    if (!el) return;
    const scale = scrollScale(rowCount, el.clientHeight);
    const seen = scale.virtual(el.scrollTop);
    const top = index * ROW_HEIGHT;
    // Rounded towards the row, so a scaled range never leaves it cut at the viewport's edge.
    if (top < seen) el.scrollTop = Math.floor(scale.scrollTop(top));
    else if (top + ROW_HEIGHT > seen + el.clientHeight) el.scrollTop = Math.ceil(scale.scrollTop(top + ROW_HEIGHT - el.clientHeight));
    setScrollTop(el.scrollTop);
  };
  return { viewport, scrollTop, setScrollTop, height, cursor, setCursor, toTop, reveal };
}
export type GridPlace = ReturnType<typeof useGridPlace>;

/**
 * The rows in the DOM (`first` to `last`, with some above and below) and those on screen, for `rowCount` rows;
 * row i sits at `i * ROW_HEIGHT + shift` in the scroll range.
 */
export function gridWindow(place: { scrollTop: number; height: number }, rowCount: number) {
  const seen = scrollScale(rowCount, place.height).virtual(place.scrollTop);
  const first = Math.max(0, Math.floor(seen / ROW_HEIGHT) - OVERSCAN);
  const visible = Math.min(MAX_DOM_ROWS, Math.ceil(place.height / ROW_HEIGHT) + 2 * OVERSCAN);
  return {
    first,
    last: Math.min(rowCount, first + visible),
    shownFirst: Math.min(rowCount, Math.floor(seen / ROW_HEIGHT)),
    shownLast: Math.min(rowCount, Math.ceil((seen + place.height) / ROW_HEIGHT)),
    shift: place.scrollTop - seen,
  };
}

export function LedgerGrid({
  place,
  pages,
  rowCount,
  ariaRowCount,
  capped,
  loading,
  stale,
  sort,
  onSort,
  shownValues,
  shownState,
}: {
  place: GridPlace;
  pages: ReadonlyMap<number, LedgerRow[]>;
  rowCount: number;
  ariaRowCount: number;
  capped: boolean;
  loading: boolean;
  stale: boolean;
  sort: LedgerSlice['ledgerSort'];
  onSort: (field: LedgerSortField) => void;
  shownValues: string[];
  shownState: 'none' | 'some' | 'all';
}) {
  const { viewport, height, cursor, setCursor, setScrollTop } = place;
  const notify = useKeydesk((s) => s.notify);
  const selectedAll = useKeydesk((s) => s.selectedAll !== null);
  const setSelected = useKeydesk((s) => s.setSelected);
  const clear = useKeydesk((s) => s.clearSelection);
  const anchor = useRef<number | null>(null);
  const focusCursor = useRef(false);
  const { first, last, shownFirst, shownLast, shift } = gridWindow(place, rowCount);
  const rowAt = (i: number): LedgerRow | undefined => pages.get(Math.floor(i / LEDGER_PAGE))?.[i % LEDGER_PAGE];
  const onPick = useCallback<Pick>(
    (index, value, shift, selected) => {
      if (shift && anchor.current !== null) {
        const [a, b] = anchor.current < index ? [anchor.current, index] : [index, anchor.current];
        const values: string[] = [];
        for (let i = a; i <= b; i++) {
          const r = pages.get(Math.floor(i / LEDGER_PAGE))?.[i % LEDGER_PAGE];
          if (r) values.push(r.value);
        }
        setSelected(values, selected);
      } else setSelected([value], selected);
      anchor.current = index;
      setCursor(index);
    },
    [pages, setSelected, setCursor],
  );

  const open = useCallback((value: string) => void useKeydesk.getState().openKey(value), []);
  const [menu, setMenu] = useState<RowMenuAt | null>(null);
  const onMenu = useCallback(
    (at: RowMenuAt) => {
      setCursor(at.index);
      setMenu(at);
    },
    [setCursor, setMenu],
  );
  // Closed by a key or an item, the menu gives the focus back to its row; a press elsewhere leaves it there.
  const closeMenu = useCallback(
    (refocus: boolean) => {
      setMenu(null);
      focusCursor.current = refocus;
    },
    [setMenu],
  );
  // "Last checked" is said again as time passes (rows are memoised, so they re-render on this tick alone).
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  // The Key column is as wide as the longest value seen in the window so far: never cut, and steady as it scrolls.
  const [keyCh, setKeyCh] = useState(12);
  // Another service: its keys, not the last one's, size the Key column, and a menu open on the last one's key closes.
  const profileId = useKeydesk((s) => s.activeProfileId);
  const [shownFor, setShownFor] = useState(profileId);
  if (shownFor !== profileId) {
    setShownFor(profileId);
    setMenu(null);
    setKeyCh(12);
  }
  useEffect(() => {
    anchor.current = null;
  }, [profileId]);
  let widest = keyCh;
  const rows = [];
  // The Tab stop stays on the cursor row while it is rendered, else on the first row shown (the table scrolled away).
  const stop = cursor >= first && cursor < last && rowAt(cursor) ? cursor : shownFirst;
  for (let i = first; i < last; i++) {
    widest = Math.max(widest, rowAt(i)?.value.length ?? 0);
    rows.push(
      <Row
        key={i}
        index={i}
        top={i * ROW_HEIGHT + shift}
        row={rowAt(i)}
        onPick={onPick}
        onOpen={open}
        onMenu={onMenu}
        tabbable={i === stop}
        now={now}
      />,
    );
  }
  // Kept, so a narrower window of rows later leaves the column as it was (set in render: React redoes it at once).
  if (widest > keyCh) setKeyCh(widest);
  useEffect(() => {
    if (!focusCursor.current) return;
    const box = viewport.current?.querySelector<HTMLInputElement>(`input[data-row="${String(cursor)}"]`);
    if (box) {
      focusCursor.current = false;
      box.focus({ preventScroll: true });
    }
  });
  // When the exact count replaces a capped one, a place at the capped range's end (End, a drag) moves to the true end.
  const before = useRef({ capped, rowCount, atEnd: false, cursorAtEnd: false });
  useEffect(() => {
    const was = before.current;
    if (was.capped && !capped && was.atEnd && rowCount > was.rowCount) {
      place.reveal(rowCount - 1, rowCount);
      if (was.cursorAtEnd) {
        focusCursor.current = viewport.current?.contains(document.activeElement) === true;
        setCursor(rowCount - 1);
      }
    }
    before.current = { capped, rowCount, atEnd: shownLast >= rowCount, cursorAtEnd: cursor === rowCount - 1 };
  });
  /** Arrow keys, Page Up/Down, Home and End move between rows; the row scrolls into view and takes focus. */
  const onGridKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const from = Number((e.target as HTMLElement).dataset.row ?? Number.NaN);
    if (Number.isNaN(from)) return;
    const focused = rowAt(from);
    // Shift+F10 or the menu key opens the row's own menu, beside its "⋯" button.
    if (focused && ((e.shiftKey && e.key === 'F10') || e.key === 'ContextMenu')) {
      e.preventDefault();
      const button = (e.target as HTMLElement).closest('[role="row"]')?.querySelector('.row-menu-button')?.getBoundingClientRect();
      onMenu({ row: focused, index: from, x: button?.left ?? 0, y: button?.bottom ?? 0 });
      return;
    }
    // Enter opens the focused row's key in Keys: looked up on the service, with its detail panel (its actions).
    if (e.key === 'Enter' && focused) {
      e.preventDefault();
      void useKeydesk.getState().openKey(focused.value);
      return;
    }
    // Ctrl/Cmd+C copies the focused row's key (with Shift: its HWID), as a spreadsheet copies its cell.
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'c' && focused) {
      e.preventDefault();
      const what = e.shiftKey ? focused.hwid : focused.value;
      const value = shownText(focused.value);
      const asked = e.shiftKey ? `Copy the HWID of key ${value}` : `Copy key ${value}`;
      if (what === null) {
        notify('error', `${asked}: it is not bound to a machine, so there is no HWID to copy.`);
        return;
      }
      void copyToClipboard(what, asked, `Copied ${e.shiftKey ? 'the HWID of ' : ''}${value}.`, notify);
      return;
    }
    const page = Math.max(1, Math.floor(height / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = {
      ArrowDown: from + 1,
      ArrowUp: from - 1,
      PageDown: from + page,
      PageUp: from - page,
      Home: 0,
      End: rowCount - 1,
    };
    const to = moves[e.key];
    if (to === undefined || rowCount === 0) return;
    e.preventDefault();
    const next = Math.min(rowCount - 1, Math.max(0, to));
    place.reveal(next, rowCount);
    focusCursor.current = true;
    setCursor(next);
  };

  return (
    <div
      role="grid"
      aria-label="All keys"
      aria-describedby="ledger-sort"
      aria-keyshortcuts="Enter Control+C Meta+C Control+Shift+C Meta+Shift+C Shift+F10"
      aria-rowcount={ariaRowCount}
      aria-busy={loading}
      className={stale ? 'vgrid stale' : 'vgrid'}
      style={{ '--key-ch': widest } as CSSProperties}
    >
      <div role="row" aria-rowindex={1} className="vhead">
        <div role="columnheader" className="vcell check">
          <HeaderCheckbox
            label="Select every row on screen"
            state={shownState}
            onChange={(all) => {
              if (!all && selectedAll) clear();
              else setSelected(shownValues, all);
              anchor.current = null;
            }}
          />
        </div>
        {COLUMNS.map((c) => (
          <div key={c.label} role="columnheader" className="vcell" title={c.title} aria-sort={ariaSort(sort, c.field ?? undefined)}>
            {c.field ? <SortButton label={c.label} field={c.field} sort={sort} onSort={(f) => onSort(f as LedgerSortField)} /> : c.label}
          </div>
        ))}
        <div role="columnheader" className="vcell">
          <span className="visually-hidden">Actions</span>
        </div>
      </div>
      <div
        ref={viewport}
        className="vbody"
        role="rowgroup"
        // Focusable for scrolling only while no row holds the Tab stop (none loaded yet).
        tabIndex={rowAt(stop) ? -1 : 0}
        aria-label="Rows"
        onKeyDown={onGridKey}
        onScroll={(e) => {
          setScrollTop(e.currentTarget.scrollTop);
          if (menu) setMenu(null);
        }}
      >
        <div style={{ height: scrollScale(rowCount, height).range, position: 'relative' }}>{rows}</div>
      </div>
      {menu && (
        <RowMenu
          at={menu}
          onOpen={(value, ask) => {
            setMenu(null);
            void useKeydesk.getState().openKey(value, ask);
          }}
          onClose={closeMenu}
        />
      )}
    </div>
  );
}
