import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
    files: [
      'src/context/**',
      'src/tools/**',
      'src/agent/**',
      'src/providers/**',
      'src/session/**',
      'src/config/**',
      'src/text/**',
      'src/fs/**',
    ],
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
    files: ['scripts/**', 'bench/**/*.mjs', '*.config.*'],
    languageOptions: { globals: { URL: 'readonly', process: 'readonly', console: 'readonly' } },
  },
);
