// The sheet of every keyboard shortcut in the app: opened by `?` (never while typing) or from the command palette.
import { Fragment, useEffect, useRef } from 'react';
import { useKeydesk } from '../store/index.ts';

/** Where a key press is text being typed, not a shortcut (a ticked row's checkbox is not). */
const TYPING =
  'textarea, select, [contenteditable="true"], input:not([type="checkbox"], [type="radio"], [type="button"], [type="submit"], [type="reset"])';

/** Each place's shortcuts: the keys (any one of them) and what they do. */
const SHORTCUTS: { where: string; keys: [string[], string][] }[] = [
  {
    where: 'Anywhere',
    keys: [
      [['Ctrl+K'], 'Open the command palette (Cmd+K on a Mac)'],
      [['?'], 'Show these shortcuts'],
      [['Esc'], 'Close a dialog, the palette, the open key or the open job'],
    ],
  },
  {
    where: 'Command palette',
    keys: [
      [['↑', '↓'], 'Move between commands'],
      [['Enter'], 'Run the command'],
    ],
  },
  {
    where: 'All keys table',
    keys: [
      [['↑', '↓', 'Page Up', 'Page Down'], 'Move between rows'],
      [['Home', 'End'], 'Go to the first or last row'],
      [['Space'], 'Tick the row'],
      [['Shift+Space'], 'Tick every row from the last one ticked'],
      [['Enter'], 'Open the key in Keys (a click does too)'],
      [['Shift+F10'], "Open the row's menu (a right-click does too)"],
      [['Ctrl+C'], 'Copy the key (Cmd+C on a Mac)'],
      [['Ctrl+Shift+C'], 'Copy its HWID'],
    ],
  },
  { where: 'Key panel', keys: [[['Tab'], 'Move between its fields and buttons']] },
];

export function ShortcutsSheet() {
  const open = useKeydesk((s) => s.shortcutsOpen);
  const setOpen = useKeydesk((s) => s.setShortcutsOpen);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target instanceof Element ? e.target : null;
      if (e.key !== '?' || e.ctrlKey || e.metaKey || e.altKey || target?.closest(TYPING) || document.querySelector('dialog[open]')) return;
      e.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setOpen]);

  useEffect(() => {
    const d = dialog.current;
    if (open && d && !d.open) d.showModal();
    if (!open && d?.open) d.close();
  }, [open]);

  return (
    <dialog
      ref={dialog}
      className="dialog shortcuts"
      aria-labelledby="shortcuts-title"
      onCancel={() => setOpen(false)}
      onClose={() => {
        if (open) setOpen(false);
      }}
    >
      <div className="shortcuts-head">
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <button type="button" autoFocus onClick={() => setOpen(false)}>
          Close
        </button>
      </div>
      {SHORTCUTS.map((s) => (
        <section key={s.where} aria-label={s.where}>
          <h3>{s.where}</h3>
          <dl>
            {s.keys.map(([keys, what]) => (
              <div key={what}>
                <dt>
                  {keys.map((k, i) => (
                    <Fragment key={k}>
                      {i > 0 && ' '}
                      <kbd>{k}</kbd>
                    </Fragment>
                  ))}
                </dt>
                <dd>{what}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </dialog>
  );
}
