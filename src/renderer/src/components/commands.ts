// Every command the palette offers: each view, and every action a person might look for by name.
import { useMemo } from 'react';
import { activityFilter, activityService } from '../lib/text.ts';
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

/** How many frames a command waits for the view it opened to render what it focuses. */
const RENDER_FRAMES = 30;

/** Calls `focus` on the element `find` returns once the view has rendered it (a few frames at most). */
function focusWhenShown(find: () => HTMLElement | null, frames = RENDER_FRAMES) {
  requestAnimationFrame(() => {
    const el = find();
    if (el) {
      // A heading is not a Tab stop; it takes the focus from a script only (tabindex -1), so the reader starts there.
      if (el.tabIndex < 0 && !el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
      el.focus();
    } else if (frames > 0) focusWhenShown(find, frames - 1);
  });
}

/** Opens a view and focuses the field marked `data-command-target`, else the view's `<h1 id="{view}-title">`. */
export function openAt(setView: (v: ViewName) => void, view: ViewName, target?: string) {
  setView(view);
  focusWhenShown(() =>
    target === undefined
      ? document.getElementById(`${view}-title`)
      : document.querySelector<HTMLElement>(`[data-command-target="${target}"]`),
  );
}

export function useCommands(): Command[] {
  const setView = useKeydesk((s) => s.setView);
  const setOpen = useKeydesk((s) => s.setPaletteOpen);
  const setShortcutsOpen = useKeydesk((s) => s.setShortcutsOpen);
  const pushExecution = useKeydesk((s) => s.pushExecution);
  const refreshExecutions = useKeydesk((s) => s.refreshExecutions);
  const exportLedger = useKeydesk((s) => s.exportLedger);
  const exportAudit = useKeydesk((s) => s.exportAudit);
  const generateTestKey = useKeydesk((s) => s.generateTestKey);
  const selectProfile = useKeydesk((s) => s.selectProfile);
  const profiles = useKeydesk((s) => s.profiles);
  const activeProfileId = useKeydesk((s) => s.activeProfileId);
  const openDataFolder = useKeydesk((s) => s.openDataFolder);

  return useMemo<Command[]>(() => {
    // Every command closes the palette first, so the toasts and dialogs it leads to are not behind it.
    const close = () => setOpen(false);
    const action = (id: string, label: string, keywords: string, fn: () => unknown, group: Command['group'] = 'Actions'): Command => ({
      id,
      label,
      group,
      keywords,
      run: () => {
        close();
        void fn();
      },
    });
    return [
      action('generate', 'Generate keys…', 'new create keys', () => openAt(setView, 'keys', 'generate')),
      action('find-key', 'Find a key…', 'search lookup hwid note', () => openAt(setView, 'keys', 'lookup')),
      action('validate', 'Validate a key…', 'check activate hwid test', () => openAt(setView, 'validate', 'validate')),
      action('add-keyless', 'Add a keyless entry…', 'hwid whitelist authorize', () => openAt(setView, 'keyless', 'add-keyless')),
      action('push', 'Push +1 execution', 'count increment', pushExecution),
      action('refresh-count', 'Refresh the execution count', 'reload executions', refreshExecutions),
      action('export-csv', 'Export All keys as CSV (its current filter)', 'download save ledger', () => exportLedger('csv')),
      action('export-json', 'Export All keys as JSON (its current filter)', 'download save ledger', () => exportLedger('json')),
      action('check-identifier', 'Check a service identifier…', 'identifier exists taken free service', () =>
        openAt(setView, 'identifier', 'identifier'),
      ),
      ...(['csv', 'json'] as const).map((format) =>
        action(
          `export-activity-${format}`,
          `Export Activity as ${format.toUpperCase()} (its current filter)`,
          'download save audit log operations',
          () => {
            // The filter the Activity view shows (kept in its drafts), so the file is what that list shows.
            const { drafts, activeProfileId: active, profiles: listed } = useKeydesk.getState();
            const service = activityService(drafts['activity.service'] ?? '', active, listed);
            return exportAudit(activityFilter(drafts['activity.text'] ?? '', drafts['activity.outcome'] ?? '', service), format);
          },
        ),
      ),
      action('test-key', 'Make an integration test key', 'integration test key snippet new', () => {
        openAt(setView, 'integration');
        if (activeProfileId !== null) void generateTestKey(activeProfileId);
      }),
      action('theme', 'Change the theme (light, dark, system)…', 'settings appearance dark mode light mode colour', () =>
        openAt(setView, 'settings', 'theme'),
      ),
      action('sandbox-port', "Change the local sandbox's port…", 'settings sandbox port address 8787', () =>
        openAt(setView, 'settings', 'sandbox-port'),
      ),
      action('open-data-folder', 'Open the data folder', 'settings files folder user data', openDataFolder),
      action('shortcuts', 'Show keyboard shortcuts', 'keys help ? keyboard', () => setShortcutsOpen(true)),
      action('add-service', 'Add a remote service…', 'profile new api key', () => openAt(setView, 'profiles', 'add-profile')),
      ...profiles
        .filter((p) => p.id !== activeProfileId)
        .map((p) =>
          action(
            `switch:${p.id}`,
            `Switch to ${p.name}`,
            'profile service use',
            // The view starts afresh on the new service: its heading takes the focus once it has.
            () => selectProfile(p.id).then(() => openAt(setView, useKeydesk.getState().view)),
            'Services',
          ),
        ),
      ...VIEWS.map((v) => action(`view:${v.view}`, `Go to ${v.label}`, v.summary, () => openAt(setView, v.view), 'Views')),
    ];
  }, [
    setView,
    setOpen,
    setShortcutsOpen,
    profiles,
    activeProfileId,
    selectProfile,
    pushExecution,
    refreshExecutions,
    exportLedger,
    exportAudit,
    generateTestKey,
    openDataFolder,
  ]);
}

/** The view a query names, whole ("go to all keys") or by a unique start ("all k"), so Enter goes there, not to an action. */
function namedView(commands: readonly Command[], query: string): Command | null {
  const q = query
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/^go to\s*/, '');
  if (q === '') return null;
  const views = commands.filter((c) => c.group === 'Views').map((c) => ({ c, name: c.label.replace(/^Go to /, '').toLowerCase() }));
  const exact = views.find((v) => v.name === q);
  if (exact) return exact.c;
  const prefix = views.filter((v) => v.name.startsWith(q));
  return prefix.length === 1 ? (prefix[0]?.c ?? null) : null;
}

/** Commands whose label or keywords hold every word typed, labels first; the named view, then recent ones, lead. */
export function rankCommands(
  commands: readonly Command[],
  query: string,
  recent: readonly string[],
): { named: Command | null; recent: Command[]; rest: Command[] } {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const named = namedView(commands, query);
  const score = (c: Command): number => {
    if (c === named) return 0;
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
  return { named, recent: recentHits.map((x) => x.c), rest: rest.map((x) => x.c) };
}
