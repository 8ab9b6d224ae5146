// ESLint (flat config) for the package: its modules and bin run in Node and
// in browsers (index.mjs, lib/), its tests in Node under Jest. The Emscripten
// output (dist/) is generated. scripts/test runs it (`npm run lint` here).
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['node_modules/', 'dist/', 'build*/'] },
  js.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2024, sourceType: 'module', globals: { ...globals.node, ...globals.browser } },
    rules: {
      'max-len': ['error', { code: 120, ignoreUrls: true }],
      // { dropped, ...rest } is how the tests leave fields out of a comparison.
      'no-unused-vars': ['error', { args: 'after-used', caughtErrors: 'none', ignoreRestSiblings: true }],
      'prefer-const': 'error',
      'no-var': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  { files: ['test/**/*.mjs'], languageOptions: { globals: { ...globals.jest } } },
];
