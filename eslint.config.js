import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

/**
 * The floors of DESIGN.md "Layout", top to bottom. A file may import from its own floor or any floor below it,
 * never from one above (`boundaries/dependencies`). Folders that do not exist yet are listed so work that adds
 * them is checked from its first file.
 */
const FLOORS = [
  ['cli', 'ui', 'sinks', 'headless', 'acp'],
  ['driver'],
  ['runtime'],
  ['hooks', 'mcp', 'subagents', 'checkpoints', 'claude-code', 'sandbox', 'plugins'],
  ['loop'],
  ['store'],
  ['context'],
  ['tools'],
  ['providers'],
  ['permissions', 'commands', 'config', 'fs', 'text', 'errors'],
];
const FOLDERS = FLOORS.flat();
const FRONTS = FLOORS[0];
const CORE = FOLDERS.filter((folder) => !FRONTS.includes(folder));

export default tseslint.config(
  { ignores: ['dist/', 'build/', 'node_modules/', 'coverage/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: CORE.map((folder) => `src/${folder}/**`),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['ink', 'ink-*', 'react', 'commander'],
              message: 'Core modules must not import UI or CLI libraries.',
            },
            { group: ['**/ui/**', '**/cli/**'], message: 'Core modules must not import from ui/ or cli/.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': FOLDERS.map((folder) => ({ type: folder, pattern: `src/${folder}` })),
      // Imports are written `./x.js` for `./x.ts`: the TypeScript resolver finds the source file.
      'import/resolver': { typescript: { project: './tsconfig.json' } },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: [
            // Packages and Node built-ins are not floors (the no-restricted-imports rule above limits those).
            { allow: { to: { module: { origin: ['external', 'core'] } } } },
            ...FLOORS.map((floor, index) => ({
              from: { element: { type: floor } },
              allow: { to: { element: { type: FLOORS.slice(index).flat() } } },
            })),
          ],
        },
      ],
    },
  },
  {
    // One error base: every error class in src extends McaError (src/errors/mca-error.ts), never Error itself.
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: ['src/errors/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ClassDeclaration[superClass.name='Error'], ClassExpression[superClass.name='Error']",
          message: 'Error classes extend McaError (src/errors/mca-error.ts).',
        },
      ],
    },
  },
  {
    // The environment is read through the runtime's view (src/config/child-environment.ts `EnvironmentView`):
    // several runtimes in one process (ACP) must never see each other's settings `env`. Only the configuration
    // floor and the CLI entry touch process.env.
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: ['src/config/**', 'src/cli/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: "Read the runtime's environment view (ctx.env, runtime.env) or src/config/child-environment.ts.",
        },
      ],
    },
  },
  {
    files: ['scripts/**', 'bench/**/*.mjs', '*.config.*'],
    languageOptions: { globals: { URL: 'readonly', process: 'readonly', console: 'readonly' } },
  },
);
