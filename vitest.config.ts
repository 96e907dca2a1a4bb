import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'sandbox',
          include: ['test/sandbox/**/*.test.ts'],
          environment: 'node',
          // These suites start real sandbox processes; on a 2-core machine run files one at a time.
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The renderer's store against a fake bridge typed by the contract.
        test: { name: 'renderer', include: ['test/renderer/**/*.test.ts'], environment: 'node' },
      },
      {
        // Renderer components in jsdom with React Testing Library: what a person sees, presses and hears.
        test: { name: 'components', include: ['test/components/**/*.test.tsx'], environment: 'jsdom', setupFiles: ['test/components/setup.ts'] },
      },
      {
        // The main process's core in plain Node: real sandbox, real keychain where one answers.
        test: { name: 'main', include: ['test/main/**/*.test.ts'], environment: 'node', testTimeout: 30_000 },
      },
      {
        // Chromium through the harness; needs the built renderer (npm test builds first).
        test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], environment: 'node', testTimeout: 60_000, hookTimeout: 60_000, fileParallelism: false },
      },
      {
        // Real Electron, wherever its binary exists; reports itself skipped, with the reason, elsewhere.
        test: { name: 'electron', include: ['test/electron/**/*.test.ts'], environment: 'node', testTimeout: 60_000 },
      },
      {
        test: { name: 'package', include: ['test/package/**/*.test.ts'], environment: 'node', testTimeout: 180_000 },
      },
    ],
  },
});
