// The main window's size, position and maximised state, remembered across runs in userData/window-state.json,
// and placed whole on a display there is now.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  bounds: Rect;
  maximized: boolean;
}

export interface SizeLimits {
  width: number;
  height: number;
  minWidth: number;
  minHeight: number;
}

export const WINDOW_STATE_FILE = 'window-state.json';

const overlapArea = (a: Rect, b: Rect): number => {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
};

const centredIn = (area: Rect, width: number, height: number): Rect => ({
  x: area.x + Math.floor((area.width - width) / 2),
  y: area.y + Math.floor((area.height - height) / 2),
  width,
  height,
});

/** Where to open: on the display showing most of the saved bounds, fitted in; else the default size on `workAreas[0]`. */
export function placeWindow(saved: Rect | null, workAreas: readonly Rect[], limits: SizeLimits): Rect {
  const primary = workAreas[0];
  if (primary === undefined) return saved ?? { x: 0, y: 0, width: limits.width, height: limits.height };
  let best: Rect | null = null;
  let bestArea = 0;
  if (saved) {
    for (const area of workAreas) {
      const overlap = overlapArea(saved, area);
      if (overlap > bestArea) {
        best = area;
        bestArea = overlap;
      }
    }
  }
  const fit = (size: number, min: number, available: number): number => Math.min(Math.max(size, min), available);
  if (saved === null || best === null) {
    return centredIn(primary, fit(limits.width, limits.minWidth, primary.width), fit(limits.height, limits.minHeight, primary.height));
  }
  const width = fit(Math.round(saved.width), limits.minWidth, best.width);
  const height = fit(Math.round(saved.height), limits.minHeight, best.height);
  const x = Math.min(Math.max(Math.round(saved.x), best.x), best.x + best.width - width);
  const y = Math.min(Math.max(Math.round(saved.y), best.y), best.y + best.height - height);
  return { x, y, width, height };
}

const isRect = (v: unknown): v is Rect => {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  return (
    (['x', 'y', 'width', 'height'] as const).every((k) => typeof r[k] === 'number' && Number.isFinite(r[k])) &&
    (r.width as number) > 0 &&
    (r.height as number) > 0
  );
};

/** The saved state, or null when there is none or it is not ours to trust (a bad file just means defaults). */
export function parseWindowState(text: string): WindowState | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { bounds, maximized } = value as Record<string, unknown>;
  return isRect(bounds) && typeof maximized === 'boolean' ? { bounds, maximized } : null;
}

export function loadWindowState(userDataDir: string): WindowState | null {
  try {
    return parseWindowState(readFileSync(join(userDataDir, WINDOW_STATE_FILE), 'utf8'));
  } catch {
    return null;
  }
}

/** Written whole or not at all: a crash mid-write leaves the previous state. */
export function saveWindowState(userDataDir: string, state: WindowState): void {
  const file = join(userDataDir, WINDOW_STATE_FILE);
  writeFileSync(`${file}.tmp`, JSON.stringify(state));
  renameSync(`${file}.tmp`, file);
}
