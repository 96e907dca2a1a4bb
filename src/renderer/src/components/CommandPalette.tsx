import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { noteRecent, readRecent } from '../lib/recent.ts';
import { useKeydesk } from '../store/index.ts';
import { rankCommands, useCommands, type Command } from './commands.ts';
import { useCustomerCommands } from './customer-commands.ts';
import { EmptyState } from './EmptyState.tsx';

interface Section {
  title: string;
  commands: Command[];
}

/** Ctrl/Cmd+K: every view and action as an ARIA 1.2 combobox (focus stays in the box, aria-activedescendant); recent first. */
export function CommandPalette() {
  const open = useKeydesk((s) => s.paletteOpen);
  const setOpen = useKeydesk((s) => s.setPaletteOpen);
  const commands = useCommands();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [recent, setRecent] = useState<string[]>([]);
  const dialog = useRef<HTMLDialogElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const customers = useCustomerCommands(query);

  const sections = useMemo<Section[]>(() => {
    const ranked = rankCommands(commands, query, recent);
    const out: Section[] = [];
    if (ranked.named) out.push({ title: 'View', commands: [ranked.named] });
    if (ranked.recent.length > 0) out.push({ title: 'Recent', commands: ranked.recent });
    if (query.trim() !== '') {
      if (ranked.rest.length > 0) out.push({ title: 'Matches', commands: ranked.rest });
      if (customers.length > 0) out.push({ title: 'Customers', commands: customers });
      return out;
    }
    for (const group of ['Actions', 'Services', 'Views'] as const) {
      const inGroup = ranked.rest.filter((c) => c.group === group);
      if (inGroup.length > 0) out.push({ title: group, commands: inGroup });
    }
    return out;
  }, [commands, customers, query, recent]);
  const flat = sections.flatMap((s) => s.commands);
  const current = flat[Math.min(active, flat.length - 1)];
  const optionId = (c: Command) => `${id}-option-${c.id}`;

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) {
      setQuery('');
      setActive(0);
      setRecent(readRecent());
      d.showModal();
      input.current?.focus();
    }
    if (!open && d.open) d.close();
  }, [open]);

  // The active option stays in view as the arrows move it. Closed, nothing: scrollIntoView lays the page out at once,
  // and the palette renders with every view's change.
  useEffect(() => {
    if (!open || !current) return;
    list.current?.querySelector(`[id="${CSS.escape(optionId(current))}"]`)?.scrollIntoView({ block: 'nearest' });
  });

  const run = (c: Command) => {
    setRecent(noteRecent(c.id));
    c.run();
  };
  const move = (to: number) => {
    if (flat.length === 0) return;
    setActive(((to % flat.length) + flat.length) % flat.length);
  };

  return (
    <dialog
      ref={dialog}
      className="dialog palette"
      aria-label="Command palette"
      onCancel={() => setOpen(false)}
      onClose={() => {
        if (open) setOpen(false);
      }}
    >
      <input
        ref={input}
        role="combobox"
        aria-label="Search commands"
        aria-expanded={flat.length > 0}
        aria-controls={flat.length > 0 ? `${id}-list` : undefined}
        aria-autocomplete="list"
        aria-activedescendant={current ? optionId(current) : undefined}
        placeholder="Type a command or a view…"
        autoComplete="off"
        spellCheck={false}
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={(e) => {
          // Home and End stay with the text box, as the ARIA pattern for an editable combobox has it.
          const keys: Record<string, () => void> = {
            ArrowDown: () => move(active + 1),
            ArrowUp: () => move(active - 1),
            PageDown: () => move(Math.min(flat.length - 1, active + 8)),
            PageUp: () => move(Math.max(0, active - 8)),
            Enter: () => {
              if (current) run(current);
            },
          };
          const handler = keys[e.key];
          if (handler) {
            e.preventDefault();
            handler();
          }
        }}
      />
      {flat.length > 0 && (
        <div ref={list} id={`${id}-list`} role="listbox" aria-label="Commands" className="palette-list">
          {sections.map((s) => (
            <div key={s.title} role="group" aria-labelledby={`${id}-group-${s.title}`}>
              <div role="presentation" id={`${id}-group-${s.title}`} className="palette-group">
                {s.title}
              </div>
              {s.commands.map((c) => {
                const index = flat.indexOf(c);
                return (
                  <div
                    key={c.id}
                    id={optionId(c)}
                    role="option"
                    aria-selected={c === current}
                    className="palette-option"
                    onMouseMove={() => {
                      if (index !== active) setActive(index);
                    }}
                    onMouseDown={(e) => e.preventDefault()}
                    onClick={() => run(c)}
                  >
                    {c.label}
                  </div>
                );
              })}
            </div>
          ))}
        </div>
      )}
      {flat.length === 0 && (
        <EmptyState title={`No command matches “${query.trim()}”`} icon="command">
          Try a view’s name, or words like “generate”, “validate”, “export” or “switch”.
        </EmptyState>
      )}
      <p className="palette-hint" aria-hidden="true">
        <kbd>↑</kbd> <kbd>↓</kbd> to move · <kbd>Enter</kbd> to run · <kbd>Esc</kbd> to close
      </p>
    </dialog>
  );
}
