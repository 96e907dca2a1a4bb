import { useEffect, useMemo, useRef, useState } from 'react';
import { useKeydesk, type ViewName } from '../store/index.ts';

export const VIEWS: { view: ViewName; label: string }[] = [
  { view: 'overview', label: 'Overview' },
  { view: 'keys', label: 'Keys' },
  { view: 'ledger', label: 'All keys' },
  { view: 'keyless', label: 'Keyless' },
  { view: 'identifier', label: 'Identifier check' },
  { view: 'validate', label: 'Validate & HWID' },
  { view: 'profiles', label: 'Profiles' },
  { view: 'activity', label: 'Activity' },
];

interface Command {
  label: string;
  run: () => void;
}

/** Ctrl/Cmd+K: every view and the common actions, filtered as you type; Enter runs, Esc closes. */
export function CommandPalette() {
  const open = useKeydesk((s) => s.paletteOpen);
  const setOpen = useKeydesk((s) => s.setPaletteOpen);
  const setView = useKeydesk((s) => s.setView);
  const pushExecution = useKeydesk((s) => s.pushExecution);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const dialog = useRef<HTMLDialogElement>(null);

  const commands = useMemo<Command[]>(
    () => [
      ...VIEWS.map((v) => ({ label: `Go to ${v.label}`, run: () => { setView(v.view); } })),
      { label: 'Push +1 execution', run: () => { void pushExecution(); setOpen(false); } },
    ],
    [setView, pushExecution, setOpen],
  );
  const shown = commands.filter((c) => c.label.toLowerCase().includes(query.trim().toLowerCase()));

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) {
      setQuery('');
      setActive(0);
      d.showModal();
    }
    if (!open && d.open) d.close();
  }, [open]);

  return (
    <dialog ref={dialog} className="dialog palette" aria-label="Command palette" onCancel={() => { setOpen(false); }}>
      <input
        aria-label="Search commands"
        placeholder="Type a command…"
        value={query}
        autoFocus
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') setActive((a) => Math.min(a + 1, shown.length - 1));
          if (e.key === 'ArrowUp') setActive((a) => Math.max(a - 1, 0));
          if (e.key === 'Enter') shown[active]?.run();
        }}
      />
      <ul role="listbox" aria-label="Commands">
        {shown.map((c, i) => (
          <li key={c.label} role="option" aria-selected={i === active} onClick={c.run}>
            {c.label}
          </li>
        ))}
      </ul>
    </dialog>
  );
}
