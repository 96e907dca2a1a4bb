// Builds main, preload and renderer with electron-vite.
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { developmentContentSecurityPolicy, META_CONTENT_SECURITY_POLICY } from './src/main/security.ts';

/** index.html's CSP meta tag, from the one policy in src/main/security.ts; the dev server gets the development one. */
const CSP_PLACEHOLDER = '<!-- keydesk:csp -->';
const cspMeta = (): Plugin => ({
  name: 'keydesk-csp-meta',
  transformIndexHtml: (html, ctx) => {
    const devUrl = ctx.server
      ? (ctx.server.resolvedUrls?.local[0] ?? `http://localhost:${String(ctx.server.config.server.port)}`)
      : undefined;
    const policy = devUrl === undefined ? META_CONTENT_SECURITY_POLICY : developmentContentSecurityPolicy(devUrl, true);
    if (!html.includes(CSP_PLACEHOLDER) || /[&"<>]/.test(policy)) {
      throw new Error(`index.html needs ${CSP_PLACEHOLDER} where the CSP meta tag goes, and the policy must need no escaping.`);
    }
    return html.replace(CSP_PLACEHOLDER, `<meta http-equiv="Content-Security-Policy" content="${policy}" />`);
  },
});

export default defineConfig({
  main: {
    build: {
      // node:sqlite is newer than some bundlers' list of built-ins. Worker threads are entries of their own,
      // out/main/<name>.worker.js, where their owners look for them.
      rollupOptions: {
        input: {
          index: resolve('src/main/index.ts'),
          'writer.worker': resolve('src/main/store/writer.worker.ts'),
          'check.worker': resolve('src/main/store/check.worker.ts'),
          'reader.worker': resolve('src/main/store/reader.worker.ts'),
          'sandbox.worker': resolve('src/main/sandbox.worker.ts'),
        },
        external: ['node:sqlite'],
      },
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
