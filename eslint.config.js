// Runtime boundaries (DESIGN.md §1) are enforced here, not by good intentions.
import tseslint from 'typescript-eslint';

const nodeBuiltins = { group: ['node:*'], message: 'This folder runs outside Node: no node:* imports.' };
const electron = { group: ['electron', 'electron/*'], message: 'Only the Electron shell (src/main/shell, src/preload) imports electron.' };
const react = { group: ['react', 'react-dom', 'react/*', 'react-dom/*'], message: 'src/shared is pure TypeScript: no React.' };
const mainFolder = { group: ['**/main/**', '**/src/main', '**/main'], message: 'The renderer cannot reach into src/main: go through window.firebrand.' };

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'dist/**', 'bench/results.json'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [nodeBuiltins, electron, react] }] },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [nodeBuiltins, electron, mainFolder] }] },
  },
  {
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/shell/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [electron] }] },
  },
);
