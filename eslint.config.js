// Type-aware lint that also enforces the layering: src/shared imports nothing platform-specific, the renderer
// nothing of Node or Electron, and the sandbox nothing of Electron or main.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { noImportCycle } from './scripts/no-import-cycle.js';

const nodeOnly = ['electron', 'keytar', 'undici', 'node-machine-id', 'node:*', 'fs', 'path', 'os', 'crypto', 'http', 'child_process'];
const restrict = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
});

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'packages/*/dist/**', 'node_modules/**', '.tmp/**', 'test-results/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      'no-console': 'off',
    },
  },
  {
    plugins: { keydesk: { rules: { 'no-import-cycle': noImportCycle } } },
    rules: { 'keydesk/no-import-cycle': 'error' },
  },
  { files: ['**/*.js'], extends: [tseslint.configs.disableTypeChecked] },
  {
    // Tests index into results they have just asserted on; a failing `!` there fails the test, which is the point.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    files: ['src/shared/**'],
    rules: restrict(
      [...nodeOnly, 'react', 'react-dom', 'zustand', '**/main/**', '**/renderer/**', '**/sandbox/**', '**/preload/**'],
      'src/shared is the contract: it imports no platform, UI or process code.',
    ),
  },
  {
    files: ['src/sandbox/**'],
    rules: restrict(
      ['electron', 'keytar', 'react', 'react-dom', 'zustand', '**/main/**', '**/renderer/**', '**/preload/**'],
      'The sandbox runs in plain Node: it may import src/shared and Node built-ins only.',
    ),
  },
  {
    files: ['src/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...restrict(
        [...nodeOnly, '**/main/**', '**/sandbox/**', '**/preload/**'],
        'The renderer reaches the main process only through lib/api.ts and window.keydesk.',
      ),
    },
  },
);
