import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({ protocol: {} }));
const { resolveInside } = await import('../../src/main/protocol.ts');

describe('app scheme file resolution', () => {
  it('serves files inside the renderer folder and index.html for /', () => {
    expect(resolveInside('/app/renderer', '/')).toBe('/app/renderer/index.html');
    expect(resolveInside('/app/renderer', '/assets/index.js')).toBe('/app/renderer/assets/index.js');
  });
  it('refuses paths that climb out, encoded or not', () => {
    for (const p of ['/../main/index.js', '/%2e%2e/%2e%2e/etc/passwd', '/assets/../../x', '/%E0%A4%A']) {
      expect(resolveInside('/app/renderer', p)).toBeNull();
    }
  });
});
