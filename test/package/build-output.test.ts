// What `npm run build` produced, checked as shipped: the sandboxed preload is one small CommonJS file that
// requires nothing but electron, and index.html carries the one CSP (the header's, less frame-ancestors).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, META_CONTENT_SECURITY_POLICY } from '../../src/main/security.ts';
import { ROOT } from '../support/sandbox-process.ts';

const built = (path: string): string => readFileSync(join(ROOT, 'out', path), 'utf8');

describe('the build output', () => {
  it('has a preload that requires only electron and stays small', () => {
    const preload = built('preload/index.cjs');
    const required = [...preload.matchAll(/\brequire\(\s*(["'`])([^"'`]*)\1\s*\)/g)].map((m) => m[2]);
    expect(required).toEqual(['electron']);
    expect(preload).not.toMatch(/\bimport\s*\(|^\s*import\s/m);
    // The names and the builder only: zod (tens of kB) would mean the schemas leaked in.
    expect(preload.length).toBeLessThan(16 * 1024);
    expect(preload).not.toContain('ZodError');
  });

  it('writes the CSP into index.html exactly once, equal to the header policy less frame-ancestors', () => {
    const html = built('renderer/index.html');
    const metas = [...html.matchAll(/<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/gi)].map((m) => m[1]);
    expect(metas).toEqual([META_CONTENT_SECURITY_POLICY]);
    const directives = (policy: string) => policy.split(';').map((d) => d.trim());
    expect(directives(CONTENT_SECURITY_POLICY).filter((d) => !d.startsWith('frame-ancestors'))).toEqual(directives(META_CONTENT_SECURITY_POLICY));
    expect(directives(CONTENT_SECURITY_POLICY)).toContain("frame-ancestors 'none'");
    expect(html.indexOf('<meta charset')).toBeLessThan(html.indexOf('Content-Security-Policy'));
  });
});
