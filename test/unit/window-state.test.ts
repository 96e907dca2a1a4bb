// Placing a remembered window on the displays there are now, and reading the remembered state back.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  loadWindowState,
  parseWindowState,
  placeWindow,
  saveWindowState,
  WINDOW_STATE_FILE,
  type Rect,
} from '../../src/main/window-state.ts';
import { tempDir } from '../support/temp-dir.ts';

const limits = { width: 1280, height: 800, minWidth: 960, minHeight: 600 };
// Work areas: a 1920x1040 primary (a taskbar below), and a 2560x1400 monitor to its right.
const primary: Rect = { x: 0, y: 0, width: 1920, height: 1040 };
const right: Rect = { x: 1920, y: 0, width: 2560, height: 1400 };
const inside = (r: Rect, area: Rect): boolean =>
  r.x >= area.x && r.y >= area.y && r.x + r.width <= area.x + area.width && r.y + r.height <= area.y + area.height;

describe('placeWindow', () => {
  it('keeps a window fully on a display where it was', () => {
    const saved = { x: 100, y: 50, width: 1400, height: 900 };
    expect(placeWindow(saved, [primary, right], limits)).toEqual(saved);
  });

  it('opens at the default size, centred, when nothing was saved', () => {
    expect(placeWindow(null, [primary, right], limits)).toEqual({ x: 320, y: 120, width: 1280, height: 800 });
  });

  it('brings a window saved entirely off-screen back to the primary display', () => {
    const placed = placeWindow({ x: 9000, y: 9000, width: 1200, height: 700 }, [primary], limits);
    expect(placed).toEqual({ x: 320, y: 120, width: 1280, height: 800 });
  });

  it('moves a partly visible window onto its main display', () => {
    const placed = placeWindow({ x: 1500, y: 600, width: 1000, height: 700 }, [primary], limits);
    expect(placed).toEqual({ x: 920, y: 340, width: 1000, height: 700 });
    expect(inside(placed, primary)).toBe(true);
  });

  it('reopens on the primary display when its monitor is gone', () => {
    const onRight = { x: 2500, y: 200, width: 1600, height: 1000 };
    expect(inside(placeWindow(onRight, [primary, right], limits), right)).toBe(true);
    const placed = placeWindow(onRight, [primary], limits);
    expect(inside(placed, primary)).toBe(true);
    expect(placed).toEqual({ x: 320, y: 120, width: 1280, height: 800 });
  });

  it('shrinks a window bigger than its display to the work area', () => {
    const small: Rect = { x: 0, y: 0, width: 1366, height: 728 };
    expect(placeWindow({ x: -50, y: -50, width: 3000, height: 2000 }, [small], limits)).toEqual(small);
    // A display smaller than the minimum: the window fits the display rather than hanging off it.
    const tiny: Rect = { x: 0, y: 0, width: 800, height: 560 };
    expect(placeWindow({ x: 0, y: 0, width: 1000, height: 700 }, [tiny], limits)).toEqual(tiny);
    expect(placeWindow({ x: 10, y: 10, width: 300, height: 200 }, [primary], limits)).toEqual({ x: 10, y: 10, width: 960, height: 600 });
  });

  it('honours displays at negative coordinates', () => {
    const left: Rect = { x: -1600, y: -200, width: 1600, height: 900 };
    const saved = { x: -1500, y: -100, width: 1200, height: 700 };
    expect(placeWindow(saved, [primary, left], limits)).toEqual(saved);
    // Hanging off the left monitor's top-left corner: pulled in to its corner, not to (0, 0).
    expect(placeWindow({ x: -1700, y: -300, width: 1200, height: 700 }, [primary, left], limits)).toEqual({
      x: -1600,
      y: -200,
      width: 1200,
      height: 700,
    });
  });

  it('with several displays, picks the one showing most of the window', () => {
    // 300 px on the primary, 900 px on the right monitor: it goes to the right one.
    const placed = placeWindow({ x: 1620, y: 100, width: 1200, height: 800 }, [primary, right], limits);
    expect(placed).toEqual({ x: 1920, y: 100, width: 1200, height: 800 });
    expect(inside(placed, right)).toBe(true);
  });

  it('rounds fractional bounds (scaled displays) to whole pixels', () => {
    expect(placeWindow({ x: 10.4, y: 20.6, width: 1000.5, height: 700.2 }, [primary], limits)).toEqual({
      x: 10,
      y: 21,
      width: 1001,
      height: 700,
    });
  });
});

describe('window state file', () => {
  it('round-trips the bounds, treating a damaged file as no state', () => {
    const dir = tempDir('keydesk-window-');
    expect(loadWindowState(dir)).toBeNull();
    const state = { bounds: { x: -20, y: 30, width: 1300, height: 820 }, maximized: true };
    saveWindowState(dir, state);
    expect(loadWindowState(dir)).toEqual(state);
    expect(JSON.parse(readFileSync(join(dir, WINDOW_STATE_FILE), 'utf8'))).toEqual(state);
    writeFileSync(join(dir, WINDOW_STATE_FILE), '{"bounds":');
    expect(loadWindowState(dir)).toBeNull();
  });

  it('refuses bounds that are not four finite numbers with a positive size', () => {
    for (const text of [
      'null',
      '[]',
      '{"bounds":{"x":0,"y":0,"width":100},"maximized":false}',
      '{"bounds":{"x":0,"y":0,"width":0,"height":100},"maximized":false}',
      '{"bounds":{"x":"0","y":0,"width":100,"height":100},"maximized":false}',
      '{"bounds":{"x":0,"y":0,"width":100,"height":100},"maximized":"yes"}',
      '{"bounds":{"x":1e999,"y":0,"width":100,"height":100},"maximized":false}',
    ]) {
      expect(parseWindowState(text), text).toBeNull();
    }
    expect(parseWindowState('{"bounds":{"x":0,"y":0,"width":100,"height":100},"maximized":false}')).toEqual({
      bounds: { x: 0, y: 0, width: 100, height: 100 },
      maximized: false,
    });
  });
});
