// The test projects, one per layer; run one with `npx vitest run --project NAME`.
import { defineConfig } from 'vitest/config';

// On a loaded shared machine a timeout only catches a hang, never measures speed (that is `npm run bench`).
const patient = { testTimeout: 120_000, hookTimeout: 120_000, expect: { poll: { timeout: 30_000 } } };

export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    // Off in `npm test` (it slows CI); `npm run coverage` turns it on for every project.
    // A failed test still reports the figure: one flaky file should not hide the rest's coverage.
    coverage: { provider: 'v8', include: ['src/**'], reporter: ['text-summary', 'json-summary'], reportOnFailure: true },
    projects: [
      { test: { ...patient, name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'sandbox',
          include: ['test/sandbox/**/*.test.ts'],
          environment: 'node',
          // These suites start real sandbox processes; on a 2-core machine run files one at a time.
          fileParallelism: false,
          ...patient,
        },
      },
      {
        // The renderer's store against a fake bridge typed by the contract.
        test: { ...patient, name: 'renderer', include: ['test/renderer/**/*.test.ts'], environment: 'node' },
      },
      {
        // Renderer components in jsdom with React Testing Library: what a person sees, presses and hears.
        test: {
          ...patient,
          name: 'components',
          include: ['test/components/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['test/components/setup.ts'],
        },
      },
      {
        // The main process's core in plain Node: real sandbox, real keychain where one answers.
        test: { ...patient, name: 'main', include: ['test/main/**/*.test.ts'], environment: 'node' },
      },
      {
        // Chromium through the harness; needs the built renderer (npm test builds first).
        test: {
          ...patient,
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        // Real Electron, wherever its binary exists; reports itself skipped, with the reason, elsewhere.
        test: { ...patient, name: 'electron', include: ['test/electron/**/*.test.ts'], environment: 'node' },
      },
      {
        test: { ...patient, name: 'package', include: ['test/package/**/*.test.ts'], environment: 'node', testTimeout: 300_000 },
      },
    ],
  },
});
