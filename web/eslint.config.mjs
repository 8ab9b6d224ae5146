// ESLint (flat config) for the playground: the page (browser modules), the
// server, the bundle runner, the gallery build and the browser tests (Node).
// scripts/test runs it (`npm run lint` here).
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['node_modules/', 'artifacts/'] },
  js.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2024, sourceType: 'module' },
    rules: {
      'max-len': ['error', { code: 120, ignoreUrls: true }],
      'no-unused-vars': ['error', { args: 'after-used', caughtErrors: 'none' }],
      'prefer-const': 'error',
      'no-var': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  { files: ['src/**/*.mjs'], languageOptions: { globals: globals.browser } },
  // link-flow.mjs and session-codec.mjs also run in Node (replays, tests).
  {
    files: ['src/link-flow.mjs', 'src/session-codec.mjs'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
  { files: ['*.mjs', 'server/**/*.mjs', 'examples/**/*.mjs'], languageOptions: { globals: globals.node } },
  // Tests run in Node and hand functions to the page (page.evaluate).
  { files: ['test/**/*.mjs'], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
];
