// The linter's house rules (issue 23): chosen for this code base, not a preset wholesale.
// Typed rules run on TypeScript through each package's tsconfig.json (projectService);
// the .mjs scripts, benchmarks and checks get the untyped rules only.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/drizzle/**',
      '.data/**',
      '.turbo/**',
      'coverage/**',
      'demo/test-output/**',
      'services/console/test-output/**',
      'bench/results/**',
      'infra/check/schemas/**',
      'tools/layering/test/fixtures/**',
    ],
  },
  js.configs.recommended,
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        URLSearchParams: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        fetch: 'readonly',
        Response: 'readonly',
        Request: 'readonly',
        Headers: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        crypto: 'readonly',
        structuredClone: 'readonly',
        performance: 'readonly',
        queueMicrotask: 'readonly',
        atob: 'readonly',
        TextDecoderStream: 'readonly',
        btoa: 'readonly',
      },
    },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // CommonJS configuration files (dependency-cruiser reads .cjs).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [tseslint.configs.recommended],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // A promise nobody awaits loses its error (an unhandled rejection kills the process) and its ordering.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false, attributes: false } },
      ],
      '@typescript-eslint/await-thenable': 'error',
      // No unused values; a deliberately unused parameter starts with an underscore.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      'no-unused-expressions': 'off',
      '@typescript-eslint/no-unused-expressions': 'error',
      // Types say what crosses a boundary: no `any` in production code (tests below may use it).
      '@typescript-eslint/no-explicit-any': 'error',
      // One import style, as verbatimModuleSyntax needs: `import { type X }` inline.
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-import-type-side-effects': 'error',
      // Non-null assertions are used where an invariant holds and the comment beside it says why.
      '@typescript-eslint/no-non-null-assertion': 'off',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // A cleanup registered before the resource opens reads the variable first; that `let` is deliberate.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      'no-console': 'off',
    },
  },
  {
    // Tests and their helpers (the kit's testing/ entry included) read loosely typed bodies;
    // vitest fixtures that need no other fixture take an empty pattern by design.
    files: ['**/test/**/*.ts', 'packages/service-kit/src/testing/**/*.ts', 'bench/**/*.ts', 'demo/test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      'no-empty-pattern': 'off',
      // A vitest fixture named in a test's parameters is set up for its effect even when the body never reads it.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { args: 'none', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // The console's browser scripts are typed against the DOM by their own tsconfig (browser/tsconfig.json).
    files: ['services/console/browser/**/*.ts'],
    languageOptions: { globals: { document: 'readonly', window: 'readonly', EventSource: 'readonly' } },
  },
  {
    // The reference relying-party page's script runs in the browser.
    files: ['demo/web/**/*.js'],
    languageOptions: {
      globals: {
        document: 'readonly',
        window: 'readonly',
        navigator: 'readonly',
        location: 'readonly',
        history: 'readonly',
        EventSource: 'readonly',
        FormData: 'readonly',
      },
    },
  },
);
