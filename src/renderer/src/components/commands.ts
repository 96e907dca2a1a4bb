// Every command the palette offers: each view, and every action a person might look for by name.
import { useMemo } from 'react';
import { useKeydesk } from '../store/index.ts';
import { VIEWS, type ViewName } from '../views/registry.ts';

export interface Command {
  /** Stable across runs: recent commands are remembered by it. */
  id: string;
  label: string;
  group: 'Actions' | 'Views' | 'Services';
  /** Other words someone might type for it. */
  keywords?: string;
  run: () => void;
}

/**
 * Opens a view and puts the cursor in the field an action starts with. Fields opt in with a
 * `data-command-target` attribute; the view renders on the next frame.
 */
function openAt(setView: (v: ViewName) => void, view: ViewName, target?: string) {
  setView(view);
  if (target === undefined) return;
  requestAnimationFrame(() => {
    requestAnimationFrame(() => {
      document.querySelector<HTMLElement>(`[data-command-target="${target}"]`)?.focus();
    });
  });
}

export function useCommands(): Command[] {
  const setView = useKeydesk((s) => s.setView);
  const setOpen = useKeydesk((s) => s.setPaletteOpen);
  const pushExecution = useKeydesk((s) => s.pushExecution);
  const refreshExecutions = useKeydesk((s) => s.refreshExecutions);
  const exportLedger = useKeydesk((s) => s.exportLedger);
  const selectProfile = useKeydesk((s) => s.selectProfile);
  const profiles = useKeydesk((s) => s.profiles);
  const activeProfileId = useKeydesk((s) => s.activeProfileId);

  return useMemo<Command[]>(() => {
    // Every command closes the palette first, so the toasts and dialogs it leads to are not behind it.
    const close = () => {
      setOpen(false);
    };
    const action = (id: string, label: string, keywords: string, fn: () => unknown): Command => ({
      id,
      label,
      group: 'Actions',
      keywords,
      run: () => {
        close();
        void fn();
      },
    });
    return [
      action('generate', 'Generate keys…', 'new create keys', () => { openAt(setView, 'keys', 'generate'); }),
      action('find-key', 'Find a key…', 'search lookup hwid note', () => { openAt(setView, 'keys', 'lookup'); }),
      action('validate', 'Validate a key…', 'check activate hwid test', () => { openAt(setView, 'validate', 'validate'); }),
      action('add-keyless', 'Add a keyless entry…', 'hwid whitelist authorize', () => { openAt(setView, 'keyless', 'add-keyless'); }),
      action('push', 'Push +1 execution', 'count increment', pushExecution),
      action('refresh-count', 'Refresh the execution count', 'reload executions', refreshExecutions),
      action('export-csv', 'Export All keys as CSV (its current filter)', 'download save ledger', () => exportLedger('csv')),
      action('export-json', 'Export All keys as JSON (its current filter)', 'download save ledger', () => exportLedger('json')),
      action('add-service', 'Add a remote service…', 'profile new api key', () => { openAt(setView, 'profiles', 'add-profile'); }),
      ...profiles
        .filter((p) => p.id !== activeProfileId)
        .map((p): Command => ({ ...action(`switch:${p.id}`, `Switch to ${p.name}`, 'profile service use', () => selectProfile(p.id)), group: 'Services' })),
      ...VIEWS.map((v): Command => ({
        id: `view:${v.view}`,
        label: `Go to ${v.label}`,
        group: 'Views',
        keywords: v.summary,
        run: () => {
          close();
          setView(v.view);
        },
      })),
    ];
  }, [setView, setOpen, profiles, activeProfileId, selectProfile, pushExecution, refreshExecutions, exportLedger]);
}

/** Commands whose label or keywords contain every word typed, labels matching first; recent ones lead. */
export function rankCommands(commands: readonly Command[], query: string, recent: readonly string[]): { recent: Command[]; rest: Command[] } {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const score = (c: Command): number => {
    if (words.length === 0) return 1;
    const label = c.label.toLowerCase();
    const all = `${label} ${c.keywords?.toLowerCase() ?? ''}`;
    if (!words.every((w) => all.includes(w))) return 0;
    return words.every((w) => label.includes(w)) ? (label.startsWith(words[0] ?? '') || label.includes(` ${words[0] ?? ''}`) ? 3 : 2) : 1;
  };
  const matching = commands.map((c) => ({ c, s: score(c) })).filter((x) => x.s > 0);
  const byRecent = new Map(recent.map((id, i) => [id, i]));
  const recentHits = matching.filter((x) => byRecent.has(x.c.id)).sort((a, b) => (byRecent.get(a.c.id) ?? 0) - (byRecent.get(b.c.id) ?? 0));
  const rest = matching.filter((x) => !byRecent.has(x.c.id)).sort((a, b) => b.s - a.s);
  return { recent: recentHits.map((x) => x.c), rest: rest.map((x) => x.c) };
}
