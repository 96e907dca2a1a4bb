import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { META_CONTENT_SECURITY_POLICY } from './src/main/security.ts';

/** index.html's CSP meta tag, written from the one policy in src/main/security.ts (the header's). */
const CSP_PLACEHOLDER = '<!-- keydesk:csp -->';
const cspMeta = (): Plugin => ({
  name: 'keydesk-csp-meta',
  transformIndexHtml: (html) => {
    if (!html.includes(CSP_PLACEHOLDER) || /[&"<>]/.test(META_CONTENT_SECURITY_POLICY)) {
      throw new Error(`index.html needs ${CSP_PLACEHOLDER} where the CSP meta tag goes, and the policy must need no escaping.`);
    }
    return html.replace(CSP_PLACEHOLDER, `<meta http-equiv="Content-Security-Policy" content="${META_CONTENT_SECURITY_POLICY}" />`);
  },
});

export default defineConfig({
  main: {
    build: {
      // node:sqlite is newer than some bundlers' list of Node built-ins: keep it external explicitly.
      rollupOptions: { input: { index: resolve('src/main/index.ts') }, external: ['node:sqlite'] },
    },
  },
  preload: {
    build: {
      // A sandboxed preload can only be a single CommonJS file that requires nothing but electron.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    plugins: [cspMeta(), react()],
    build: { minify: true, rollupOptions: { input: { index: resolve('src/renderer/index.html') } } },
  },
});
