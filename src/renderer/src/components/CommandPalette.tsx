import { useEffect, useMemo, useRef, useState } from 'react';
import { useKeydesk } from '../store/index.ts';
import { VIEWS } from '../views/registry.ts';


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
  const refreshExecutions = useKeydesk((s) => s.refreshExecutions);
  const exportLedger = useKeydesk((s) => s.exportLedger);
  const selectProfile = useKeydesk((s) => s.selectProfile);
  const profiles = useKeydesk((s) => s.profiles);
  const activeProfileId = useKeydesk((s) => s.activeProfileId);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const dialog = useRef<HTMLDialogElement>(null);

  const commands = useMemo<Command[]>(() => {
    // Actions close the palette first, so their toasts and dialogs are not behind it.
    const action = (label: string, fn: () => unknown): Command => ({
      label,
      run: () => {
        setOpen(false);
        void fn();
      },
    });
    return [
      ...VIEWS.map((v) => ({ label: `Go to ${v.label}`, run: () => { setView(v.view); } })),
      ...profiles.filter((p) => p.id !== activeProfileId).map((p) => action(`Switch to ${p.name}`, () => selectProfile(p.id))),
      action('Push +1 execution', pushExecution),
      action('Refresh the execution count', refreshExecutions),
      action('Export All keys (its current filter) as CSV', () => exportLedger('csv')),
      action('Export All keys (its current filter) as JSON', () => exportLedger('json')),
    ];
  }, [setView, setOpen, profiles, activeProfileId, selectProfile, pushExecution, refreshExecutions, exportLedger]);
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
