// Lint configuration. The one rule that matters most: raft/core stays pure and synchronous
// (no I/O, clocks, timers, randomness or async), so a simulation seed replays exactly.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const impureGlobals = ['setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'process', 'performance', 'fetch', 'crypto'].map(
  (name) => ({ name, message: 'raft/core is pure: time, I/O and randomness come in as inputs.' }),
);

export default tseslint.config(
  { ignores: ['node_modules/**', '.orch/**', '.scratch/**', 'bench/results/**', 'dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['raft/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['node:*', 'fs', 'net', 'http', 'http2', 'https', 'crypto', 'os', 'child_process', 'dgram', 'dns', 'tls', 'worker_threads', 'timers', 'perf_hooks'], message: 'raft/core imports no I/O or nondeterminism.' }, { group: ['../*', '!../core/*'], message: 'raft/core imports only itself.' }] }],
      'no-restricted-globals': ['error', ...impureGlobals],
      'no-restricted-properties': ['error',
        { object: 'Math', property: 'random', message: 'Randomness is injected (config.random).' },
        { object: 'Date', property: 'now', message: 'Time is counted in ticks.' },
        { object: 'performance', property: 'now', message: 'Time is counted in ticks.' }],
      'no-restricted-syntax': ['error',
        { selector: 'NewExpression[callee.name="Date"]', message: 'Time is counted in ticks.' },
        { selector: 'CallExpression[callee.name="Date"]', message: 'Time is counted in ticks.' },
        { selector: ':function[async=true]', message: 'raft/core is synchronous.' },
        { selector: 'AwaitExpression', message: 'raft/core is synchronous.' },
        { selector: 'Identifier[name="Promise"]', message: 'raft/core is synchronous.' },
        { selector: 'ImportExpression', message: 'raft/core has no dynamic imports.' }],
    },
  },
);
