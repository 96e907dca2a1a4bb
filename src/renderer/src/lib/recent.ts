// The command palette's recently run commands, newest first, remembered across restarts on this machine.
const STORAGE_KEY = 'keydesk.recentCommands';
const KEEP = 5;

export function readRecent(): string[] {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(raw) ? raw.filter((x): x is string => typeof x === 'string').slice(0, KEEP) : [];
  } catch {
    return [];
  }
}

export function noteRecent(id: string): string[] {
  const next = [id, ...readRecent().filter((x) => x !== id)].slice(0, KEEP);
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
  } catch {
    // Storage full or refused: the palette still works, it just forgets.
  }
  return next;
}
