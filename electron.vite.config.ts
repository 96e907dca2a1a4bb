import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

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
    plugins: [react()],
    build: { minify: true, rollupOptions: { input: { index: resolve('src/renderer/index.html') } } },
  },
});
