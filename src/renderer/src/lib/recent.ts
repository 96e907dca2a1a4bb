// Short lists of ids kept in localStorage, newest first, across restarts on this machine: the command palette's
// recently run commands, and the jobs put away (Dismiss) that a reload must not bring back.

/** A list of at most `keep` ids under `key`; storage that refuses reads as empty and forgets. */
function storedIds(key: string, keep: number) {
  const read = (): string[] => {
    try {
      const raw: unknown = JSON.parse(localStorage.getItem(key) ?? '[]');
      return Array.isArray(raw) ? raw.filter((x): x is string => typeof x === 'string').slice(0, keep) : [];
    } catch {
      return [];
    }
  };
  const note = (id: string): string[] => {
    const next = [id, ...read().filter((x) => x !== id)].slice(0, keep);
    try {
      localStorage.setItem(key, JSON.stringify(next));
    } catch {
      // Storage full or refused: the list forgets (a dismissed job comes back after a reload).
    }
    return next;
  };
  return { read, note };
}

export const { read: readRecent, note: noteRecent } = storedIds('keydesk.recentCommands', 5);
export const { read: dismissedJobs, note: noteDismissed } = storedIds('keydesk.dismissedJobs', 50);
