import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'test-results/', 'bench/results/', 'web/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // CommonJS scripts (the bin): Node's require, which an ES module entry would make Node's module loader pay for.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', __filename: 'readonly', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    languageOptions: {
      globals: {
        process: 'readonly', console: 'readonly', Buffer: 'readonly', setTimeout: 'readonly',
        clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', URL: 'readonly',
        setImmediate: 'readonly', AbortController: 'readonly', fetch: 'readonly', TextDecoder: 'readonly',
        TextEncoder: 'readonly', window: 'readonly', document: 'readonly', navigator: 'readonly',
        localStorage: 'readonly', location: 'readonly', history: 'readonly', EventSource: 'readonly',
        requestAnimationFrame: 'readonly', cancelAnimationFrame: 'readonly', HTMLElement: 'readonly',
        queueMicrotask: 'readonly', structuredClone: 'readonly', performance: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
);
