import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

const PROCESS_WIRING = {
  group: ['**/gateway/**', '**/workers/**', '**/scripts/**'],
  message: 'no process wiring (gateway/, workers/, scripts/) below a composition root',
};
const ACTIVITIES = {
  group: ['**/activities/**'],
  message: 'activities call domain code, never the reverse',
};

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'coverage/', '.data/', '.tools/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // Browser scripts of the web UI.
    files: ['web/**/*.js'],
    languageOptions: {
      globals: {
        window: 'readonly',
        document: 'readonly',
        location: 'readonly',
        localStorage: 'readonly',
        fetch: 'readonly',
        URLSearchParams: 'readonly',
        URL: 'readonly',
        atob: 'readonly',
        TextEncoder: 'readonly',
        Blob: 'readonly',
        ResizeObserver: 'readonly',
        WebSocket: 'readonly',
        Node: 'readonly',
        history: 'readonly',
        confirm: 'readonly',
        alert: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
      },
    },
  },
  {
    // Plain CommonJS helpers (jest reporter, lockfile tool).
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Workflow code is bundled into Temporal's deterministic sandbox: no Node built-ins, no I/O.
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'fs', 'path', 'child_process', 'http', 'net', 'os', 'crypto'],
              message: 'workflows must stay deterministic: no Node built-ins',
            },
            {
              group: [
                '@temporalio/client',
                '@temporalio/worker',
                '@temporalio/activity',
                '@temporalio/testing',
              ],
              message: 'workflows may import only @temporalio/workflow and @temporalio/common',
            },
            {
              // Any depth: each feature's workflows live in their own folder (workflows/analysis/...).
              regex: '^(\\.\\./)+(activities|domain|gateway|workers)/',
              allowTypeImports: true,
              message: 'workflows import only shared/ (and activity types)',
            },
          ],
        },
      ],
    },
  },
  {
    // Layers point down (docs/architecture.md#which-process-loads-what): composition roots live with
    // their process, so neither activities nor domain code reach up into a process's wiring.
    files: ['activities/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [PROCESS_WIRING] }] },
  },
  {
    // Domain code is called by activities, the gateway and the memory service; it never calls back.
    files: ['domain/**/*.ts'],
    ignores: ['domain/pipeline/template/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [PROCESS_WIRING, ACTIVITIES] }] },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            PROCESS_WIRING,
            ACTIVITIES,
            { group: ['**/domain/**'], message: 'shared/ is pure: no domain code' },
          ],
        },
      ],
    },
  },
  {
    files: ['gateway/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/workers/**'],
              message:
                'the gateway and memory service do not load the worker: wire what they use in gateway/',
            },
            {
              group: ['**/activities/**'],
              message: 'the gateway calls domain/ directly; activities run only in the worker',
            },
          ],
        },
      ],
    },
  },
  {
    // No import cycles (docs/architecture.md): a cycle hides which module needs which, and breaks
    // when a bundler or the workflow sandbox loads them in another order.
    files: ['**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // What the product runs never loads a development script (test/unit/import-graph.test.ts also
    // checks requires, and circles through type imports, which no-cycle lets through).
    files: [
      'activities/**/*.ts',
      'domain/**/*.ts',
      'gateway/**/*.ts',
      'schedules/**/*.ts',
      'shared/**/*.ts',
      'workers/**/*.ts',
      'workflows/**/*.ts',
    ],
    rules: {
      // A function fits on a screen (docs/architecture.md#function-size): past 80 lines, split it into
      // named parts.
      'max-lines-per-function': ['error', { max: 80, IIFEs: true }],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportDeclaration[source.value=/(^|\\/)scripts\\//]',
          message: 'production code imports nothing from scripts/ (move the helper to shared/)',
        },
      ],
    },
  },
);
