// A row's own actions in All keys (its "⋯" button, a right-click, Shift+F10): copy here; extend, reset and delete
// open the key in Keys, where its panel asks them with its own confirmations.
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { LedgerRow } from '../../../../shared/domain.ts';
import { copyToClipboard } from '../../lib/clipboard.ts';
import { shownText } from '../../lib/text.ts';
import { useKeydesk } from '../../store/index.ts';
import type { KeyAsk } from '../../store/types.ts';

/** Where a row's menu opens: beside its "⋯" button, or at the pointer of a right-click. */
export type RowMenuAt = { row: LedgerRow; index: number; x: number; y: number };

export function RowMenu({
  at,
  onOpen,
  onClose,
}: {
  at: RowMenuAt;
  onOpen: (value: string, ask?: KeyAsk) => void;
  onClose: (refocus: boolean) => void;
}) {
  const notify = useKeydesk((s) => s.notify);
  const menu = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState(at.y);
  const { row } = at;
  const value = shownText(row.value);
  const deleted = row.status === 'deleted';
  const copy = (what: string, asked: string, done: string) => void copyToClipboard(what, asked, done, notify);
  const items: { label: string; disabled?: boolean; run: () => void }[] = [
    { label: 'Open in Keys', run: () => onOpen(row.value) },
    { label: 'Copy key', run: () => copy(row.value, `Copy key ${value}`, `Copied ${value}.`) },
    ...(row.hwid
      ? [{ label: 'Copy HWID', run: () => copy(row.hwid ?? '', `Copy the HWID of key ${value}`, `Copied the HWID of ${value}.`) }]
      : []),
    { label: 'Extend…', disabled: deleted, run: () => onOpen(row.value, 'extend') },
    // As the ledger last saw it: only an active key bound to a machine has an HWID to reset.
    { label: 'Reset HWID…', disabled: row.status !== 'active' || !row.hwid, run: () => onOpen(row.value, 'reset') },
    { label: 'Delete…', disabled: deleted, run: () => onOpen(row.value, 'delete') },
  ];

  // Inside the window: a menu opened near its bottom edge opens upwards.
  useLayoutEffect(() => {
    const h = menu.current?.offsetHeight ?? 0;
    setTop(at.y + h > window.innerHeight - 4 ? Math.max(4, at.y - h) : at.y);
    menu.current?.querySelector<HTMLButtonElement>('button:not([disabled])')?.focus();
  }, [at]);
  // A press anywhere else closes it.
  useEffect(() => {
    const away = (e: PointerEvent) => {
      if (!menu.current?.contains(e.target as Node)) onClose(false);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [onClose]);

  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const buttons = [...(menu.current?.querySelectorAll<HTMLButtonElement>('button:not([disabled])') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const to: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: buttons.length - 1 };
    if (e.key === 'Escape' || e.key === 'Tab') {
      e.preventDefault();
      e.stopPropagation();
      onClose(true);
    } else if (to[e.key] !== undefined && buttons.length > 0) {
      e.preventDefault();
      buttons[((to[e.key] ?? 0) + buttons.length) % buttons.length]?.focus();
    }
  };

  return (
    <div
      ref={menu}
      role="menu"
      aria-label={`Actions for ${value}`}
      className="row-menu"
      style={{ left: Math.min(at.x, window.innerWidth - 200), top }}
      onKeyDown={onKey}
    >
      {items.map((item) => (
        <button
          key={item.label}
          type="button"
          role="menuitem"
          disabled={item.disabled}
          onClick={() => {
            onClose(true);
            item.run();
          }}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}
