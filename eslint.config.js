import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'test-results/', 'bench/results/', 'web/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Type-aware rules for the TypeScript sources: each file is checked with the tsconfig that owns it
    // (the root one, e2e/ or web/), found by the project service.
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A promise nobody awaits or catches loses its error (an unhandled rejection ends the process).
      '@typescript-eslint/no-floating-promises': 'error',
      // An async function where a void callback is expected (an event handler, a forEach) drops its promise.
      '@typescript-eslint/no-misused-promises': 'error',
      // Awaiting a value that is not a promise is a mistake about what a call returns.
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    // ES modules on Node: its globals without CommonJS's (require, __dirname ...), which do not exist there.
    files: ['src/**', 'test/**', 'bench/**', 'scripts/**', 'e2e/**', 'web/vite.config.ts', '*.ts', '*.js'],
    languageOptions: { globals: globals.nodeBuiltin },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    // The rules of hooks. The plugin's React Compiler rules (refs, set-state-in-effect ...) are left out:
    // the UI is not compiled by the React Compiler, and they reject patterns it uses on purpose (the
    // latest handler kept in a ref written during render, see ui/commands.ts).
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // Preact, which the UI runs on (web/vite.config.ts), leaves autoFocus to the browser, which does not
      // act on it for elements added later: an element is focused by code when it appears.
      'no-restricted-syntax': ['error', { selector: "JSXAttribute[name.name='autoFocus']", message: 'Focus the element in an effect: Preact does not act on autoFocus.' }],
    },
  },
  {
    // CommonJS scripts (the bin): Node's require, which an ES module entry would make Node's module loader pay for.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
);
