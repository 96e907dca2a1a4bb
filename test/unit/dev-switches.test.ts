// Development switches with electron mocked: read in a development run, never in a packaged app; and src/main
// reads the environment nowhere else, so a switch added later goes through the same gate.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ROOT } from '../support/sandbox-process.ts';

const electron = vi.hoisted(() => ({ app: { isPackaged: false } }));
vi.mock('electron', () => electron);

const { rendererDevServerUrl } = await import('../../src/main/dev-switches.ts');
const env = { ELECTRON_RENDERER_URL: 'http://evil.example:5173/' };

describe('development switches', () => {
  it('gives the dev server URL to an app that is not packaged', () => {
    electron.app.isPackaged = false;
    expect(rendererDevServerUrl(env)).toBe('http://evil.example:5173/');
    expect(rendererDevServerUrl({})).toBeUndefined();
  });

  it('ignores ELECTRON_RENDERER_URL in a packaged app', () => {
    electron.app.isPackaged = true;
    expect(rendererDevServerUrl(env)).toBeUndefined();
  });

  it('are the only place src/main reads the environment', () => {
    const dir = join(ROOT, 'src/main');
    const readers = readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && readFileSync(join(dir, f), 'utf8').includes('process.env'))
      .map((f) => relative(dir, join(dir, f)));
    expect(readers).toEqual(['dev-switches.ts']);
  });
});
