import { describe, expect, it } from 'vitest';
import { contentType, resolveInside } from '../../src/main/static-files.ts';

describe('app scheme file resolution', () => {
  it('serves files inside the renderer folder and index.html for /', () => {
    expect(resolveInside('/app/renderer', '/')).toBe('/app/renderer/index.html');
    expect(resolveInside('/app/renderer', '/assets/index.js')).toBe('/app/renderer/assets/index.js');
  });
  it('names the content types the renderer build contains', () => {
    expect(contentType('/a/index.html')).toBe('text/html; charset=utf-8');
    expect(contentType('/a/x.js')).toBe('text/javascript; charset=utf-8');
    expect(contentType('/a/x.bin')).toBe('application/octet-stream');
  });
  it('refuses paths that climb out, encoded or not', () => {
    for (const p of ['/../main/index.js', '/%2e%2e/%2e%2e/etc/passwd', '/assets/../../x', '/%E0%A4%A']) {
      expect(resolveInside('/app/renderer', p)).toBeNull();
    }
  });
});
